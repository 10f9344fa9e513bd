package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/internal/memtune"
	"github.com/sidecar-top/sidecar-top/recfile"
)

// replayMemoryEnv, when set, makes TestReplayMemory the program under test: it replays the file
// the variable names with -o json, as sidecar-top would, and prints how much its peak resident
// memory (VmHWM) grew.
const replayMemoryEnv = "SIDECAR_TOP_TEST_REPLAY_MEMORY"

// TestReplayMemory: a replay's memory follows what it read, not the file's size, and a line
// refused as too long costs the limit, no more. In processes of their own, each replaying with
// -o json, which bounds its heap by the file: a sparse file of 3 GiB (its 21 first lines from a
// real recording, then nothing: line 22 is refused), one of 16 GiB in a process limited to 4 GiB
// of address space, and a real file whose line 4 is 70 MB of text. Each may grow its peak
// resident memory by the limit and refusalRoom at most: the sparse file had grown it by 1.5 GiB
// (half its size was backed ahead at once), the long line by 3-5 times the limit (a buffer grown
// by append), and the file of 16 GiB had died allocating the 8 GiB to back ("fatal error: out of
// memory").
func TestReplayMemory(t *testing.T) {
	if path := os.Getenv(replayMemoryEnv); path != "" {
		before := memtune.ProcStatus("VmHWM:")
		code := run([]string{"replay", path, "-o", "json"}, newStreams())
		fmt.Printf("exit %d, peak grew by %d\n", code, memtune.ProcStatus("VmHWM:")-before)
		return
	}
	if memtune.ProcStatus("VmHWM:") == 0 {
		t.Skip("no VmHWM in /proc/self/status here")
	}
	if raceDetector {
		t.Skip("the race detector's shadow memory is resident too")
	}
	if testing.Short() {
		t.Skip("writes a file of 70 MB")
	}
	rec, err := os.ReadFile(recordingPath("crashing-sidecar"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(rec, []byte("\n"))
	dir := t.TempDir()
	sparse := filepath.Join(dir, "sparse.jsonl")
	if err := os.WriteFile(sparse, bytes.Join(lines[:21], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 3<<30); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	huge := filepath.Join(dir, "huge.jsonl")
	if err := os.WriteFile(huge, bytes.Join(lines[:21], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 16<<30); err != nil {
		t.Skipf("no sparse file of 16 GiB here: %v", err)
	}
	long := filepath.Join(dir, "long.jsonl")
	body := append(bytes.Join(lines[:3], nil), bytes.Repeat([]byte("x"), 70e6)...)
	if err := os.WriteFile(long, append(body, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, line string
		addressSpace     int // KiB, or 0: no limit
	}{
		{"a sparse file of 3 GiB", sparse, ":22: line is longer than", 0},
		{"a sparse file of 16 GiB in 4 GiB of address space", huge, ":22: line is longer than", 4 << 20},
		{"a line of 70 MB", long, ":4: line is longer than", 0},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestReplayMemory$")
		if tc.addressSpace > 0 { // set in the shell that then becomes the test's process
			cmd = exec.Command("/bin/sh", "-c", fmt.Sprintf(`ulimit -v %d && exec "$0" -test.run='^TestReplayMemory$'`, tc.addressSpace), os.Args[0])
		}
		cmd.Env = append(os.Environ(), replayMemoryEnv+"="+tc.path)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s%.500s", tc.name, err, out.String(), errOut.String())
		}
		var code int
		var grew int64
		if _, err := fmt.Sscanf(out.String(), "exit %d, peak grew by %d", &code, &grew); err != nil {
			t.Fatalf("%s: %q: %v", tc.name, out.String(), err)
		}
		if code != 1 || !strings.Contains(errOut.String(), tc.line) {
			t.Errorf("%s: exit %d, %q; want 1 and %q", tc.name, code, errOut.String(), tc.line)
		}
		t.Logf("%s: the peak resident memory grew by %.1f MiB (the line limit is %d MiB)", tc.name, float64(grew)/(1<<20), recfile.MaxLineBytes>>20)
		if grew > recfile.MaxLineBytes+refusalRoom {
			t.Errorf("%s: the peak resident memory grew by %s MiB, want at most the line limit and %d MiB (%d MiB)", tc.name,
				strconv.FormatInt(grew>>20, 10), refusalRoom>>20, (recfile.MaxLineBytes+refusalRoom)>>20)
		}
	}
}
