//go:build e2e

package e2e

import (
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestFindingSidecarRaced: a sidecar with no startupProbe counts as started as soon as it runs,
// so the app starts before it is ready: sidecar-raced about proxy. guarded has a startupProbe:
// proxy waits for it, and it is no race.
func TestFindingSidecarRaced(t *testing.T) {
	t.Parallel()
	sc := harness.FindingRaced
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"guarded", 0, "guarded started-file"}, line{"proxy", 0, "proxy start"})
	truthOrder(t, r, line{"proxy", 0, "proxy start"}, line{"app", 0, "app start"}, line{"proxy", 0, "proxy ready-file"})

	checkTruth(t, r, sc)
	order(t, want(t, p, "guarded", timeline.MStarted, 0), want(t, p, "proxy", timeline.MStart, 0), orSame)
	order(t, want(t, p, "app", timeline.MStart, 0), want(t, p, "proxy", timeline.MReady, 0), strictly)

	wantFinding(t, r, p, timeline.FindingSidecarRaced, "proxy")
	noFinding(t, p, timeline.FindingSidecarRaced, "guarded", "app")
}

// TestFindingStartupProbeTimedOut: slow's startupProbe times out at the default timeoutSeconds
// of 1: startup-probe-timed-out about slow. explicit's times out at the 2 s its author chose,
// and failing's fails without a timeout: neither is the pitfall.
func TestFindingStartupProbeTimedOut(t *testing.T) {
	t.Parallel()
	sc := harness.FindingProbeTimeout
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"failing", 0, "failing up-file"}, line{"explicit", 0, "explicit start"},
		line{"explicit", 0, "explicit up-file"}, line{"slow", 0, "slow start"}, line{"slow", 0, "slow up-file"},
		line{"app", 0, "app start"})
	// The kubelet said so: a timeout for slow and explicit, a plain failure for failing.
	for c, timedOut := range map[string]bool{"slow": true, "explicit": true, "failing": false} {
		if got := probeTimedOut(r, c); got != timedOut {
			t.Errorf("SCENARIO BROKEN: %s's startup probe timed out: %v, want %v; its Unhealthy Events: %q", c, got, timedOut, unhealthy(r, c))
		}
	}

	checkTruth(t, r, sc)
	chain(t, orSame, want(t, p, "failing", timeline.MStarted, 0), want(t, p, "explicit", timeline.MStart, 0))
	chain(t, orSame, want(t, p, "explicit", timeline.MStarted, 0), want(t, p, "slow", timeline.MStart, 0))
	chain(t, orSame, want(t, p, "slow", timeline.MStarted, 0), want(t, p, "app", timeline.MStart, 0))

	wantFinding(t, r, p, timeline.FindingStartupProbeTimedOut, "slow")
	noFinding(t, p, timeline.FindingStartupProbeTimedOut, "explicit", "failing", "app")
	// Every sidecar here has a startupProbe: none was raced.
	noFinding(t, p, timeline.FindingSidecarRaced, "failing", "explicit", "slow")
}

// TestFindingReadinessHeldBySidecar: the app is ready at once, but the Pod's Ready waits for s1's
// readinessProbe (readiness-held-by-sidecar); when s1 fails it again the Pod is not Ready only
// because of s1 (sidecar-not-ready). Neither is about the app.
func TestFindingReadinessHeldBySidecar(t *testing.T) {
	t.Parallel()
	sc := harness.FindingReadiness
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"app", 0, "app start"}, line{"s1", 0, "s1 ready-file"}, line{"s1", 0, "s1 unready-file"})

	checkTruth(t, r, sc)
	podReady, podNotReady := want(t, p, "", timeline.MReady, 0), lastOf(p, "", timeline.MNotReady)
	order(t, want(t, p, "app", timeline.MReady, 0), want(t, p, "s1", timeline.MReady, 0), strictly)
	order(t, want(t, p, "s1", timeline.MReady, 0), podReady, orSame)
	if podNotReady == nil || podReady == nil || !podReady.At.Before(podNotReady.At) {
		t.Errorf("want the pod not-ready after its ready; the pod has: %s", kinds(p, ""))
	}

	wantFinding(t, r, p, timeline.FindingReadinessHeld, "s1")
	wantFinding(t, r, p, timeline.FindingSidecarNotReady, "s1")
	noFinding(t, p, timeline.FindingReadinessHeld, "app")
	noFinding(t, p, timeline.FindingSidecarNotReady, "app")
}

// probeTimedOut reports whether an Unhealthy Event of the container says its probe timed out.
func probeTimedOut(r *harness.Run, container string) bool {
	for _, m := range unhealthy(r, container) {
		if strings.Contains(m, "timed out") || strings.Contains(m, "deadline exceeded") {
			return true
		}
	}
	return false
}

// unhealthy are the messages of the container's Unhealthy Events.
func unhealthy(r *harness.Run, container string) []string {
	var out []string
	for _, e := range r.Timeline.Events {
		if e.Reason == "Unhealthy" && e.Container == container {
			out = append(out, e.Message)
		}
	}
	return out
}

// lastOf is the lane's last milestone of that kind, or nil.
func lastOf(p *timeline.Pod, container string, kind timeline.MilestoneKind) *timeline.Milestone {
	ms := harness.MilestonesOf(p, container, kind)
	if len(ms) == 0 {
		return nil
	}
	return ms[len(ms)-1]
}
