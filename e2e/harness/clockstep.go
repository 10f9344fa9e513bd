//go:build e2e

package harness

import (
	"fmt"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// ClockStepper steps this machine's wall clock (CLOCK_REALTIME) by a few milliseconds at a time,
// forward or back, as a time-sync agent correcting a clock that runs slow or fast does (on CI,
// receive times kept to the monotonic clock fell 6 ms behind containerd's stamps seconds into a
// recording). Everything on the one-node cluster stamps with that clock, the API server, the
// kubelet and containerd as well as the recorder, so a receive time that kept to the monotonic
// clock instead would fall behind the stamps it bounds. The monotonic clock, which timers and
// durations use, does not move. Stop steps the clock the other way by the total.
type ClockStepper struct {
	stop  chan struct{}
	done  chan struct{}
	mu    sync.Mutex
	total time.Duration
	err   error
}

// StepClock steps the clock by step (back, if negative) now, to check that it may (it needs
// CAP_SYS_TIME), and then every period until Stop.
func StepClock(step, period time.Duration) (*ClockStepper, error) {
	c := &ClockStepper{stop: make(chan struct{}), done: make(chan struct{})}
	if err := c.step(step); err != nil {
		return nil, err
	}
	go func() {
		defer close(c.done)
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-c.stop:
				return
			case <-tick.C:
				if err := c.step(step); err != nil {
					return
				}
			}
		}
	}()
	return c, nil
}

// step moves the wall clock by d and counts it.
func (c *ClockStepper) step(d time.Duration) error {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_REALTIME, &ts); err != nil {
		return fmt.Errorf("reading the wall clock: %w", err)
	}
	ts = unix.NsecToTimespec(ts.Nano() + d.Nanoseconds())
	if err := unix.ClockSettime(unix.CLOCK_REALTIME, &ts); err != nil {
		err = fmt.Errorf("stepping the wall clock by %s: %w (it needs CAP_SYS_TIME)", d, err)
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		return err
	}
	c.mu.Lock()
	c.total += d
	c.mu.Unlock()
	return nil
}

// Stop stops stepping and steps the clock the other way by what it stepped it; it returns that
// total, and the first error of a step.
func (c *ClockStepper) Stop() (time.Duration, error) {
	close(c.stop)
	<-c.done
	c.mu.Lock()
	total, err := c.total, c.err
	c.mu.Unlock()
	if back := c.step(-total); back != nil && err == nil {
		err = back
	}
	return total, err
}
