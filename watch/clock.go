package watch

import (
	"context"
	"sync"
	"time"
)

// receiveClock stamps what a Live receives. Its times bound what the API server, the kubelet and
// the container runtime stamped with their wall clocks, so it follows this machine's wall clock,
// steps included: a clock that a time-sync agent steps forward would otherwise leave every later
// receive time behind the stamps it bounds (seen on CI, where receive times kept to the
// monotonic clock read a container's start 6 ms before containerd stamped it, seconds into a
// recording).
// A step back holds it still until the wall clock passes the last time it gave, so receive
// times stay in receive order. Only what was stamped just before such a step and received just
// after can then read later than its receipt, by at most the step (TestFaultClockSteppedBack:
// none did, at 4 or 12 ms a step); keeping to the old time after a step back instead would put
// every later receive time ahead by the step, for good, and the bounds below them as far off.
//
// Durations (how long the server has been silent) are measured on the monotonic clock instead.
type receiveClock struct {
	mu   sync.Mutex
	last time.Time
}

// now is the receive time of something received now: wall time, without a monotonic reading.
func (c *receiveClock) now() time.Time {
	return c.at(time.Now())
}

// at is the receive time of something received when the clock read t.
func (c *receiveClock) at(t time.Time) time.Time {
	t = t.Round(0)
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.Before(c.last) {
		return c.last
	}
	c.last = t
	return t
}

// sleep waits d, or until ctx ends: false if it ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
