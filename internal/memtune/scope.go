package memtune

import (
	"os"
	"runtime/debug"
)

// A scope (-A, or a namespace with no target) holds every pod of it, and the garbage each update
// makes is small beside that: a live run's collector target (Live: the heap may grow by twice
// what is live) lets a cluster's heap take three times what it keeps, most of the resident set.
// Scope keeps that target while the heap is small, where collecting is what costs, and bounds
// the heap to scopeHeadroom times what the last collection found live, plus scopeSlack, as it
// grows: a soft memory limit that follows the live heap after each collection (up and down).
// Being at least a quarter again what is live, the limit never has the collector run without
// end; what this headroom trades of CPU for memory is measured in docs/performance.md
// (cluster scale).
const (
	scopeHeadroom = 1.25
	scopeSlack    = 16 << 20
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

// scopeLimit is the limit after a collection found live bytes live.
func scopeLimit(_, live int64) (int64, bool) {
	return int64(scopeHeadroom*float64(live)) + scopeSlack, true
}
