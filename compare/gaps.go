package compare

import (
	"sort"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// namedSpans are the spans of each gap name over some pods, and the names in first-seen order.
type namedSpans struct {
	order []string
	spans map[string][]timeline.Span
}

func gapsOf(pods []*timeline.Pod) namedSpans {
	n := namedSpans{spans: map[string][]timeline.Span{}}
	for _, p := range pods {
		for _, g := range p.Gaps {
			if _, ok := n.spans[g.Name]; !ok {
				n.order = append(n.order, g.Name)
			}
			n.spans[g.Name] = append(n.spans[g.Name], g.Span)
		}
	}
	return n
}

// compareGaps compares each gap name of a and b: A's names first, then those only in B.
func compareGaps(a, b namedSpans) []GapRow {
	var rows []GapRow
	names := append([]string(nil), a.order...)
	for _, n := range b.order {
		if _, ok := a.spans[n]; !ok {
			names = append(names, n)
		}
	}
	for _, name := range names {
		r := GapRow{Name: name, A: summarize(a.spans[name]), B: summarize(b.spans[name])}
		switch {
		case r.B == nil:
			r.Shift = OnlyA
		case r.A == nil:
			r.Shift = OnlyB
		default:
			c := r.B.Span.Minus(r.A.Span)
			r.Change = &c
			switch {
			case c.Min > 0:
				r.Shift = Longer
			case c.Max < 0:
				r.Shift = Shorter
			default:
				r.Shift = Within
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// summarize is a gap's side from its spans over the pods; nil if none has it. The median is
// the lower middle of an even count, taken of the estimates, the lower bounds and the upper
// bounds each: a median of values each within its bounds lies within the medians of the bounds.
func summarize(spans []timeline.Span) *Side {
	if len(spans) == 0 {
		return nil
	}
	median := func(get func(timeline.Span) time.Duration) time.Duration {
		v := make([]time.Duration, len(spans))
		for i, s := range spans {
			v[i] = get(s)
		}
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		return v[(len(v)-1)/2]
	}
	s := &Side{Pods: len(spans), Span: timeline.Span{
		Value: median(func(s timeline.Span) time.Duration { return s.Value }),
		Min:   median(func(s timeline.Span) time.Duration { return s.Min }),
		Max:   median(func(s timeline.Span) time.Duration { return s.Max }),
	}}
	s.Smallest, s.Largest = spans[0].Value, spans[0].Value
	for _, sp := range spans[1:] {
		s.Smallest, s.Largest = min(s.Smallest, sp.Value), max(s.Largest, sp.Value)
	}
	return s
}
