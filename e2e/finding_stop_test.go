//go:build e2e

package e2e

import (
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestFindingSidecarTeardownExit: on deletion s2 exits 143 on its SIGTERM: sidecar-teardown-exit
// about s2. s1 ignores SIGTERM and is killed (137): killed-after-grace, not the 143 finding. The
// app exited at once, so the apps did not take the sidecars' grace period.
func TestFindingSidecarTeardownExit(t *testing.T) {
	t.Parallel()
	sc := harness.FindingTeardown
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"app", 0, "app got TERM"}, line{"app", 0, "app exiting"}, line{"s2", 0, "s2 got TERM"},
		line{"s2", 0, "s2 exiting"}, line{"s1", 0, "s1 got TERM"}, line{"s1", 0, "s1 still running"})

	checkTruth(t, r, sc)
	appSig, appExit := want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	s2Sig, s2Exit := want(t, p, "s2", timeline.MSigterm, 0), want(t, p, "s2", timeline.MExit, 0)
	s1Sig, s1Exit := want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0)
	checkExitCode(t, s2Exit, 143, "SIGTERM")
	checkExitCode(t, s1Exit, 137, "SIGKILL")
	order(t, appSig, appExit, strictly)
	order(t, appExit, s2Sig, orSame)
	order(t, s2Sig, s2Exit, strictly)
	order(t, s2Exit, s1Sig, orSame)
	order(t, s1Sig, s1Exit, strictly)
	checkDeletion(t, r, p, appSig)

	wantFinding(t, r, p, timeline.FindingSidecarTeardownExit, "s2")
	noFinding(t, p, timeline.FindingSidecarTeardownExit, "s1", "app")
	wantFinding(t, r, p, timeline.FindingKilledAfterGrace, "s1")
	noFinding(t, p, timeline.FindingGraceSpentByApps, "s1", "s2")
}

// TestFindingGraceSpentByApps: on deletion the app drains 5.5 s of the 6 s grace period, so s1,
// signalled after it, has too little left, and is killed: grace-spent-by-apps about s1. The
// app's readinessProbe passed after s1 was ready: the Pod's Ready waited for the app, and no
// finding says a sidecar held it.
func TestFindingGraceSpentByApps(t *testing.T) {
	t.Parallel()
	sc := harness.FindingGraceSpent
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"s1", 0, "s1 start"}, line{"app", 0, "app ready-file"})
	truthOrder(t, r, line{"app", 0, "app got TERM"}, line{"app", 0, "app exiting"}, line{"s1", 0, "s1 got TERM"},
		line{"s1", 0, "s1 still running"})
	truthGapAtLeast(t, r, line{"app", 0, "app got TERM"}, line{"app", 0, "app exiting"}, 5400*time.Millisecond,
		"the app drains 5.5 s on SIGTERM")

	checkTruth(t, r, sc)
	appSig, appExit := want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	s1Sig, s1Exit := want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0)
	checkExitCode(t, appExit, 0, "")
	checkExitCode(t, s1Exit, 137, "SIGKILL")
	chain(t, strictly, appSig, appExit)
	order(t, appExit, s1Sig, orSame)
	order(t, s1Sig, s1Exit, strictly)
	checkDeletion(t, r, p, appSig)

	wantFinding(t, r, p, timeline.FindingGraceSpentByApps, "s1")
	noFinding(t, p, timeline.FindingSidecarTeardownExit, "s1")
	noFinding(t, p, timeline.FindingReadinessHeld, "s1")
}

// TestFindingPreStopUsedGrace: on deletion the app's preStop hook takes 5.5 s of the 8 s grace
// period before its SIGTERM: prestop-used-grace about the app. web's hook takes 1 s: no finding.
// The API does not say when a hook returned, so the finding says how far into the grace period
// the app exited, which its hook and its shutdown share.
func TestFindingPreStopUsedGrace(t *testing.T) {
	t.Parallel()
	sc := harness.FindingPreStop
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"app", 0, "app prestop start"}, line{"app", 0, "app prestop end"}, line{"app", 0, "app got TERM"},
		line{"app", 0, "app exiting"}, line{"s1", 0, "s1 got TERM"}, line{"s1", 0, "s1 exiting"})
	truthOrder(t, r, line{"web", 0, "web prestop start"}, line{"web", 0, "web prestop end"}, line{"web", 0, "web got TERM"},
		line{"web", 0, "web exiting"}, line{"s1", 0, "s1 got TERM"})
	truthGapAtLeast(t, r, line{"app", 0, "app prestop start"}, line{"app", 0, "app got TERM"}, 5400*time.Millisecond,
		"the app's hook takes 5.5 s before the kubelet signals it")

	checkTruth(t, r, sc)
	appHook, appSig, appExit := want(t, p, "app", harness.KindPreStop, 0), want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	webHook, webSig, webExit := want(t, p, "web", harness.KindPreStop, 0), want(t, p, "web", timeline.MSigterm, 0), want(t, p, "web", timeline.MExit, 0)
	s1Sig := want(t, p, "s1", timeline.MSigterm, 0)
	chain(t, strictly, appHook, appSig, appExit)
	chain(t, strictly, webHook, webSig, webExit)
	order(t, appExit, s1Sig, orSame)
	order(t, webExit, s1Sig, orSame)
	noHooks(t, p, "s1")
	checkDeletion(t, r, p, appHook, webHook)

	wantFinding(t, r, p, timeline.FindingPreStopUsedGrace, "app")
	noFinding(t, p, timeline.FindingPreStopUsedGrace, "web", "s1")
}
