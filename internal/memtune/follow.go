package memtune

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// A replay's soft memory limit (Replay) is the recording's size, as the timeline it builds
// is usually a third of that or less. It is not always: one pod of 10,000 containers keeps about
// twice its recording's size (every update of it repeats 10,000 statuses, and the timeline keeps
// each container's runs), and with the heap held at a limit below what it keeps, the collector
// ran without end, up to the half of the CPU the runtime allows it: the cost of replay -o json
// grew faster than the pod (issue 42; scripts/bench-wide-pod.sh). So the limit follows what
// the heap keeps: after each collection, when what it marked live is more than liveShare of the
// limit, the limit becomes liveHeadroom times that, the collector's own default (GOGC=100) for
// that heap.

// liveShare and liveHeadroom: the limit rises when the live heap passes three quarters of it, to
// twice the live heap.
const (
	liveShare    = 0.75
	liveHeadroom = 2
)

// heapFollower raises the soft memory limit it set to follow the live heap. It stops when
// someone else has changed the limit: the limit is theirs then.
type heapFollower struct {
	limit  int64
	sample []metrics.Sample
	// next is the limit after a collection that left heap; ok is false to keep the limit as
	// it is.
	next func(limit int64, heap heapAfter) (int64, bool)
}

// heapAfter is what a collection left: the bytes it marked live, and what the limit counts
// besides the heap's objects and free spans (the spans' unused ends, stacks, the runtime's
// metadata), which the runtime takes off the limit before it sets the heap's goal.
type heapAfter struct{ live, overhead int64 }

// followMetrics are what heapAfter is read from: the live heap, then the memory the limit
// counts (all mapped, less what was given back), then the heap's free spans and its objects.
var followMetrics = []string{"/gc/heap/live:bytes", "/memory/classes/total:bytes", "/memory/classes/heap/released:bytes",
	"/memory/classes/heap/free:bytes", "/memory/classes/heap/objects:bytes"}

// sentinel is an object the follower lets go of each cycle, so that its cleanup runs after
// the next collection; it holds a pointer so that it is not batched with other tiny objects.
type sentinel struct{ _ *int }

// followLiveHeap makes the memory limit, which is limit now, follow the live heap from the next
// collection on.
func followLiveHeap(limit int64) {
	follow(limit, func(limit int64, h heapAfter) (int64, bool) {
		return liveHeadroom * h.live, float64(h.live) > liveShare*float64(limit)
	})
}

// follow sets the memory limit to limit and has next move it after each collection.
func follow(limit int64, next func(limit int64, heap heapAfter) (int64, bool)) {
	f := &heapFollower{limit: limit, next: next}
	for _, name := range followMetrics {
		f.sample = append(f.sample, metrics.Sample{Name: name})
	}
	f.arm()
}

func (f *heapFollower) arm() {
	runtime.AddCleanup(&sentinel{}, func(f *heapFollower) { f.collected() }, f)
}

// collected runs after a collection (on the runtime's cleanup goroutine, one at a time).
func (f *heapFollower) collected() {
	if debug.SetMemoryLimit(-1) != f.limit {
		return
	}
	metrics.Read(f.sample)
	for _, s := range f.sample {
		if s.Value.Kind() != metrics.KindUint64 {
			return
		}
	}
	v := func(i int) int64 { return int64(f.sample[i].Value.Uint64()) }
	if limit, ok := f.next(f.limit, heapAfter{live: v(0), overhead: v(1) - v(2) - v(3) - v(4)}); ok {
		f.limit = limit
		debug.SetMemoryLimit(f.limit)
	}
	f.arm()
}
