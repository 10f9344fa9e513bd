package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/recordings"
)

// pausedRecording is the demo recording name with a pause of exactly pause before item n (1 is
// the first item after the header): every later item is received that much later.
func pausedRecording(t *testing.T, name string, n int, pause time.Duration) string {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	var prev time.Time
	var shift time.Duration
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for i := 0; sc.Scan(); i++ {
		if i == 0 {
			out.WriteString(sc.Text() + "\n")
			continue
		}
		var line map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		var at time.Time
		if err := json.Unmarshal(line["time"], &at); err != nil {
			t.Fatal(err)
		}
		if i == n {
			shift = prev.Add(pause).Sub(at)
		}
		prev = at
		line["time"], _ = json.Marshal(at.Add(shift))
		b, _ := json.Marshal(line)
		out.WriteString(string(b) + "\n")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name+".jsonl")
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReplayPlainIdle: plain output paced by --speed cuts a pause longer than --idle-limit and
// says so, once, where it was; at full speed (no --speed) nothing waits and nothing is said.
func TestReplayPlainIdle(t *testing.T) {
	path := pausedRecording(t, "termination-order", 12, time.Hour)
	code, paced, stderr := runCmd(t, "replay", path, "--speed", "1000", "--idle-limit", "1m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(paced, "\n")
	idle := -1
	for i, l := range lines {
		if strings.Contains(l, "idle") {
			if idle >= 0 || l != "… 1h idle, skipped" {
				t.Errorf("line %d: %q; want one line %q", i, l, "… 1h idle, skipped")
			}
			idle = i
		}
	}
	if idle < 1 || idle >= len(lines)-2 {
		t.Fatalf("no idle line between milestones:\n%s", paced)
	}
	code, fast, _ := runCmd(t, "replay", path, "--idle-limit", "1m")
	if code != 0 || strings.Contains(fast, "idle") {
		t.Errorf("at full speed: exit %d, output says idle:\n%s", code, fast)
	}
}
