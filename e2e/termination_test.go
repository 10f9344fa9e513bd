//go:build e2e

package e2e

import (
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestTerminationOrder: on delete the app drains 3 s; the kubelet signals the native sidecar only
// after the app has exited. Nobody reports the sidecar's SIGTERM: the tool must infer it.
func TestTerminationOrder(t *testing.T) {
	t.Parallel()
	sc := harness.TerminationOrder
	r, p := runScenario(t, sc)

	appSig := milestone(t, p, "app", timeline.MSigterm, 0)
	appExit := milestone(t, p, "app", timeline.MExit, 0)
	sideSig := milestone(t, p, "sidecar", timeline.MSigterm, 0)
	sideExit := milestone(t, p, "sidecar", timeline.MExit, 0)
	before(t, appSig, appExit, false)
	before(t, appExit, sideSig, true)
	before(t, sideSig, sideExit, false)
	if sideSig.Source != timeline.SourceInferred {
		t.Errorf("sidecar sigterm source %q, want %q: nobody reports a sidecar's SIGTERM", sideSig.Source, timeline.SourceInferred)
	}
	checkTruth(t, r, sc)
	checkGap(t, r, sc.PointsOf(r), "app SIGTERM → app exit", 3*time.Second)
}

// TestTwoSidecars: two native sidecars stop in reverse order of definition, after the app.
func TestTwoSidecars(t *testing.T) {
	t.Parallel()
	sc := harness.TwoSidecars
	r, p := runScenario(t, sc)

	appExit := milestone(t, p, "app", timeline.MExit, 0)
	s2Sig := milestone(t, p, "s2", timeline.MSigterm, 0)
	s2Exit := milestone(t, p, "s2", timeline.MExit, 0)
	s1Sig := milestone(t, p, "s1", timeline.MSigterm, 0)
	s1Exit := milestone(t, p, "s1", timeline.MExit, 0)
	before(t, appExit, s2Sig, true)
	before(t, s2Sig, s2Exit, false)
	before(t, s2Exit, s1Sig, true)
	before(t, s1Sig, s1Exit, false)
	checkTruth(t, r, sc)
	checkGap(t, r, sc.PointsOf(r), "app SIGTERM → app exit", 2*time.Second)
}

// checkGap checks that the named gap exists, that the ground truth from the logs lies in its
// [min, max] (within the lines' slack), and that the truth is about what the scenario makes it.
func checkGap(t *testing.T, r *harness.Run, points []harness.Point, name string, about time.Duration) {
	t.Helper()
	p := onePod(t, r)
	for _, g := range p.Gaps {
		if g.Name != name {
			continue
		}
		truth, ok := r.TruthOfGap(g, points)
		if !ok {
			t.Fatalf("gap %q: no ground truth for its ends %+v, %+v", name, g.From, g.To)
		}
		t.Logf("gap %q: tool %v ±%v [%v, %v]; truth %v (certainly in [%v, %v])", name, g.Span.Value,
			g.Span.Plus(), g.Span.Min, g.Span.Max, truth.Value, truth.Lo, truth.Hi)
		if truth.Hi < g.Span.Min || truth.Lo > g.Span.Max {
			t.Errorf("gap %q: TRUTH OUTSIDE THE TOOL'S BOUNDS: the logs say %v (in [%v, %v]), the tool says [%v, %v]",
				name, truth.Value, truth.Lo, truth.Hi, g.Span.Min, g.Span.Max)
		}
		if d := truth.Value - about; d < -100*time.Millisecond || d > 500*time.Millisecond {
			t.Errorf("gap %q: the logs say %v, but the scenario makes it about %v: the scenario is broken", name, truth.Value, about)
		}
		if g.Span.Min > about || g.Span.Max < about {
			t.Errorf("gap %q: the tool's [%v, %v] does not contain %v", name, g.Span.Min, g.Span.Max, about)
		}
		return
	}
	var names []string
	for _, g := range p.Gaps {
		names = append(names, g.Name)
	}
	t.Errorf("no gap %q; the tool shows %q", name, names)
}
