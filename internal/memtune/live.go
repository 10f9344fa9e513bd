package memtune

import (
	"os"
	"runtime/debug"
)

// Live sets the collector's target for a live run to gcPercent (as GOGC would), unless the user
// has set GOGC.
func Live(gcPercent int) {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}
