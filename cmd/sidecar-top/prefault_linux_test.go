package main

import (
	"os"
	"os/exec"
	"runtime/debug"
	"testing"
)

// TestPrefaultHeap: the memory prefaultHeap backs is resident at once, and it is the heap's: what
// is allocated and written next goes into it rather than into new pages. In a process of its own,
// started as a replay's is (a heap of a few MiB, a memory limit, no collection before it): the
// heap allocates from its lowest free pages, and in this test's process other tests leave some
// below, not resident.
func TestPrefaultHeap(t *testing.T) {
	if procStatus("RssAnon:") == 0 {
		t.Skip("no RssAnon in /proc/self/status here")
	}
	if os.Getenv("SIDECAR_TOP_TEST_PREFAULT") == "1" {
		prefaultChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPrefaultHeap$", "-test.v")
	cmd.Env = append(os.Environ(), "SIDECAR_TOP_TEST_PREFAULT=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

func prefaultChild(t *testing.T) {
	debug.SetMemoryLimit(1 << 30)
	debug.SetGCPercent(-1)
	const n = 32 << 20
	before := procStatus("RssAnon:")
	prefaultHeap(n)
	after := procStatus("RssAnon:")
	if after-before < n-2<<20 {
		t.Fatalf("resident anonymous memory grew by %d KiB, want about %d", (after-before)>>10, n>>10)
	}
	// 24 MiB in small objects, allocated and written as a replay's are: into the backed pages.
	keep := make([][]byte, 0, 6<<10)
	for range cap(keep) {
		keep = append(keep, make([]byte, 4<<10))
	}
	for _, b := range keep {
		b[0] = 1
	}
	if grown := procStatus("RssAnon:") - after; grown > 8<<20 {
		t.Errorf("24 MiB allocated and written after prefaultHeap added %d KiB resident, want the backed pages used", grown>>10)
	}
}

// TestPrefaultSize: half the file, never closer to the limit than prefaultRoom, nothing below
// prefaultMin.
func TestPrefaultSize(t *testing.T) {
	for _, tc := range []struct{ size, limit, want int64 }{
		{101 << 20, 63 << 20, 63<<20 - prefaultRoom},
		{48 << 20, 40 << 20, 24 << 20},
		{5 << 20, 40 << 20, 0},
		{200 << 20, prefaultRoom + 4<<20, 0},
	} {
		if got := prefaultSize(tc.size, tc.limit); got != tc.want {
			t.Errorf("prefaultSize(%d MiB, %d MiB) = %d, want %d", tc.size>>20, tc.limit>>20, got, tc.want)
		}
	}
}
