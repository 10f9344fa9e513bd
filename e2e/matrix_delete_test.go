//go:build e2e

package e2e

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestMatrixDeleteDuringInit (matrix 9): the pod is deleted while its first init container
// runs: the kubelet signals it (it exits on SIGTERM); the sidecar and the app never start, and
// the tool shows nothing of them but that.
func TestMatrixDeleteDuringInit(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixDeleteInInit
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"i1", 0, "i1 start"}, line{"i1", 0, "i1 got TERM"}, line{"i1", 0, "i1 exiting"})
	truthAbsent(t, r, "s1")
	truthAbsent(t, r, "app")

	checkTruth(t, r, sc)
	sig, exit := want(t, p, "i1", timeline.MSigterm, 0), want(t, p, "i1", timeline.MExit, 0)
	chain(t, strictly, want(t, p, "i1", timeline.MStart, 0), sig, exit)
	checkDeletion(t, r, p, sig)
	for _, c := range []string{"s1", "app"} {
		for _, k := range []timeline.MilestoneKind{timeline.MStart, timeline.MSigterm, timeline.MExit} {
			none(t, p, c, k)
		}
	}
	none(t, p, "", timeline.MInitialized)
}

// TestMatrixDeleteBeforeSidecarStarted (matrix 9): the pod is deleted while its second sidecar
// runs but has not started (its startup probe never passes), so the app never started. The
// kubelet stops s2 first (it drains 1 s) and s1 only once s2 has exited.
func TestMatrixDeleteBeforeSidecarStarted(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixDeleteBeforeStarted
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"s1", 0, "s1 start"}, line{"s2", 0, "s2 start"}, line{"s2", 0, "s2 got TERM"},
		line{"s2", 0, "s2 exiting"}, line{"s1", 0, "s1 got TERM"}, line{"s1", 0, "s1 exiting"})
	truthAbsent(t, r, "app")

	checkTruth(t, r, sc)
	s1Started, s2Start := want(t, p, "s1", timeline.MStarted, 0), want(t, p, "s2", timeline.MStart, 0)
	order(t, s1Started, s2Start, orSame)
	s2Sig, s2Exit := want(t, p, "s2", timeline.MSigterm, 0), want(t, p, "s2", timeline.MExit, 0)
	s1Sig, s1Exit := want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0)
	order(t, s2Start, s2Sig, strictly)
	order(t, s2Sig, s2Exit, strictly)
	order(t, s2Exit, s1Sig, orSame)
	order(t, s1Sig, s1Exit, strictly)
	checkDeletion(t, r, p, s2Sig, s1Sig)
	none(t, p, "s2", timeline.MStarted)
	none(t, p, "app", timeline.MStart)
	none(t, p, "", timeline.MInitialized)
}
