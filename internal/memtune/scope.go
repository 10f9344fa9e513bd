package memtune

import (
	"os"
	"runtime/debug"
)

// A scope (-A, or a namespace with no target) holds every pod of it, and the garbage each update
// makes is small beside that: a live run's collector target (Live: the heap may grow by twice
// what is live) lets a cluster's heap take three times what it keeps, most of the resident set.
// Scope keeps that target while the heap is small, where collecting is what costs, and bounds
// the heap as it grows with a soft memory limit that follows each collection (up and down): what
// is live, scopeRoom of it and scopeSlack for new objects, and the runtime's overhead besides
// (heapAfter), which the runtime takes off the limit before it sets the heap's goal. Without the
// overhead, a limit of 1.25 times the live heap left a 275 MB heap of 20,000 pods a few MB to
// allocate in, and the collector ran every second with nothing changing. Counting the heap's
// free spans in would let the limit climb by the room at each collection. What the room trades
// of CPU for memory is measured in docs/performance.md (cluster scale).
const (
	scopeRoom  = 0.25
	scopeSlack = 16 << 20
)

// Scope bounds a scope's heap as above, unless the user has set GOMEMLIMIT (GOGC is Live's).
func Scope() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	limit := int64(2 * scopeSlack)
	debug.SetMemoryLimit(limit)
	follow(limit, scopeLimit)
}

// scopeLimit is the limit after a collection left heap.
func scopeLimit(_ int64, heap heapAfter) (int64, bool) {
	return heap.overhead + int64((1+scopeRoom)*float64(heap.live)) + scopeSlack, true
}
