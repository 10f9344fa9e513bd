package compare

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/assert"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// Verdicts of a threshold where it was applied (a row on one side only keeps the row's).
const (
	Fails     = "fails"     // the change is beyond the threshold whichever way the bounds fall
	Passes    = "passes"    // it is within it whichever way they fall
	Undecided = "undecided" // the bounds allow both: like a change within bounds, not a failure
)

// ThresholdResult is a threshold applied to one row: a pair's gap, or a gap over all pods.
type ThresholdResult struct {
	Threshold string `json:"threshold"` // as given
	Gap       string `json:"gap"`       // the gap's name as the recordings spell it
	// PodA and PodB are the pods compared; none when all pods are (by gap).
	PodA   string         `json:"podA,omitempty"`
	PodB   string         `json:"podB,omitempty"`
	Change *timeline.Span `json:"change,omitempty"` // B - A, as the row has it
	// Percent is the estimate's change in percent of A's estimate; none when A's is zero.
	Percent *float64 `json:"percent,omitempty"`
	Verdict string   `json:"verdict"` // fails, passes, undecided, only in A, only in B
}

// Apply applies each threshold to every row of its gap, adding the results to d.Thresholds.
// A gap neither recording has is an error that names it, and the gaps they have.
func (d *Diff) Apply(ts []Threshold) error {
	for _, t := range ts {
		n := len(d.Thresholds)
		for _, r := range d.Gaps {
			d.applyTo(t, r, "", "")
		}
		for _, p := range d.Pairs {
			for _, r := range p.Gaps {
				d.applyTo(t, r, p.A, p.B)
			}
		}
		if len(d.Thresholds) == n {
			return fmt.Errorf("--fail-on %q: unknown gap %q: %s", t.Src, t.Gap, d.gapNames())
		}
	}
	return nil
}

// Failed are the results that fail.
func (d Diff) Failed() []ThresholdResult {
	var out []ThresholdResult
	for _, r := range d.Thresholds {
		if r.Verdict == Fails {
			out = append(out, r)
		}
	}
	return out
}

func (d *Diff) applyTo(t Threshold, r GapRow, podA, podB string) {
	if !assert.GapNamed(t.Gap, r.Name) {
		return
	}
	res := ThresholdResult{Threshold: t.Src, Gap: r.Name, PodA: podA, PodB: podB, Change: r.Change, Verdict: r.Shift}
	if r.A != nil && r.B != nil {
		res.Verdict = t.judge(r.A.Span, r.B.Span)
		if r.A.Span.Value != 0 {
			p := float64(r.B.Span.Value-r.A.Span.Value) / float64(r.A.Span.Value) * 100
			res.Percent = &p
		}
	}
	d.Thresholds = append(d.Thresholds, res)
}

// judge decides the threshold from the bounds of A's gap and B's. B - A OP change, with change
// k·A (relative) or a duration, is B - m·A - c OP 0 with m = 1 + k (or 1) and c the duration
// (or 0); its least and greatest values over the bounds decide.
func (t Threshold) judge(a, b timeline.Span) string {
	m, c := 1.0, float64(t.Abs)
	if t.Relative {
		m, c = 1+t.Frac, 0
	}
	aLo, aHi, bLo, bHi := lower(a.Min), upper(a.Max), lower(b.Min), upper(b.Max)
	scaled := func(x float64) float64 {
		if m == 0 {
			return 0
		}
		return m * x
	}
	lo, hi := bLo-max(scaled(aLo), scaled(aHi))-c, bHi-min(scaled(aLo), scaled(aHi))-c
	var certain, never bool
	switch t.Op {
	case ">":
		certain, never = lo > 0, hi <= 0
	case ">=":
		certain, never = lo >= 0, hi < 0
	case "<":
		certain, never = hi < 0, lo >= 0
	case "<=":
		certain, never = hi <= 0, lo > 0
	}
	switch {
	case certain:
		return Fails
	case never:
		return Passes
	}
	return Undecided
}

// lower and upper are a bound in nanoseconds, infinite where none is known.
func lower(d time.Duration) float64 {
	if d == timeline.NoMin {
		return math.Inf(-1)
	}
	return float64(d)
}

func upper(d time.Duration) float64 {
	if d == timeline.NoMax {
		return math.Inf(1)
	}
	return float64(d)
}

// gapNames says which gaps the recordings have, for an unknown one.
func (d *Diff) gapNames() string {
	seen := map[string]bool{}
	var names []string
	add := func(rows []GapRow) {
		for _, r := range rows {
			if !seen[r.Name] {
				seen[r.Name] = true
				names = append(names, fmt.Sprintf("%q", r.Name))
			}
		}
	}
	add(d.Gaps)
	for _, p := range d.Pairs {
		add(p.Gaps)
	}
	if len(names) == 0 {
		return "neither recording has a named gap"
	}
	return "neither recording has it; they have " + strings.Join(names, ", ")
}
