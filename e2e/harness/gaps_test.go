//go:build e2e

package harness

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// These tests need no cluster: they hold the arithmetic of the truth against hand-made logs.

var t0 = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// logs is a Truth of one pod whose container runs logged these lines.
func logs(runs map[string]map[int][]Line) *Truth {
	t := &Truth{Runs: map[RunKey][]Line{}}
	for c, rs := range runs {
		for n, lines := range rs {
			t.Runs[RunKey{Pod: "p", UID: "u", Container: c, Restart: n}] = lines
		}
	}
	return t
}

func TestBoundsOfGap(t *testing.T) {
	r := &Run{Truth: logs(map[string]map[int][]Line{
		"s": {0: {{At: at(ms(1000)), Text: "s start"}, {At: at(ms(3000)), Text: "s ready-file"}}},
		"a": {0: {
			{At: at(ms(3200)), Text: "a start"}, {At: at(ms(8000)), Text: "a prestop start"},
			{At: at(ms(12000)), Text: "a got TERM"}, {At: at(ms(12000)), Text: "a exiting"},
		}},
	})}
	r.Deletion = [2]time.Time{at(ms(7000)), at(ms(7200))}
	points := []Point{
		startPt("s", 0), pt("s", timeline.MStarted, 0, "s ready-file", NotBefore),
		startPt("a", 0), preStopPt("a", 0), pt("a", timeline.MSigterm, 0, "a got TERM", After),
		exitPt("a", 0, "a exiting"),
	}
	ref := func(c string, k timeline.MilestoneKind) timeline.MilestoneRef {
		return timeline.MilestoneRef{Container: c, Kind: k}
	}
	type want struct {
		Truth GapTruth
		OK    bool
	}
	for _, tc := range []struct {
		name     string
		from, to timeline.MilestoneRef
		want     want
	}{
		{"both exact: a start (after its line) to a exit (before its line)", ref("a", timeline.MStart), ref("a", timeline.MExit),
			want{GapTruth{Value: ms(8800), Lo: ms(8800), Hi: ms(9000), Exact: true}, true}},
		{"to a startup probe's pass: at least from the start to the file", ref("s", timeline.MStart), ref("s", timeline.MStarted),
			want{GapTruth{Lo: ms(1900), Hi: NoHi}, true}},
		{"from a startup probe's pass: at most from the file to the next start", ref("s", timeline.MStarted), ref("a", timeline.MStart),
			want{GapTruth{Lo: NoLo, Hi: ms(300)}, true}},
		{"from a preStop hook's start: at least from its line to the SIGTERM", ref("a", timeline.MPreStop), ref("a", timeline.MSigterm),
			want{GapTruth{Lo: ms(3900), Hi: NoHi}, true}},
		{"from the deletion: the kubectl call ± half its duration", ref("", timeline.MDeleting), ref("a", timeline.MExit),
			want{GapTruth{Value: ms(4900), Lo: ms(4800), Hi: ms(5100), Plus: ms(100), Exact: true}, true}},
		{"an end without a point has no truth", ref("s", timeline.MStart), ref("s", timeline.MExit), want{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, ok := r.BoundsOfGap(timeline.Gap{From: tc.from, To: tc.to}, points)
			if diff := cmp.Diff(want{g, ok}, tc.want); diff != "" {
				t.Errorf("BoundsOfGap (-got +want):\n%s", diff)
			}
			_, exact := r.TruthOfGap(timeline.Gap{From: tc.from, To: tc.to}, points)
			if exact != tc.want.Truth.Exact {
				t.Errorf("TruthOfGap ok = %v, want %v (only exact truths)", exact, tc.want.Truth.Exact)
			}
		})
	}
}

func TestGapTruthMeets(t *testing.T) {
	span := timeline.Span{Min: ms(1000), Max: ms(2000)}
	for _, tc := range []struct {
		truth GapTruth
		want  bool
	}{
		{GapTruth{Lo: ms(1500), Hi: ms(1600)}, true},
		{GapTruth{Lo: ms(2100), Hi: ms(2200)}, false},
		{GapTruth{Lo: ms(1900), Hi: NoHi}, true},
		{GapTruth{Lo: ms(2001), Hi: NoHi}, false},
		{GapTruth{Lo: NoLo, Hi: ms(999)}, false},
		{GapTruth{Lo: NoLo, Hi: ms(1000)}, true},
	} {
		if got := tc.truth.Meets(span); got != tc.want {
			t.Errorf("%+v meets [1s, 2s] = %v, want %v", tc.truth, got, tc.want)
		}
	}
}
