//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The behaviours of issue 43 (harness/behaviours.go): each held to the runtime's stamps, and to
// what the API told, in order, with nothing the API did not tell.

// gapOf is the pod's named gap, or nil.
func gapOf(p *timeline.Pod, name string) *timeline.Gap {
	for i := range p.Gaps {
		if p.Gaps[i].Name == name {
			return &p.Gaps[i]
		}
	}
	return nil
}

// gapPrefixed is the first named gap whose name starts with prefix, or nil.
func gapPrefixed(p *timeline.Pod, prefix string) *timeline.Gap {
	for i := range p.Gaps {
		if strings.HasPrefix(p.Gaps[i].Name, prefix) {
			return &p.Gaps[i]
		}
	}
	return nil
}

// TestFindingPostStartDelays: s1's postStart hook takes 3 s; the kubelet counts s1 started and
// starts the app only once it returned. The status shows s1 running and started at once, after
// the hook: started is placed late in its interval, after the hook's last line, the gap from the
// start to started holds the hook, and poststart-delays-start names s1's hook.
func TestFindingPostStartDelays(t *testing.T) {
	t.Parallel()
	sc := harness.PostStart
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"s1", 0, "s1 start"}, line{"s1", 0, "s1 poststart done"}, line{"app", 0, "app start"})

	checkTruth(t, r, sc)
	start, started, appStart := want(t, p, "s1", timeline.MStart, 0), want(t, p, "s1", timeline.MStarted, 0), want(t, p, "app", timeline.MStart, 0)
	chain(t, orSame, start, started, appStart)
	if started != nil && !strings.Contains(started.Why, "postStart") {
		t.Errorf("s1's started says nothing of its hook: why %q", started.Why)
	}
	if done, ok := r.Truth.Find("s1", 0, "s1 poststart done"); ok && started != nil && started.At.Before(done.At) {
		t.Errorf("s1's started estimated at %s, before its hook's last line at %s", clock(started.At), clock(done.At))
	}
	if g := gapOf(p, "s1 start → s1 started"); g == nil || g.Span.Value < 2500*time.Millisecond {
		t.Errorf("s1 start → s1 started %+v: want the hook's 3 s in it", g)
	}
	wantFinding(t, r, p, timeline.FindingPostStartDelays, "s1")
	noFinding(t, p, timeline.FindingPostStartDelays, "app")
	noFinding(t, p, timeline.FindingSidecarRaced, "s1") // s1 is ready as it runs: no race
}

// TestReadinessGate: every container is ready, the pod's readiness gate holds it not Ready until
// the scenario sets the gate's condition True: the pod row's not-ready names the gate, Ready comes
// after the condition was set, readiness-gate-held says so, and no sidecar is blamed (s1 became
// ready after the app).
func TestReadinessGate(t *testing.T) {
	t.Parallel()
	sc := harness.ReadinessGate
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"app", 0, "app start"}, line{"s1", 0, "s1 ready-file"})

	checkTruth(t, r, sc)
	held, ready := want(t, p, "", timeline.MNotReady, 0), want(t, p, "", timeline.MReady, 0)
	order(t, want(t, p, "", timeline.MContainersReady, 0), ready, strictly)
	order(t, held, ready, strictly)
	if held != nil && (held.Reason != "ReadinessGatesNotReady" || !strings.Contains(held.Detail(), harness.GateCondition)) {
		t.Errorf("the pod row's not-ready %s (%q) does not name the gate %s", describe(held), held.Detail(), harness.GateCondition)
	}
	if gate := r.Acts["gate"]; ready != nil && ready.Latest.Before(gate[0]) {
		t.Errorf("the pod Ready %s before the gate's condition was set (%s)", describe(ready), clock(gate[0]))
	}
	wantFinding(t, r, p, timeline.FindingReadinessGateHeld, "")
	noFinding(t, p, timeline.FindingReadinessHeld, "s1", "app")
	noFinding(t, p, timeline.FindingSidecarNotReady, "s1")
}

// TestEviction: the pod is evicted through the Eviction API: a deletion with the pod's own grace
// period (5 s), which the kubelet carries out as any other: the app drains 1 s, then s1 is
// signalled. The tool shows the deletion within the eviction call, the stop in the kubelet's
// order, and no milestone the API did not tell.
func TestEviction(t *testing.T) {
	t.Parallel()
	sc := harness.Eviction
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"app", 0, "app got TERM"}, line{"app", 0, "app exiting"}, line{"s1", 0, "s1 got TERM"})

	checkTruth(t, r, sc)
	appSig, appExit := want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	s1Sig, s1Exit := want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0)
	chain(t, strictly, appSig, appExit)
	order(t, appExit, s1Sig, orSame)
	order(t, s1Sig, s1Exit, strictly)
	checkDeletion(t, r, p, appSig, s1Sig)
	del := harness.FindMilestone(p, "", timeline.MDeleting, 0)
	if del != nil && del.Message != "grace period 5s" {
		t.Errorf("the deletion says %q, want the pod's own grace period 5s", del.Message)
	}
	// The API server marks the pod (DisruptionTarget) before it deletes it.
	dis := want(t, p, "", timeline.MDisruption, 0)
	if dis != nil && dis.Reason != "EvictionByEvictionAPI" {
		t.Errorf("the disruption says %q, want EvictionByEvictionAPI", dis.Reason)
	}
	order(t, dis, del, orSame)
	for _, c := range []string{"s1", "app"} {
		none(t, p, c, timeline.MRestart)
		none(t, p, c, timeline.MPreStop)
	}
	noFinding(t, p, timeline.FindingKilledAfterGrace, "s1", "app")
}

// TestDeleteGraceOverride: the pod asks for 30 s, the delete gives 3: the deletion shows 3 s, the
// app (draining 10 s) is killed 3 s after its SIGTERM, killed-after-grace says 3 s, and s1, which
// exits on SIGTERM, is not killed. The kubelet waits for s1's turn no longer than the grace
// period (terminationOrdering.waitForTurn), so s1's wait and the app's kill run out together:
// either may come first, and the runtime's stamps have shown both.
func TestDeleteGraceOverride(t *testing.T) {
	t.Parallel()
	sc := harness.GraceOverride
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"app", 0, "app got TERM"}, line{"s1", 0, "s1 got TERM"}, line{"s1", 0, "s1 exiting"})
	truthAbsent := func(text string) {
		if _, ok := r.Truth.Find("app", 0, text); ok {
			t.Errorf("SCENARIO BROKEN: the app logged %q: it was given more than 3 s", text)
		}
	}
	truthAbsent("app exiting")

	checkTruth(t, r, sc)
	appSig, appExit := want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	s1Sig, s1Exit := want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0)
	checkExitCode(t, appExit, 137, "SIGKILL")
	checkExitCode(t, s1Exit, 0, "")
	sidecarAtTurnOrGrace(t, harness.FindMilestone(p, "", timeline.MDeleting, 0), appExit, s1Sig, 3*time.Second)
	checkDeletion(t, r, p, appSig, s1Sig)
	if del := harness.FindMilestone(p, "", timeline.MDeleting, 0); del != nil && del.Message != "grace period 3s" {
		t.Errorf("the deletion says %q, want the 3s the delete gave", del.Message)
	}
	if appSig != nil && appExit != nil {
		if d := appExit.At.Sub(appSig.At); d < 2*time.Second || d > 5*time.Second {
			t.Errorf("the app killed %s after its SIGTERM, want ~3s (the grace given): %s", d, describe(appSig, appExit))
		}
	}
	wantFinding(t, r, p, timeline.FindingKilledAfterGrace, "app")
	if f := findingOf(p, timeline.FindingKilledAfterGrace, "app"); f != nil && !strings.Contains(f.Text, "3s later") {
		t.Errorf("killed-after-grace says %q, want the 3s given", f.Text)
	}
	noFinding(t, p, timeline.FindingKilledAfterGrace, "s1")
	none(t, p, "", timeline.MDisruption) // a delete is no disruption
	// The last exit is s1's or the app's, as the race above went.
	if g := gapPrefixed(p, "pod deletion → last exit ("); g == nil || !strings.Contains(g.Why, "3s") {
		t.Errorf("the deletion's gap %+v: want its why to name the 3s grace period", g)
	}
}

// TestDebugEphemeral: `kubectl debug` adds dbg, which runs 2 s and exits: a lane of kind
// ephemeral, after the app's, its start and exit held to its lines, and nowhere an app: not in
// the stop's gaps, the pod's readiness or a finding.
func TestDebugEphemeral(t *testing.T) {
	t.Parallel()
	sc := harness.DebugEphemeral
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"app", 0, "app start"}, line{"dbg", 0, "dbg start"}, line{"dbg", 0, "dbg exiting"},
		line{"app", 0, "app got TERM"})

	checkTruth(t, r, sc)
	kindsOf := map[string]timeline.ContainerKind{}
	var order_ []string
	for _, c := range p.Containers {
		kindsOf[c.Name] = c.Kind
		order_ = append(order_, c.Name)
	}
	if kindsOf["dbg"] != timeline.KindEphemeral || kindsOf["app"] != timeline.KindApp || kindsOf["s1"] != timeline.KindSidecar {
		t.Errorf("lanes %v kinds %v: want dbg ephemeral, app app, s1 sidecar", order_, kindsOf)
	}
	if strings.Join(order_, ",") != "s1,app,dbg" {
		t.Errorf("lanes in the order %v, want s1, app, dbg", order_)
	}
	dbgStart, dbgExit := want(t, p, "dbg", timeline.MStart, 0), want(t, p, "dbg", timeline.MExit, 0)
	order(t, want(t, p, "", timeline.MReady, 0), dbgStart, strictly)
	chain(t, strictly, dbgStart, dbgExit, want(t, p, "app", timeline.MSigterm, 0))
	checkExitCode(t, dbgExit, 0, "")
	none(t, p, "dbg", timeline.MSigterm) // it had exited before the deletion
	none(t, p, "dbg", timeline.MStarted)
	for _, g := range p.Gaps {
		if strings.Contains(g.Name, "dbg") {
			t.Errorf("named gap %q counts the ephemeral container", g.Name)
		}
	}
	for _, f := range p.Findings() {
		if f.Container == "dbg" || strings.Contains(f.Text, "`dbg`") {
			t.Errorf("finding %s names the ephemeral container: %s", f.ID, f.Text)
		}
	}
	checkDeletion(t, r, p, want(t, p, "app", timeline.MSigterm, 0))
}

// sidecarAtTurnOrGrace checks a sidecar's SIGTERM against the kubelet's rule when the one app
// ignores its SIGTERM for longer than grace: the sidecar is signalled at whichever comes first,
// the app's exit or the end of its wait (grace after its Killing, which follows the deletion):
// not after the app's exit beyond a turn's reaction, and not before the wait could have run
// out. Bounds that leave out both are wrong; where they hold it, the truth decides.
func sidecarAtTurnOrGrace(t *testing.T, del, appExit, sig *timeline.Milestone, grace time.Duration) {
	t.Helper()
	if del == nil || appExit == nil || sig == nil {
		return
	}
	if sig.Earliest.After(appExit.Latest.Add(time.Second)) {
		t.Errorf("ORDER: the sidecar's turn came when the app exited, but the tool's bounds put its SIGTERM over a second after: %s", describe(appExit, sig))
	}
	if sig.Latest.Before(del.Earliest.Add(grace)) {
		t.Errorf("ORDER: the sidecar waits for the app up to %s after its Killing, which follows the deletion, but the tool's bounds put its SIGTERM before: %s", grace, describe(del, sig))
	}
}
