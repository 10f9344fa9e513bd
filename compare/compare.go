// Package compare sets two recordings' timelines side by side, as `sidecar-top diff` shows
// them: each named gap on both sides with the change from A to B and its bounds, whether each
// pod (and Job) ended on both sides, and the thresholds a CI gate puts on the changes. It is
// pure: snapshots in, a Diff out, and the Diff written as text or JSON.
package compare

import (
	"fmt"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Diff is the comparison of two recordings.
type Diff struct {
	Kind string `json:"kind"` // SidecarTopDiff
	A    string `json:"a"`
	B    string `json:"b"`
	// TargetA and TargetB are what the recordings watched, from their headers.
	TargetA string `json:"targetA,omitempty"`
	TargetB string `json:"targetB,omitempty"`
	By      string `json:"by"` // name, order or gap: how pods were matched
	// Pairs are the paired pods' gaps (by name or order), Gaps the distributions (by gap).
	Pairs []PodPair `json:"pairs,omitempty"`
	Gaps  []GapRow  `json:"gaps,omitempty"`
	// OnlyA and OnlyB are the pods left without a partner.
	OnlyA []string `json:"onlyA,omitempty"`
	OnlyB []string `json:"onlyB,omitempty"`
	// Ends are the pods and Jobs that ended on one side and never did on the other.
	Ends []EndChange `json:"ends,omitempty"`
	// Thresholds are the --fail-on thresholds, each where it was applied (Apply).
	Thresholds []ThresholdResult `json:"thresholds,omitempty"`
}

// PodPair is one pod of A and one of B, and their gaps.
type PodPair struct {
	A    string   `json:"a"`
	B    string   `json:"b"`
	Gaps []GapRow `json:"gaps"`
}

// GapRow is one named gap on both sides. A side is nil where its recording lacks the gap.
type GapRow struct {
	Name   string         `json:"name"`
	A      *Side          `json:"a"`
	B      *Side          `json:"b"`
	Change *timeline.Span `json:"change"`  // B - A, its bounds from both sides' bounds
	Shift  string         `json:"verdict"` // longer, shorter, within bounds, only in A, only in B
}

// Side is a gap in one recording: with one pod its span; over several, the median with its
// bounds (the median of the pods' lower bounds and of their upper ones, between which the
// median certainly lies), and the smallest and largest estimate.
type Side struct {
	Pods     int           `json:"pods"`
	Span     timeline.Span `json:"span"`
	Smallest time.Duration `json:"smallest"`
	Largest  time.Duration `json:"largest"`
}

// Verdicts of a gap's change.
const (
	Longer  = "longer"
	Shorter = "shorter"
	Within  = "within bounds"
	OnlyA   = "only in A"
	OnlyB   = "only in B"
)

// Ways of matching pods (Diff.By).
const (
	ByAuto  = "auto"
	ByName  = "name"
	ByOrder = "order"
	ByGap   = "gap"
)

// Timelines matches the pods of a and b as by says (auto, name, order or gap) and compares
// their gaps and their ends. nameA and nameB say where each came from.
func Timelines(nameA, nameB string, a, b timeline.Snapshot, by string) (Diff, error) {
	d := Diff{Kind: "SidecarTopDiff", A: nameA, B: nameB}
	podsA, podsB := a.Pods.Slice(), b.Pods.Slice()
	switch by {
	case ByAuto:
		switch {
		case samePodNames(podsA, podsB):
			by = ByName
		case len(podsA) == 1 && len(podsB) == 1:
			by = ByOrder
		default:
			by = ByGap
		}
	case ByName, ByOrder, ByGap:
	default:
		return d, fmt.Errorf("by %q: want auto, name, order or gap", by)
	}
	d.By = by
	d.Ends = jobEnds(a, b)
	if by == ByGap {
		d.Gaps = compareGaps(gapsOf(podsA), gapsOf(podsB))
		if e, ok := podsEnd(podsA, podsB); ok {
			d.Ends = append(d.Ends, e)
		}
		return d, nil
	}
	pairs, onlyA, onlyB := matchPods(podsA, podsB, by == ByName)
	for _, p := range pairs {
		d.Pairs = append(d.Pairs, PodPair{A: p[0].Name, B: p[1].Name,
			Gaps: compareGaps(gapsOf(p[:1]), gapsOf(p[1:]))})
		if e, ok := podEnd(p[0], p[1]); ok {
			d.Ends = append(d.Ends, e)
		}
	}
	d.OnlyA, d.OnlyB = onlyA, onlyB
	return d, nil
}

// Differs reports whether the comparison shows a difference: a gap longer, shorter or on one
// side only, a pod without a partner, or a pod or Job that ended on one side only. A change
// within bounds is none. It is what --exit-code reads.
func (d Diff) Differs() bool {
	if len(d.OnlyA) > 0 || len(d.OnlyB) > 0 || len(d.Ends) > 0 {
		return true
	}
	rows := d.Gaps
	for _, p := range d.Pairs {
		rows = append(rows[:len(rows):len(rows)], p.Gaps...)
	}
	for _, r := range rows {
		if r.Shift != Within {
			return true
		}
	}
	return false
}

func samePodNames(a, b []*timeline.Pod) bool {
	if len(a) != len(b) {
		return false
	}
	names := map[string]int{}
	for _, p := range a {
		names[p.Name]++
	}
	for _, p := range b {
		if names[p.Name] == 0 {
			return false
		}
		names[p.Name]--
	}
	return true
}

// matchPods pairs pods by name, or in order; and lists those left over.
func matchPods(a, b []*timeline.Pod, byName bool) (pairs [][2]*timeline.Pod, onlyA, onlyB []string) {
	used := make([]bool, len(b))
	for i, p := range a {
		j := -1
		switch {
		case byName:
			for k, q := range b {
				if !used[k] && q.Name == p.Name {
					j = k
					break
				}
			}
		case i < len(b):
			j = i
		}
		if j < 0 {
			onlyA = append(onlyA, p.Name)
			continue
		}
		used[j] = true
		pairs = append(pairs, [2]*timeline.Pod{p, b[j]})
	}
	for k, q := range b {
		if !used[k] {
			onlyB = append(onlyB, q.Name)
		}
	}
	return pairs, onlyA, onlyB
}
