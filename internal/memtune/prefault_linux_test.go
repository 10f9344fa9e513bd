package memtune

import (
	"os"
	"os/exec"
	"runtime/debug"
	"testing"
	"unsafe"
)

// TestPrefaultHeap: the stretch heapAhead reserves is not resident until backed, then as much of
// it as populate is told, and it is the heap's: what is allocated next goes into it rather than
// into new pages. In a process of its own, started as a replay's is (a heap of a few MiB, a
// memory limit, no collection before it): the heap allocates from its lowest free pages, and in
// this test's process other tests leave some.
func TestPrefaultHeap(t *testing.T) {
	if ProcStatus("RssAnon:") == 0 {
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
	before := ProcStatus("RssAnon:")
	var h heapAhead
	h.reserve(n)
	if grown := ProcStatus("RssAnon:") - before; grown > 2<<20 && !raceDetector {
		t.Fatalf("reserving grew resident anonymous memory by %d KiB, want next to nothing", grown>>10)
	}
	h.populate(n / 2)
	if grown := ProcStatus("RssAnon:") - before; (grown < n/2-2<<20 || grown > n/2+2<<20) && !raceDetector {
		t.Fatalf("backing half the stretch grew resident anonymous memory by %d KiB, want about %d", grown>>10, n>>11)
	}
	h.populate(n)
	if grown := ProcStatus("RssAnon:") - before; grown < n-2<<20 {
		t.Fatalf("resident anonymous memory grew by %d KiB, want about %d", grown>>10, n>>10)
	}
	// 24 MiB in small objects, as a replay allocates: into the backed pages, nearly all.
	keep := make([][]byte, 0, 6<<10)
	in := 0
	for range cap(keep) {
		b := make([]byte, 4<<10)
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(b))); p >= h.from && p < h.from+h.n {
			in++
		}
		keep = append(keep, b)
	}
	if in < len(keep)*9/10 {
		t.Errorf("%d of %d objects allocated after reserve are in the memory it backed, want nearly all", in, len(keep))
	}
}

// TestPrefaultSize: half the file, never closer to the limit than prefaultRoom, nothing before
// prefaultMin is read, at most prefaultAhead times what was read and prefaultReserve.
func TestPrefaultSize(t *testing.T) {
	for _, tc := range []struct{ size, kept, limit, want int64 }{
		{101 << 20, 101 << 20, 63 << 20, 63<<20 - prefaultRoom},
		{48 << 20, 48 << 20, 40 << 20, 24 << 20},
		{5 << 20, 5 << 20, 40 << 20, 5 << 19},
		{200 << 20, 200 << 20, prefaultRoom + 4<<20, 4 << 20},
		{200 << 20, 8 << 20, 190 << 20, 32 << 20},
		{3 << 30, 52 << 10, 3 << 30, 0},
		{3 << 30, 3 << 30, 3 << 30, prefaultReserve},
		{16 << 30, 0, 16 << 30, 0},
	} {
		if got := prefaultSize(tc.size, tc.kept, tc.limit); got != tc.want {
			t.Errorf("prefaultSize(%d MiB, %d KiB read, %d MiB) = %d, want %d", tc.size>>20, tc.kept>>10, tc.limit>>20, got, tc.want)
		}
	}
}
