//go:build e2e

package e2e

import (
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestMatrixStartupProbeKillsApp (matrix 10): the app's startup probe never passes, so the
// kubelet kills it run after run: Killing, the preStop hook (1 s), SIGTERM (it exits at once),
// then a restart after a growing back-off. The sidecar runs on, untouched.
func TestMatrixStartupProbeKillsApp(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixStartupProbeKills
	r, p := runScenario(t, sc)
	checkProbeKills(t, r, p, "app", "Startup")
	checkUntouched(t, p, "s1")
	checkTruth(t, r, sc)
}

// TestMatrixLivenessProbeKillsSidecar (matrix 10): the sidecar's liveness probe fails 3 s after
// each start, so the kubelet kills it run after run: Killing, the preStop hook (1 s), SIGTERM
// (it exits at once), then a restart after a growing back-off. The app runs on, untouched.
func TestMatrixLivenessProbeKillsSidecar(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixLivenessProbeKills
	r, p := runScenario(t, sc)
	for _, n := range runsLogged(t, r, "s1", 0) {
		if r.LoggedBefore("s1", int(n), "s1 got TERM", time.Time{}) {
			truthOrder(t, r, line{"s1", int(n), "s1 unhealthy"}, line{"s1", int(n), "s1 prestop start"})
		}
	}
	checkProbeKills(t, r, p, "s1", "Liveness")
	checkUntouched(t, p, "app")
	checkTruth(t, r, sc)
}

// checkProbeKills checks a container that a failing probe kills run after run (at least two
// runs killed well before the recorder stopped). Every such run has its own prestop and SIGTERM
// milestones, witnessed by its log, in the order probe failure < prestop < SIGTERM < exit; each
// exit reads strictly before the next run's restart, whose Created Event is filed under it.
// (The scenario's points, checked by checkTruth, witness each run's start, prestop, SIGTERM and
// exit.)
func checkProbeKills(t *testing.T, r *harness.Run, p *timeline.Pod, c, probe string) {
	t.Helper()
	killed := 0
	for _, n := range runsLogged(t, r, c, 2) {
		if n > 0 {
			checkRestart(t, p, c, n)
		}
		if !r.LoggedBefore(c, int(n), c+" exiting", r.Settled()) {
			continue
		}
		killed++
		truthOrder(t, r, line{c, int(n), c + " start"}, line{c, int(n), c + " prestop start"}, line{c, int(n), c + " prestop end"},
			line{c, int(n), c + " got TERM"}, line{c, int(n), c + " exiting"})
		pf := want(t, p, c, timeline.MProbeFailed, n)
		if pf != nil && pf.Reason != probe {
			t.Errorf("%s: probe %q, want %q", name(pf), pf.Reason, probe)
		}
		hook, sig, exit := want(t, p, c, harness.KindPreStop, n), want(t, p, c, timeline.MSigterm, n), want(t, p, c, timeline.MExit, n)
		chain(t, strictly, want(t, p, c, startKind(n), n), pf, hook, sig, exit)
		checkExitCode(t, exit, 0, "")
	}
	if killed < 2 {
		t.Errorf("SCENARIO BROKEN: %d runs of %s were killed and logged their exit in time, want at least 2:\n%s", killed, c, dumpTruth(r))
	}
}

// checkUntouched checks a container that runs from start to the end of the recording (its
// start is one of the scenario's points).
func checkUntouched(t *testing.T, p *timeline.Pod, c string) {
	t.Helper()
	for _, k := range []timeline.MilestoneKind{timeline.MRestart, timeline.MSigterm, timeline.MExit, harness.KindPreStop} {
		none(t, p, c, k)
	}
}
