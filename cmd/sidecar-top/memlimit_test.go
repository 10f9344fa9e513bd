package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestBoundHeap: replaying a file sets a soft memory limit of its size (at least minHeapLimit)
// and leaves collecting to it; GOMEMLIMIT or GOGC set by the user, or a stream that is not a
// regular file, leave the runtime as it is.
func TestBoundHeap(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 100<<20); err != nil {
		t.Fatal(err)
	}
	small := writeFile(t, "small.jsonl", "{}\n")
	for _, tc := range []struct {
		name      string
		file      string // "" for a stream that is not a file
		env       map[string]string
		limit     int64
		gcPercent int
	}{
		{"big file", big, nil, 100 << 20, -1},
		{"small file", small, nil, minHeapLimit, -1},
		{"stream", "", nil, math.MaxInt64, 100},
		{"GOMEMLIMIT set", big, map[string]string{"GOMEMLIMIT": "1GiB"}, math.MaxInt64, 100},
		{"GOGC set", big, map[string]string{"GOGC": "100"}, 100 << 20, 100},
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
				boundHeap(bytes.NewReader(nil))
			} else {
				f, err := os.Open(tc.file)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				boundHeap(f)
			}
			if got := debug.SetMemoryLimit(-1); got != tc.limit {
				t.Errorf("memory limit %d, want %d", got, tc.limit)
			}
			if got := debug.SetGCPercent(100); got != tc.gcPercent {
				t.Errorf("GC percent %d, want %d", got, tc.gcPercent)
			}
		})
	}
}
