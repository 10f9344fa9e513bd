//go:build e2e

package e2e

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestMatrixMixedInitAndSidecars (matrix 1): init containers and sidecars mixed (i1, s1, i2, s2,
// app) start one after the other: an init container once the one before has exited, a sidecar
// (no startup probe) once the one before has started; the pod is Initialized only after i2 has
// exited and s2 has started. Deleted once Ready: app, s2, s1 stop in that order.
func TestMatrixMixedInitAndSidecars(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixMixed
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"i1", 0, "i1 start"}, line{"i1", 0, "i1 done"}, line{"s1", 0, "s1 start"},
		line{"i2", 0, "i2 start"}, line{"i2", 0, "i2 done"}, line{"s2", 0, "s2 start"}, line{"app", 0, "app start"})
	truthOrder(t, r, line{"app", 0, "app got TERM"}, line{"app", 0, "app exiting"}, line{"s2", 0, "s2 got TERM"},
		line{"s2", 0, "s2 exiting"}, line{"s1", 0, "s1 got TERM"}, line{"s1", 0, "s1 exiting"})

	// The points, and Initialized after i2's last line.
	checkTruth(t, r, sc)

	i1Exit := want(t, p, "i1", timeline.MExit, 0)
	s1Start, s1Started := want(t, p, "s1", timeline.MStart, 0), want(t, p, "s1", timeline.MStarted, 0)
	i2Start, i2Exit := want(t, p, "i2", timeline.MStart, 0), want(t, p, "i2", timeline.MExit, 0)
	s2Start, s2Started := want(t, p, "s2", timeline.MStart, 0), want(t, p, "s2", timeline.MStarted, 0)
	appStart := want(t, p, "app", timeline.MStart, 0)
	initialized := want(t, p, "", timeline.MInitialized, 0)
	order(t, i1Exit, s1Start, strictly)
	chain(t, orSame, s1Start, s1Started, i2Start)
	order(t, i2Exit, s2Start, strictly)
	chain(t, orSame, s2Start, s2Started, appStart)
	order(t, i2Exit, initialized, strictly)
	chain(t, orSame, s2Started, initialized, appStart)

	appSig, appExit := want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	s2Sig, s2Exit := want(t, p, "s2", timeline.MSigterm, 0), want(t, p, "s2", timeline.MExit, 0)
	s1Sig, s1Exit := want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0)
	order(t, appSig, appExit, strictly)
	order(t, appExit, s2Sig, orSame)
	order(t, s2Sig, s2Exit, strictly)
	order(t, s2Exit, s1Sig, orSame)
	order(t, s1Sig, s1Exit, strictly)
	checkDeletion(t, r, p, appSig)
}

// TestMatrixStartupProbesSerial (matrix 2): two sidecars with startup probes start one after the
// other: s2 only once s1's probe has passed, the app only once s2's has. Each probe tests a file
// its sidecar creates 2 s after it starts. Deleted once Ready.
func TestMatrixStartupProbesSerial(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixStartupSerial
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"s1", 0, "s1 start"}, line{"s1", 0, "s1 ready-file"}, line{"s2", 0, "s2 start"},
		line{"s2", 0, "s2 ready-file"}, line{"app", 0, "app start"})
	truthOrder(t, r, line{"app", 0, "app exiting"}, line{"s2", 0, "s2 got TERM"}, line{"s2", 0, "s2 exiting"},
		line{"s1", 0, "s1 got TERM"})

	checkTruth(t, r, sc)
	s1Start, s1Started := want(t, p, "s1", timeline.MStart, 0), want(t, p, "s1", timeline.MStarted, 0)
	s2Start, s2Started := want(t, p, "s2", timeline.MStart, 0), want(t, p, "s2", timeline.MStarted, 0)
	appStart := want(t, p, "app", timeline.MStart, 0)
	order(t, s1Start, s1Started, strictly)
	order(t, s1Started, s2Start, orSame)
	order(t, s2Start, s2Started, strictly)
	order(t, s2Started, appStart, orSame)
	for _, c := range []string{"s1", "s2"} {
		// The probe failed before the file existed; it passed after.
		if pf := harness.FindMilestone(p, c, timeline.MProbeFailed, 0); pf != nil {
			order(t, want(t, p, c, timeline.MStart, 0), pf, strictly)
			order(t, pf, want(t, p, c, timeline.MStarted, 0), strictly)
		}
	}
	order(t, want(t, p, "s2", timeline.MStarted, 0), want(t, p, "", timeline.MInitialized, 0), orSame)

	appSig, appExit := want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	chain(t, strictly, appSig, appExit)
	order(t, appExit, want(t, p, "s2", timeline.MSigterm, 0), orSame)
	order(t, want(t, p, "s2", timeline.MSigterm, 0), want(t, p, "s2", timeline.MExit, 0), strictly)
	order(t, want(t, p, "s2", timeline.MExit, 0), want(t, p, "s1", timeline.MSigterm, 0), orSame)
	order(t, want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0), strictly)
	checkDeletion(t, r, p, appSig)
}

// TestMatrixSidecarRecovers (matrix 11): a sidecar whose first run never passes its startup
// probe is killed by the kubelet (SIGTERM; it exits at once) and restarted; its second run passes
// the probe, and only then the app starts. The killed run has its own SIGTERM; its exit reads
// strictly before the restart; the restart's Created Event belongs to the restart.
func TestMatrixSidecarRecovers(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixSidecarRecovers
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"s1", 0, "s1 start"}, line{"s1", 0, "s1 got TERM"}, line{"s1", 0, "s1 exiting"},
		line{"s1", 1, "s1 start"}, line{"s1", 1, "s1 ready-file"}, line{"app", 0, "app start"})
	truthOrder(t, r, line{"app", 0, "app exiting"}, line{"s1", 1, "s1 got TERM"}, line{"s1", 1, "s1 exiting"})
	if runs := r.Truth.Restarts("s1"); len(runs) != 2 {
		t.Errorf("SCENARIO BROKEN: s1 logged runs %v, want [0 1]", runs)
	}

	checkTruth(t, r, sc)
	if m := harness.FindMilestone(p, "s1", timeline.MStarted, 0); m != nil {
		t.Errorf("s1's first run never passed its startup probe, but the tool shows %s", describe(m))
	}
	pf := want(t, p, "s1", timeline.MProbeFailed, 0)
	sig0, exit0 := want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0)
	created1, restart1 := want(t, p, "s1", timeline.MCreated, 1), want(t, p, "s1", timeline.MRestart, 1)
	started1 := want(t, p, "s1", timeline.MStarted, 1)
	appStart := want(t, p, "app", timeline.MStart, 0)
	chain(t, strictly, want(t, p, "s1", timeline.MStart, 0), pf, sig0, exit0, created1)
	order(t, exit0, restart1, strictly)
	order(t, created1, restart1, orSame)
	order(t, restart1, started1, strictly)
	order(t, started1, appStart, orSame)

	appSig, appExit := want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	sig1, exit1 := want(t, p, "s1", timeline.MSigterm, 1), want(t, p, "s1", timeline.MExit, 1)
	order(t, appSig, appExit, strictly)
	order(t, appExit, sig1, orSame)
	order(t, sig1, exit1, strictly)
	checkDeletion(t, r, p, appSig)
}
