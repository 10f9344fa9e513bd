//go:build e2e

package e2e

import (
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestMatrixPreStopTogether (matrix 7): on deletion the preStop hooks of the sidecar (1 s) and of
// the app (2 s) start together, at the Killing Events. The app is signalled when its hook
// returns; the sidecar, although its hook returned first, only after the app has exited. Each
// hook start is a prestop milestone, and each SIGTERM reads after it.
func TestMatrixPreStopTogether(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixPreStopTogether
	r, p := runScenario(t, sc)

	// The hooks overlap: each started before the other ended.
	truthOrder(t, r, line{"app", 0, "app prestop start"}, line{"s1", 0, "s1 prestop end"})
	truthOrder(t, r, line{"s1", 0, "s1 prestop start"}, line{"app", 0, "app prestop end"})
	truthOrder(t, r, line{"app", 0, "app prestop end"}, line{"app", 0, "app got TERM"}, line{"app", 0, "app exiting"},
		line{"s1", 0, "s1 got TERM"}, line{"s1", 0, "s1 exiting"})
	truthOrder(t, r, line{"s1", 0, "s1 prestop end"}, line{"s1", 0, "s1 got TERM"})

	checkTruth(t, r, sc)
	appHook, appSig, appExit := want(t, p, "app", harness.KindPreStop, 0), want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	s1Hook, s1Sig, s1Exit := want(t, p, "s1", harness.KindPreStop, 0), want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0)
	chain(t, strictly, appHook, appSig, appExit)
	order(t, appExit, s1Sig, orSame)
	chain(t, strictly, s1Hook, s1Sig, s1Exit)
	checkDeletion(t, r, p, appHook, s1Hook, appSig)
}

// TestMatrixPreStopNeverReturns (matrix 7): the app's preStop hook never returns: the kubelet
// waits for it the whole grace period (4 s), then signals the app, which exits on SIGTERM. The
// SIGTERM is at the grace deadline, not at the Killing Event. The sidecar has no hook; it is
// signalled when the app has exited or the grace period has run out (the two race), so no order
// between them is checked.
func TestMatrixPreStopNeverReturns(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixPreStopHangs
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"app", 0, "app prestop start"}, line{"app", 0, "app got TERM"}, line{"app", 0, "app exiting"})
	if _, ok := r.Truth.Find("app", 0, "app prestop end"); ok {
		t.Error("SCENARIO BROKEN: the app's hook was never to return, but it logged its end")
	}
	truthGapAtLeast(t, r, line{"app", 0, "app prestop start"}, line{"app", 0, "app got TERM"}, 3*time.Second,
		"the kubelet waits the grace period (4 s) for the hook before it signals the app")

	checkTruth(t, r, sc)
	appHook, appSig, appExit := want(t, p, "app", harness.KindPreStop, 0), want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	chain(t, strictly, appHook, appSig, appExit)
	order(t, want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0), strictly)
	noHooks(t, p, "s1")
	checkDeletion(t, r, p, appHook)
}

// TestMatrixPreStopMostOfGrace (matrix 7): the sidecar's preStop hook takes 4 s of the 5 s grace
// period. The app exits on SIGTERM at once; the sidecar is signalled only when its hook returns,
// long after the app's exit: its SIGTERM follows the hook, not the app.
func TestMatrixPreStopMostOfGrace(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixPreStopMostGrace
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"app", 0, "app got TERM"}, line{"app", 0, "app exiting"}, line{"s1", 0, "s1 prestop end"},
		line{"s1", 0, "s1 got TERM"}, line{"s1", 0, "s1 exiting"})
	truthOrder(t, r, line{"s1", 0, "s1 prestop start"}, line{"s1", 0, "s1 prestop end"})

	checkTruth(t, r, sc)
	appSig, appExit := want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	s1Hook, s1Sig, s1Exit := want(t, p, "s1", harness.KindPreStop, 0), want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0)
	order(t, appSig, appExit, strictly)
	order(t, appExit, s1Sig, strictly)
	chain(t, strictly, s1Hook, s1Sig, s1Exit)
	noHooks(t, p, "app")
	checkDeletion(t, r, p, appSig, s1Hook)
}

// TestMatrixAppExceedsGrace (matrix 8): the app ignores SIGTERM, so the runtime kills it at the
// 4 s grace deadline: exit 137 (SIGKILL), after its last line. The sidecar is signalled when the
// app is gone or the grace period has run out (they race: no order is checked) and exits.
func TestMatrixAppExceedsGrace(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixAppExceedsGrace
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"app", 0, "app got TERM"}, line{"app", 0, "app still running"})
	truthOrder(t, r, line{"s1", 0, "s1 got TERM"}, line{"s1", 0, "s1 exiting"})

	// Killed, the app printed nothing at its exit; it was still running at its last line.
	checkTruth(t, r, sc)
	appSig, appExit := want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	checkExitCode(t, appExit, 137, "SIGKILL")
	order(t, appSig, appExit, strictly)
	order(t, want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0), strictly)
	noHooks(t, p, "app", "s1")
	checkDeletion(t, r, p, appSig)
}

// TestMatrixSidecarExceedsGrace (matrix 8): on deletion the app exits at once; the sidecar is
// signalled after it, ignores SIGTERM, and is killed 4 s later: exit 137 (SIGKILL).
func TestMatrixSidecarExceedsGrace(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixSidecarExceedsGrace
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"app", 0, "app got TERM"}, line{"app", 0, "app exiting"}, line{"s1", 0, "s1 got TERM"},
		line{"s1", 0, "s1 still running"})

	checkTruth(t, r, sc)
	appSig, appExit := want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	s1Sig, s1Exit := want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0)
	checkExitCode(t, s1Exit, 137, "SIGKILL")
	order(t, appSig, appExit, strictly)
	order(t, appExit, s1Sig, orSame)
	order(t, s1Sig, s1Exit, strictly)
	noHooks(t, p, "app", "s1")
	checkDeletion(t, r, p, appSig)
}

// truthGapAtLeast checks that the scenario made b follow a by at least least, as it claims (why).
func truthGapAtLeast(t *testing.T, r *harness.Run, a, b line, least time.Duration, why string) {
	t.Helper()
	la, ok1 := r.Truth.Find(a.container, a.restart, a.text)
	lb, ok2 := r.Truth.Find(b.container, b.restart, b.text)
	if !ok1 || !ok2 {
		return // truthOrder reports the missing line
	}
	if d := lb.At.Sub(la.At); d < least {
		t.Errorf("SCENARIO BROKEN: %s came %v after %s, want at least %v: %s", b, d, a, least, why)
	}
}

// noHooks checks that containers without a preStop hook have no prestop milestone.
func noHooks(t *testing.T, p *timeline.Pod, containers ...string) {
	t.Helper()
	for _, c := range containers {
		none(t, p, c, harness.KindPreStop)
	}
}
