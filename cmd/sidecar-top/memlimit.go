package main

import (
	"io"
	"os"
	"runtime/debug"
)

// minHeapLimit is the least soft memory limit boundHeap sets: below it the collector would run
// for nothing on small recordings.
const minHeapLimit = 64 << 20

// boundHeap keeps a replay's memory within the recording's size, when r is a file and the user
// has not set GOMEMLIMIT: the reader decodes every object and drops it, so most of what the heap
// holds at any time is garbage, and the collector's default (run when the heap has doubled since
// the last collection) lets it grow to twice the timeline. A soft limit of the file's size (at
// least 64 MiB) has it collect sooner instead; the runtime caps the time it then spends
// collecting at half the CPU, so a timeline bigger than the limit costs CPU, never a failure.
//
// Below the limit the collector then has nothing to do (unless GOGC is set): the timeline a
// replay builds is a third of a recording's size or less, so collecting whenever the heap has
// doubled only spent CPU on memory the limit allows anyway. Replaying the 101 MiB recording of a
// 2,200-pod Job took 1.0-1.1 CPU-s with it and 0.9-1.0 without (scripts/bench.sh).
func boundHeap(r io.Reader) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	f, ok := r.(*os.File)
	if !ok {
		return
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	debug.SetMemoryLimit(max(fi.Size(), minHeapLimit))
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(-1)
	}
}
