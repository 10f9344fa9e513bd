package memtune

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// TestScopeLimitFollowsLiveHeapBothWays: a scope's limit rises with what is live and comes down
// again when it is let go: what is live, scopeRoom of it and the slack, and the runtime's own
// overhead (allowed for up to 32 MiB).
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
	at := func(live int64) int64 { return int64((1+scopeRoom)*float64(live<<20)) + scopeSlack }
	if now := within(at(96), at(96)+32<<20); now < at(96) || now > at(96)+32<<20 {
		t.Fatalf("limit %d MiB with 96 MiB live, want %d MiB and up to 32 more", now>>20, at(96)>>20)
	}
	// The room is beyond the runtime's overhead, not eaten by it: the heap's goal, which the
	// runtime sets from the limit, leaves the room above what is live.
	if goal := heapGoal(); goal < int64((1+scopeRoom)*96)<<20 {
		t.Errorf("heap goal %d MiB with 96 MiB live, want at least %d", goal>>20, int64((1+scopeRoom)*96))
	}
	runtime.KeepAlive(kept)
	kept = nil
	if now := within(0, at(40)); now > at(40) {
		t.Errorf("limit %d MiB once the 96 MiB were let go, want it back down near the slack (%d MiB)", now>>20, scopeSlack>>20)
	}
}

// heapGoal is the collector's heap goal after a collection.
func heapGoal() int64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// node is a small object with pointers, as most of what a scope keeps is (milestones, runs,
// rows): the heap's overhead for such objects is what a limit of the live heap alone missed.
type node struct {
	next *node
	name *string
	_    [3]int64
}

// TestScopeRoomBeyondOverhead: with 96 MiB live in small objects with pointers, the heap's goal
// that the limit leads the runtime to is scopeRoom of what is live and part of the slack above
// it, whatever the runtime's overhead for such a heap (128 MiB live: a goal of 170 MiB; with the
// limit of the live heap alone, 157).
func TestScopeRoomBeyondOverhead(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: Scope leaves the limit to it")
	}
	limit0 := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(limit0)
	var head *node
	for range (96 << 20) / 48 {
		s := "x"
		head = &node{next: head, name: &s}
	}
	Scope()
	var goal, live int64
	for range 5 {
		goal = heapGoal()
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		live = int64(s[0].Value.Uint64())
	}
	// A quarter of the slack: the runtime keeps a few percent of the limit back for itself.
	if want := int64((1+scopeRoom)*float64(live)) + scopeSlack/4; goal < want {
		t.Errorf("heap goal %d MiB with %d MiB live, want at least %d MiB (limit %d MiB)", goal>>20, live>>20, want>>20,
			debug.SetMemoryLimit(-1)>>20)
	}
	runtime.KeepAlive(head)
}
