//go:build e2e

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
)

// TestFaultClockSteppedForward: the machine's wall clock is stepped forward by 4 ms every
// 250 ms (16 ms a second, a slow clock being corrected) while the start-order scenario runs and
// is recorded. Every stamp on the one-node cluster and every receive time follows the same
// wall clock, so the runtime's own stamps still lie in the tool's bounds, and the timeline
// does not say that the clocks disagree. When receive times kept to the monotonic clock, CI
// failed 12 scenarios on 2026-12-05, each with a container start read a few ms before
// containerd stamped it; this stepping made the same happen here to every start of this one.
func TestFaultClockSteppedForward(t *testing.T) {
	steppedScenario(t, 4*time.Millisecond)
}

// TestFaultClockSteppedBack: the same, stepped back by 4 ms every 250 ms (a fast clock being
// corrected). Receive times hold still until the wall clock passes them again, so they stay in
// receive order; the runtime's stamps stay in the tool's bounds (also at 12 ms a step, tried by
// hand on 2026-12-05, twice).
func TestFaultClockSteppedBack(t *testing.T) {
	steppedScenario(t, -4*time.Millisecond)
}

// steppedScenario runs and checks the start-order scenario while the wall clock is stepped by
// step every 250 ms, and steps it back by the total after.
func steppedScenario(t *testing.T, step time.Duration) {
	if !harness.FaultsAllowed() {
		t.Skip(harness.ErrNoFaults)
	}
	c, err := harness.StepClock(step, 250*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		total, err := c.Stop()
		if err != nil {
			t.Error(err)
		}
		t.Logf("the wall clock was stepped by %s in all, and by as much the other way at the end", total)
		if total.Abs() < 100*time.Millisecond {
			t.Errorf("the wall clock moved only %s during the scenario, too little to test anything", total)
		}
	}
	defer stop()
	r, _ := runScenario(t, harness.StartOrder)
	stop()
	if i := slices.IndexFunc(r.Timeline.Notes, func(n string) bool { return strings.Contains(n, "clock") }); i >= 0 {
		t.Errorf("on one machine, whose clock every component shares, the timeline says: %s", r.Timeline.Notes[i])
	}
	checkTruth(t, r, harness.StartOrder)
}
