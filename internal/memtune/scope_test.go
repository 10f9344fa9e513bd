package memtune

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestScopeLimitFollowsLiveHeapBothWays: a scope's limit rises with what is live and comes down
// again when it is let go, at scopeHeadroom times what is live plus the slack.
func TestScopeLimitFollowsLiveHeapBothWays(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: Scope leaves the limit to it")
	}
	limit0 := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(limit0)
	kept := make([][]byte, 96)
	for i := range kept {
		kept[i] = make([]byte, 1<<20) // 96 MiB live
	}
	Scope()
	within := func(lo, hi int64) int64 {
		var now int64
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			runtime.GC()
			if now = debug.SetMemoryLimit(-1); now >= lo && now <= hi {
				break
			}
		}
		return now
	}
	at := func(live int64) int64 { return int64(scopeHeadroom*float64(live<<20)) + scopeSlack }
	if now := within(at(96), at(120)); now < at(96) || now > at(120) {
		t.Fatalf("limit %d MiB with 96 MiB live, want about %d", now>>20, at(96)>>20)
	}
	runtime.KeepAlive(kept)
	kept = nil
	if now := within(0, at(40)); now > at(40) {
		t.Errorf("limit %d MiB once the 96 MiB were let go, want it back down near the slack (%d MiB)", now>>20, scopeSlack>>20)
	}
}
