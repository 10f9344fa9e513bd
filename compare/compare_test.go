package compare

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// span is a span in milliseconds.
func span(v, lo, hi int) timeline.Span {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	return timeline.Span{Value: ms(v), Min: ms(lo), Max: ms(hi)}
}

func spanPtr(v, lo, hi int) *timeline.Span { s := span(v, lo, hi); return &s }

// gapPod is a pod with the named gaps given, name then span.
func gapPod(name string, gaps ...any) *timeline.Pod {
	p := &timeline.Pod{Name: name}
	for i := 0; i < len(gaps); i += 2 {
		p.Gaps = append(p.Gaps, timeline.Gap{Name: gaps[i].(string), Span: gaps[i+1].(timeline.Span)})
	}
	return p
}

func one(s timeline.Span) *Side {
	return &Side{Pods: 1, Span: s, Smallest: s.Value, Largest: s.Value}
}

func snap(pods ...*timeline.Pod) timeline.Snapshot {
	return timeline.Snapshot{Pods: timeline.SeqOf(pods...)}
}

// TestDiffTimelines: how pods are matched, and when a change is real.
func TestDiffTimelines(t *testing.T) {
	const g1, g2, g3 = "app SIGTERM → app exit", "proxy start → proxy started", "pod deletion → last exit (proxy)"
	before := gapPod("web", g1, span(1000, 500, 1500), g2, span(200, 0, 400), g3, span(300, 0, 600))
	after := gapPod("web", g1, span(3000, 2000, 3500), g2, span(100, 0, 200))
	tests := []struct {
		name string
		a, b timeline.Snapshot
		by   string
		want Diff
	}{
		{"one pod each, same name", snap(before), snap(after), "auto", Diff{By: "name", Pairs: []PodPair{{
			A: "web", B: "web", Gaps: []GapRow{
				// B's [2, 3.5] lies above A's [0.5, 1.5]: longer.
				{Name: g1, A: one(span(1000, 500, 1500)), B: one(span(3000, 2000, 3500)), Change: spanPtr(2000, 500, 3000), Shift: "longer"},
				// The intervals overlap: the change may be none.
				{Name: g2, A: one(span(200, 0, 400)), B: one(span(100, 0, 200)), Change: spanPtr(-100, -400, 200), Shift: "within bounds"},
				{Name: g3, A: one(span(300, 0, 600)), Shift: "only in A"},
			},
		}}}},
		{"the other way", snap(after), snap(before), "auto", Diff{By: "name", Pairs: []PodPair{{
			A: "web", B: "web", Gaps: []GapRow{
				{Name: g1, A: one(span(3000, 2000, 3500)), B: one(span(1000, 500, 1500)), Change: spanPtr(-2000, -3000, -500), Shift: "shorter"},
				{Name: g2, A: one(span(100, 0, 200)), B: one(span(200, 0, 400)), Change: spanPtr(100, -200, 400), Shift: "within bounds"},
				{Name: g3, B: one(span(300, 0, 600)), Shift: "only in B"},
			},
		}}}},
		{"one pod each, other names", snap(gapPod("a-1", g1, span(1000, 1000, 1000))), snap(gapPod("b-2", g1, span(1001, 1001, 1001))), "auto",
			Diff{By: "order", Pairs: []PodPair{{A: "a-1", B: "b-2", Gaps: []GapRow{
				// Exact values that differ by a millisecond: a real change.
				{Name: g1, A: one(span(1000, 1000, 1000)), B: one(span(1001, 1001, 1001)), Change: spanPtr(1, 1, 1), Shift: "longer"},
			}}}}},
		{"by name, some unmatched", snap(gapPod("x"), gapPod("y", g1, span(1, 0, 2))), snap(gapPod("y", g1, span(1, 0, 2)), gapPod("z")), "name",
			Diff{By: "name", Pairs: []PodPair{{A: "y", B: "y", Gaps: []GapRow{
				{Name: g1, A: one(span(1, 0, 2)), B: one(span(1, 0, 2)), Change: spanPtr(0, -2, 2), Shift: "within bounds"},
			}}}, OnlyA: []string{"x"}, OnlyB: []string{"z"}}},
		{"by order, B longer", snap(gapPod("x")), snap(gapPod("y"), gapPod("z")), "order",
			Diff{By: "order", Pairs: []PodPair{{A: "x", B: "y"}}, OnlyB: []string{"z"}}},
		{"several pods: distributions", snap(
			gapPod("j-1", g1, span(1000, 900, 1100)),
			gapPod("j-2", g1, span(3000, 2000, 4000)),
			gapPod("j-3", g1, span(2000, 1500, 2500), g2, span(5, 0, 10)),
		), snap(
			gapPod("k-1", g1, span(9000, 8000, 9500)),
			gapPod("k-2", g1, span(7000, 6500, 8000)),
			gapPod("k-3", g1, span(5000, 4000, 6000)),
			gapPod("k-4", g1, span(100, 0, 200)),
		), "auto", Diff{By: "gap", Gaps: []GapRow{
			// A's median 2 s lies in [1.5 s, 2.5 s]; B's (the lower middle of four) 5 s in
			// [4 s, 6 s]: the medians' intervals do not meet.
			{Name: g1,
				A:      &Side{Pods: 3, Span: span(2000, 1500, 2500), Smallest: 1000 * time.Millisecond, Largest: 3000 * time.Millisecond},
				B:      &Side{Pods: 4, Span: span(5000, 4000, 6000), Smallest: 100 * time.Millisecond, Largest: 9000 * time.Millisecond},
				Change: spanPtr(3000, 1500, 4500), Shift: "longer"},
			{Name: g2, A: one(span(5, 0, 10)), Shift: "only in A"},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Timelines("A", "B", tt.a, tt.b, tt.by)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Kind, tt.want.A, tt.want.B = "SidecarTopDiff", "A", "B"
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("-got +want:\n%s", diff)
			}
		})
	}
	if _, err := Timelines("A", "B", snap(), snap(), "pods"); err == nil || !strings.Contains(err.Error(), `by "pods"`) {
		t.Errorf("--by pods: %v", err)
	}
}
