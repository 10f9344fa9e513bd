package memtune

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestLimitFollowsLiveHeap: with more kept than three quarters of the limit, a collection
// raises the limit to twice what is live (else the collector runs without end, and a wide pod's
// replay cost grew with its square); once someone else sets the limit, it is theirs.
func TestLimitFollowsLiveHeap(t *testing.T) {
	limit0 := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(limit0)

	kept := make([][]byte, 64)
	for i := range kept {
		kept[i] = make([]byte, 1<<20) // 64 MiB live
	}
	const small = 16 << 20
	debug.SetMemoryLimit(small)
	followLiveHeap(small)
	var now int64
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		runtime.GC()
		if now = debug.SetMemoryLimit(-1); now >= 2*64<<20 {
			break
		}
	}
	if now < 2*64<<20 {
		t.Fatalf("limit %d MiB with 64 MiB live, want at least 128", now>>20)
	}
	runtime.KeepAlive(kept)

	theirs := int64(small)
	debug.SetMemoryLimit(theirs)
	for range 5 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if now := debug.SetMemoryLimit(-1); now != theirs {
		t.Errorf("limit %d MiB after another owner set %d MiB: the follower changed it", now>>20, theirs>>20)
	}
	runtime.KeepAlive(kept)
}
