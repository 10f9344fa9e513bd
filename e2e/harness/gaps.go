//go:build e2e

package harness

import (
	"math"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// NoLo and NoHi stand for an unbounded side of a GapTruth.
const (
	NoLo = time.Duration(math.MinInt64)
	NoHi = time.Duration(math.MaxInt64)
)

// GapTruth is the ground truth of a named gap: the interval [Lo, Hi] it certainly lies in given
// Slack (and, for the deletion, the kubectl call), and when it is Exact its value from the two
// lines' times. It is not exact when an end is witnessed on one side only (a startup probe
// passes after its file's line, a preStop hook starts before its first line, a killed container
// exits after its last line): then Value is zero and Lo or Hi may be NoLo or NoHi.
type GapTruth struct {
	Value, Lo, Hi time.Duration
	Plus          time.Duration // the uncertainty of Value when an end is the deletion's kubectl call
	Exact         bool
}

// Meets reports whether the truth's interval meets the tool's [min, max].
func (g GapTruth) Meets(s timeline.Span) bool { return g.Hi >= s.Min && g.Lo <= s.Max }

// TruthOfGap is the exact truth of gap g from the run's logs and points; ok is false when an end
// has no exact witness (a startup probe passing is not logged).
func (r *Run) TruthOfGap(g timeline.Gap, points []Point) (GapTruth, bool) {
	t, ok := r.BoundsOfGap(g, points)
	return t, ok && t.Exact
}

// BoundsOfGap is the truth of gap g from the run's logs and points, exact or bounded on one side
// only; ok is false when an end has no witness at all.
func (r *Run) BoundsOfGap(g timeline.Gap, points []Point) (GapTruth, bool) {
	from, ok1 := r.instantOfRef(g.From, points)
	to, ok2 := r.instantOfRef(g.To, points)
	if !ok1 || !ok2 {
		return GapTruth{}, false
	}
	t := GapTruth{Lo: NoLo, Hi: NoHi}
	if !to.Lo.IsZero() && !from.Hi.IsZero() {
		t.Lo = to.Lo.Sub(from.Hi)
	}
	if !to.Hi.IsZero() && !from.Lo.IsZero() {
		t.Hi = to.Hi.Sub(from.Lo)
	}
	if t.Lo == NoLo && t.Hi == NoHi {
		return GapTruth{}, false
	}
	if exact(from) && exact(to) {
		t.Value, t.Plus, t.Exact = to.At.Sub(from.At), from.Plus+to.Plus, true
	}
	return t, true
}

// exact reports whether the instant is known on both sides: its At is then the best value.
func exact(in Instant) bool { return !in.Lo.IsZero() && !in.Hi.IsZero() }

// instantOfRef is the truth of a milestone: its point's log line, or for the pod's deletion the
// kubectl delete call (placed in its middle).
func (r *Run) instantOfRef(ref timeline.MilestoneRef, points []Point) (Instant, bool) {
	if ref.Container == "" && ref.Kind == timeline.MDeleting && !r.Deletion[0].IsZero() {
		lo, hi := r.Deletion[0], r.Deletion[1]
		return Instant{At: lo.Add(hi.Sub(lo) / 2), Lo: lo, Hi: hi, Plus: hi.Sub(lo) / 2, What: "kubectl delete"}, true
	}
	for _, p := range points {
		if p.Container == ref.Container && p.Kind == ref.Kind && p.Attempt == ref.Attempt {
			in, err := instantOf(r.Truth, p)
			return in, err == nil
		}
	}
	return Instant{}, false
}
