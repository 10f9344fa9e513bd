package assert

import (
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestUnknownGapFailsWithItsReason: a gap the timeline could not work out (its ends are no
// times of the pod) is not among the pod's gaps but among its unknown ones: every assertion on
// it fails, negated or not, and says why, rather than "the pod's gaps are ...".
func TestUnknownGapFailsWithItsReason(t *testing.T) {
	p := testPod()
	const why = "proxy started lies more than a day outside the pod's life"
	p.UnknownGaps = []timeline.UnknownGap{{Name: "proxy start → proxy started",
		From: timeline.MilestoneRef{Container: "proxy", Kind: timeline.MStart},
		To:   timeline.MilestoneRef{Container: "proxy", Kind: timeline.MStarted}, Why: why}}
	for _, src := range []string{
		`gap("proxy start -> proxy started") < 1s`,
		`!(gap("proxy start -> proxy started") < 1s)`,
		`gap(proxy.start, proxy.started) >= 0s`,
		`gap("proxy start → proxy started") == 0s || 1 == 1`,
	} {
		a, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		r := a.Eval(p)
		if r.Truth != False || !r.Missing || !strings.Contains(r.Detail, "unknown") || !strings.Contains(r.Detail, why) {
			t.Errorf("%s: %+v, want false, saying why the gap is unknown", src, r)
		}
	}
}

// TestTimesCenturiesApartFail: a milestone whose time lies centuries from the pod's creation
// (a receive time a recording can carry) has no offset a Duration holds: an assertion reading
// it fails and says so, where the saturated offset was read as an unbounded end, or compared
// as a value.
func TestTimesCenturiesApartFail(t *testing.T) {
	p := testPod()
	far := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	run := p.Containers[0].Runs.At(0)
	run.Milestones[1].At, run.Milestones[1].Earliest, run.Milestones[1].Latest = far, sec(1.5), far
	for _, src := range []string{
		"proxy.started - proxy.start < 1s",
		"proxy.started - proxy.start > 1s",
		"proxy.started[0] > pod.created",
	} {
		a, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if r := a.Eval(p); r.Truth != False || !r.Missing || !strings.Contains(r.Detail, "proxy.started") {
			t.Errorf("%s: %+v, want false, naming proxy.started", src, r)
		}
	}
}

// TestSaturatedGapFails: a gap whose span saturated (a timeline written before unknown gaps were
// told apart) compares below any bound no more: an assertion on it fails, saying why.
func TestSaturatedGapFails(t *testing.T) {
	p := testPod()
	p.Gaps[0].Span = timeline.Span{Value: negInf, Min: negInf, Max: negInf}
	a, err := Parse(`gap("app SIGTERM -> app exit") < 1s`)
	if err != nil {
		t.Fatal(err)
	}
	if r := a.Eval(p); r.Truth != False || !r.Missing || !strings.Contains(r.Detail, "unknown") {
		t.Errorf("%+v, want false, the gap unknown", r)
	}
}
