// Package memtune sets the Go runtime's memory limit and collector for how sidecar-top runs: a
// replay of a file within the file's size (Replay), with the heap it will grow into backed ahead
// of it, and a live run at its own collector target (Live). The user's GOMEMLIMIT and GOGC win.
package memtune

import (
	"io"
	"os"
	"runtime/debug"
)

// minHeapLimit is the least soft memory limit Replay sets: below it the collector would run
// for nothing on small recordings. It had been 64 MiB, which set the limit for the 101 MiB
// recording whenever the program started with more than 29 MiB of itself mapped: with 42 MiB
// mapped, as a freshly built binary can have, the replay peaked at 103 MiB resident. The
// replay of that recording collects without end below about 40 MiB (GOMEMLIMIT=40MiB: 2.1 s
// against 1.0), so the floor is that.
const minHeapLimit = 40 << 20

// Replay keeps a replay's memory within the recording's size, when r is a file and the user
// has not set GOMEMLIMIT: the reader decodes every object and drops it, so most of what the heap
// holds at any time is garbage, and the collector's default (run when the heap has doubled since
// the last collection) lets it grow to twice the timeline. A soft limit has it collect sooner
// instead; the runtime caps the time it then spends collecting at half the CPU, so a timeline
// bigger than the limit costs CPU, never a failure. It returns what the reader is to tell of its
// progress (recfile.Options.Progress), or nil.
//
// The limit is a ceiling, not memory taken: the heap grows only by what is allocated, and that
// follows what is read (a line refused costs what it read, recfile.MaxLineBytes at most). What is
// taken ahead of the allocations (the heap backed ahead, prefaultSize) follows what the reader
// has read too, never the file's size alone, which says nothing of what a file holds: a sparse
// file of 3 GiB whose line 22 was refused had had 1.5 GiB backed before a byte was read.
//
// The limit is the file's size less what the process already has mapped from files (its own
// program: Linux maps 64 KiB around each page the packages' init functions touch, 27-38 MiB of
// sidecar-top), at least minHeapLimit: so the whole resident set, not only the heap, stays
// within the file's size. Replaying the 101 MiB recording of a 2,200-pod Job with a limit of the
// file's size peaked at 131-136 MiB resident (97 anonymous, 35 mapped); with this one (and the
// facts let go of as the end is derived: timeline.Builder.Final), 95-97 MiB.
//
// Below the limit the collector then has nothing to do (unless GOGC is set): the timeline a
// replay builds is a third of a recording's size or less, so collecting whenever the heap has
// doubled only spent CPU on memory the limit allows anyway. Replaying the 101 MiB recording of a
// 2,200-pod Job took 1.0-1.1 CPU-s with it and 0.9-1.0 without (scripts/bench.sh). As the heap
// will grow to near the limit, the memory it grows into is backed ahead (prefault.go).
func Replay(r io.Reader) (progress func(kept int64)) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return nil
	}
	f, ok := r.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	size := fi.Size()
	limit := heapLimit(size, mappedFromFiles())
	debug.SetMemoryLimit(limit)
	followLiveHeap(limit)
	if _, set := os.LookupEnv("GOGC"); set {
		return nil
	}
	debug.SetGCPercent(-1)
	p := &heapAhead{size: size, limit: limit, next: prefaultMin}
	p.reserve(prefaultSize(size, size, limit))
	return p.grow
}

// heapLimit is the soft memory limit for replaying a file of size bytes with mapped bytes of
// files resident already.
func heapLimit(size, mapped int64) int64 {
	return max(size-mapped-limitSlack, minHeapLimit)
}

// limitSlack is room for what the resident set gains outside the limit as the replay goes on:
// code run for the first time after the limit is set (reading, deriving, writing JSON mapped
// 4-5 MiB more of the program: 27 -> 32 MiB), and the runtime's overshoot of a soft limit (a
// MiB or two). With 4 MiB of slack a replay of the 101 MiB recording peaked at 99.5 MiB.
const limitSlack = 8 << 20
