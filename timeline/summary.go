package timeline

import (
	"encoding/json"
	"iter"
	"slices"
	"strings"
	"time"
)

// A workload's summary: each named gap over every pod that has it (a Job's or a Deployment's
// pods, or those a selector matches), as counts and order statistics with honest bounds, and
// every pod's value, the slowest first.
//
// Every pod's gap lies in its interval [Min, Max], so the k-th smallest estimate lies between
// the k-th smallest lower bound and the k-th smallest upper bound (an order statistic grows with
// each of its inputs). That is the interval a percentile is given with: what the pods' evidence
// allows, not a confidence interval.

// Summary is the named gaps of a snapshot's pods, each over the pods that have it.
type Summary struct {
	Pods int          `json:"pods"` // the pods summarised, whether or not they have any gap
	Gaps []GapSummary `json:"gaps"` // in the order the pods' gap lists give (a lifecycle's order)
}

// GapSummary is one named gap over the pods that have it.
type GapSummary struct {
	Name  string `json:"name"`
	Count int    `json:"count"` // the pods that have it
	// Min, P50, P90 and Max are order statistics (nearest rank: P50 is the lower middle of an
	// even count): Value of the pods' estimates, Min of their lower bounds and Max of their
	// upper bounds, between which the statistic certainly lies.
	Min, P50, P90, Max Span
	// Values are every pod's value, the slowest first (by estimate, then by name). Read only.
	Values []PodValue
}

// PodValue is one pod's value of a gap.
type PodValue struct {
	Pod  string `json:"pod"` // the pod's name
	UID  string `json:"uid"`
	Span Span   `json:"span"`
}

// SummarySlowest is how many of the slowest pods a gap's JSON lists; every pod's own gaps are in
// its "gaps".
const SummarySlowest = 5

// MarshalJSON writes a gap's statistics and its SummarySlowest slowest pods.
func (g GapSummary) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name    string     `json:"name"`
		Count   int        `json:"count"`
		Min     Span       `json:"min"`
		P50     Span       `json:"p50"`
		P90     Span       `json:"p90"`
		Max     Span       `json:"max"`
		Slowest []PodValue `json:"slowest"`
	}{g.Name, g.Count, g.Min, g.P50, g.P90, g.Max, append([]PodValue{}, g.Values[:min(len(g.Values), SummarySlowest)]...)})
}

// Summarize is the summary of s's pods, worked out from nothing: O(gaps · log gaps). A
// Summarizer gives the same frame after frame at the cost of what changed.
func Summarize(s Snapshot) Summary {
	return summarize(s.Pods.Len(), func(yield func(*Pod) bool) {
		for _, p := range s.Pods.Items() {
			if !yield(p) {
				return
			}
		}
	})
}

// SummarizePods is the summary of some of a snapshot's pods (a workload's), as Summarize.
func SummarizePods(pods []*Pod) Summary { return summarize(len(pods), slices.Values(pods)) }

func summarize(n int, pods iter.Seq[*Pod]) Summary {
	sum := Summary{Pods: n, Gaps: []GapSummary{}}
	byName := map[string]int{}
	var vals [][]PodValue
	for p := range pods {
		for j, g := range p.Gaps {
			if repeated(p.Gaps, j) {
				continue
			}
			i, ok := byName[g.Name]
			if !ok {
				i = len(vals)
				byName[g.Name] = i
				vals = append(vals, nil)
				sum.Gaps = append(sum.Gaps, GapSummary{Name: g.Name})
			}
			vals[i] = append(vals[i], PodValue{Pod: p.Name, UID: p.UID, Span: g.Span})
		}
	}
	for i := range sum.Gaps {
		v := vals[i]
		slices.SortFunc(v, slower)
		sum.Gaps[i] = gapStats(sum.Gaps[i].Name, v, sortedBy(v, func(s Span) time.Duration { return s.Value }),
			sortedBy(v, func(s Span) time.Duration { return s.Min }), sortedBy(v, func(s Span) time.Duration { return s.Max }))
	}
	return sum
}

// repeated reports whether gaps[j]'s name came earlier in gaps: a pod counts once per gap name.
func repeated(gaps []Gap, j int) bool {
	for i := range j {
		if gaps[i].Name == gaps[j].Name {
			return true
		}
	}
	return false
}

// slower orders pod values the slowest first, then by name and UID, so that ties are stable.
func slower(a, b PodValue) int {
	if a.Span.Value != b.Span.Value {
		if a.Span.Value > b.Span.Value {
			return -1
		}
		return 1
	}
	if c := strings.Compare(a.Pod, b.Pod); c != 0 {
		return c
	}
	return strings.Compare(a.UID, b.UID)
}

// sortedBy is one part of each value's span, smallest first.
func sortedBy(v []PodValue, part func(Span) time.Duration) []time.Duration {
	out := make([]time.Duration, len(v))
	for i := range v {
		out[i] = part(v[i].Span)
	}
	slices.Sort(out)
	return out
}

// gapStats is a gap's summary from its values (slowest first) and, smallest first, the pods'
// estimates, lower bounds and upper bounds.
func gapStats(name string, values []PodValue, est, lo, hi []time.Duration) GapSummary {
	g := GapSummary{Name: name, Count: len(values), Values: values}
	if len(values) == 0 {
		return g
	}
	at := func(i int) Span { return Span{Value: est[i], Min: lo[i], Max: hi[i]} }
	n := len(values)
	g.Min, g.P50, g.P90, g.Max = at(0), at(rank(50, n)), at(rank(90, n)), at(n-1)
	return g
}

// rank is the index of the p-th percentile of n sorted values by nearest rank: the smallest
// value with at least p% of them at or below it.
func rank(p, n int) int { return max((p*n+99)/100-1, 0) }
