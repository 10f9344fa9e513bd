package memtune

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestReplay: replaying a file sets a soft memory limit of its size less what is mapped from
// files already (at least minHeapLimit) and leaves collecting to it; GOMEMLIMIT or GOGC set by
// the user, or a stream that is not a regular file, leave the runtime as it is.
func TestReplay(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 100<<20); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(t.TempDir(), "small.jsonl")
	if err := os.WriteFile(small, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		file      string // "" for a stream that is not a file
		env       map[string]string
		limit     int64 // -1: the big file's, heapLimit of its size and what is mapped now
		gcPercent int
	}{
		{"big file", big, nil, -1, -1},
		{"small file", small, nil, minHeapLimit, -1},
		{"stream", "", nil, math.MaxInt64, 100},
		{"GOMEMLIMIT set", big, map[string]string{"GOMEMLIMIT": "1GiB"}, math.MaxInt64, 100},
		{"GOGC set", big, map[string]string{"GOGC": "100"}, -1, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"GOMEMLIMIT", "GOGC"} {
				if v, ok := tc.env[k]; ok {
					t.Setenv(k, v)
				} else {
					t.Setenv(k, "")
					os.Unsetenv(k)
				}
			}
			limit0, gc0 := debug.SetMemoryLimit(math.MaxInt64), debug.SetGCPercent(100)
			defer func() { debug.SetMemoryLimit(limit0); debug.SetGCPercent(gc0) }()
			if tc.file == "" {
				Replay(bytes.NewReader(nil))
			} else {
				f, err := os.Open(tc.file)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				Replay(f)
			}
			got := debug.SetMemoryLimit(-1)
			if tc.limit == -1 {
				// What is mapped moves a little as the test runs: within a MiB of now.
				if want := heapLimit(100<<20, mappedFromFiles()); got < want-1<<20 || got > want+1<<20 {
					t.Errorf("memory limit %d, want about %d", got, want)
				}
			} else if got != tc.limit {
				t.Errorf("memory limit %d, want %d", got, tc.limit)
			}
			if got := debug.SetGCPercent(100); got != tc.gcPercent {
				t.Errorf("GC percent %d, want %d", got, tc.gcPercent)
			}
		})
	}
}

// TestHeapLimit: the limit is the file's size less what is mapped and limitSlack, never below
// minHeapLimit.
func TestHeapLimit(t *testing.T) {
	for _, tc := range []struct{ size, mapped, want int64 }{
		{200 << 20, 32 << 20, 200<<20 - 32<<20 - limitSlack},
		{200 << 20, 0, 200<<20 - limitSlack},
		{100 << 20, 40 << 20, 100<<20 - 40<<20 - limitSlack},
		{100 << 20, 60 << 20, minHeapLimit},
		{1 << 10, 32 << 20, minHeapLimit},
	} {
		if got := heapLimit(tc.size, tc.mapped); got != tc.want {
			t.Errorf("heapLimit(%d, %d) = %d, want %d", tc.size, tc.mapped, got, tc.want)
		}
	}
}
