package main

import (
	"encoding/json"
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

func one(s timeline.Span) *gapSide {
	return &gapSide{Pods: 1, Span: s, Smallest: s.Value, Largest: s.Value}
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
		want gapDiff
	}{
		{"one pod each, same name", snap(before), snap(after), "auto", gapDiff{By: "name", Pairs: []podPair{{
			A: "web", B: "web", Gaps: []gapRow{
				// B's [2, 3.5] lies above A's [0.5, 1.5]: longer.
				{Name: g1, A: one(span(1000, 500, 1500)), B: one(span(3000, 2000, 3500)), Change: spanPtr(2000, 500, 3000), Shift: "longer"},
				// The intervals overlap: the change may be none.
				{Name: g2, A: one(span(200, 0, 400)), B: one(span(100, 0, 200)), Change: spanPtr(-100, -400, 200), Shift: "within bounds"},
				{Name: g3, A: one(span(300, 0, 600)), Shift: "only in A"},
			},
		}}}},
		{"the other way", snap(after), snap(before), "auto", gapDiff{By: "name", Pairs: []podPair{{
			A: "web", B: "web", Gaps: []gapRow{
				{Name: g1, A: one(span(3000, 2000, 3500)), B: one(span(1000, 500, 1500)), Change: spanPtr(-2000, -3000, -500), Shift: "shorter"},
				{Name: g2, A: one(span(100, 0, 200)), B: one(span(200, 0, 400)), Change: spanPtr(100, -200, 400), Shift: "within bounds"},
				{Name: g3, B: one(span(300, 0, 600)), Shift: "only in B"},
			},
		}}}},
		{"one pod each, other names", snap(gapPod("a-1", g1, span(1000, 1000, 1000))), snap(gapPod("b-2", g1, span(1001, 1001, 1001))), "auto",
			gapDiff{By: "order", Pairs: []podPair{{A: "a-1", B: "b-2", Gaps: []gapRow{
				// Exact values that differ by a millisecond: a real change.
				{Name: g1, A: one(span(1000, 1000, 1000)), B: one(span(1001, 1001, 1001)), Change: spanPtr(1, 1, 1), Shift: "longer"},
			}}}}},
		{"by name, some unmatched", snap(gapPod("x"), gapPod("y", g1, span(1, 0, 2))), snap(gapPod("y", g1, span(1, 0, 2)), gapPod("z")), "name",
			gapDiff{By: "name", Pairs: []podPair{{A: "y", B: "y", Gaps: []gapRow{
				{Name: g1, A: one(span(1, 0, 2)), B: one(span(1, 0, 2)), Change: spanPtr(0, -2, 2), Shift: "within bounds"},
			}}}, OnlyA: []string{"x"}, OnlyB: []string{"z"}}},
		{"by order, B longer", snap(gapPod("x")), snap(gapPod("y"), gapPod("z")), "order",
			gapDiff{By: "order", Pairs: []podPair{{A: "x", B: "y"}}, OnlyB: []string{"z"}}},
		{"several pods: distributions", snap(
			gapPod("j-1", g1, span(1000, 900, 1100)),
			gapPod("j-2", g1, span(3000, 2000, 4000)),
			gapPod("j-3", g1, span(2000, 1500, 2500), g2, span(5, 0, 10)),
		), snap(
			gapPod("k-1", g1, span(9000, 8000, 9500)),
			gapPod("k-2", g1, span(7000, 6500, 8000)),
			gapPod("k-3", g1, span(5000, 4000, 6000)),
			gapPod("k-4", g1, span(100, 0, 200)),
		), "auto", gapDiff{By: "gap", Gaps: []gapRow{
			// A's median 2 s lies in [1.5 s, 2.5 s]; B's (the lower middle of four) 5 s in
			// [4 s, 6 s]: the medians' intervals do not meet.
			{Name: g1,
				A:      &gapSide{Pods: 3, Span: span(2000, 1500, 2500), Smallest: 1000 * time.Millisecond, Largest: 3000 * time.Millisecond},
				B:      &gapSide{Pods: 4, Span: span(5000, 4000, 6000), Smallest: 100 * time.Millisecond, Largest: 9000 * time.Millisecond},
				Change: spanPtr(3000, 1500, 4500), Shift: "longer"},
			{Name: g2, A: one(span(5, 0, 10)), Shift: "only in A"},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := diffTimelines("A", "B", tt.a, tt.b, tt.by)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Kind, tt.want.A, tt.want.B = "SidecarTopDiff", "A", "B"
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("-got +want:\n%s", diff)
			}
		})
	}
	if _, err := diffTimelines("A", "B", snap(), snap(), "pods"); err == nil || !strings.Contains(err.Error(), `--by "pods"`) {
		t.Errorf("--by pods: %v", err)
	}
}

// rowVerdicts is each gap row of a plain diff, its name and its verdict.
func rowVerdicts(stdout string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(stdout, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), "  ")
		if !ok || !strings.Contains(name, "→") {
			continue
		}
		for _, v := range []string{"longer", "shorter", "within bounds", "only in A", "only in B"} {
			if strings.HasSuffix(strings.TrimSpace(rest), v) || strings.Contains(rest, "  "+v+"  ") {
				out[name] = v
			}
		}
	}
	return out
}

// TestDiffRecordings: the real recordings of a pod that drains for 3 s and of one that stops
// at once differ, in the gaps where they should, beyond their bounds.
func TestDiffRecordings(t *testing.T) {
	a, b := recordingFile(t, "startup-probe"), recordingFile(t, "termination-order")
	code, stdout, stderr := runCmd(t, "diff", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"A: " + a + " (pod/sc-a)\n", "B: " + b + " (pod/sc-c)\n", "pod sc-a (A) and sc-c (B)\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	got := rowVerdicts(stdout)
	for name, want := range map[string]string{
		"init-sleep exit → sidecar start": "only in A",     // sc-c has no init container
		"sidecar start → sidecar started": "shorter",       // sc-a's startup probe held it ~4 s
		"app SIGTERM → app exit":          "longer",        // sc-c's app drains for 3 s
		"sidecar started → app start":     "within bounds", // the same kubelet step in both
	} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q\n%s", name, got[name], want, stdout)
		}
	}

	// JSON: the same comparison, each change B - A with bounds from both sides.
	code, stdout, stderr = runCmd(t, "diff", a, b, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d gapDiff
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if d.Kind != "SidecarTopDiff" || d.By != "order" || len(d.Pairs) != 1 || d.Pairs[0].A != "sc-a" || d.Pairs[0].B != "sc-c" || d.TargetA != "pod/sc-a" {
		t.Fatalf("got %+v", d)
	}
	for _, r := range d.Pairs[0].Gaps {
		if r.Shift != got[r.Name] {
			t.Errorf("%s: JSON says %q, the table %q", r.Name, r.Shift, got[r.Name])
		}
		if r.A == nil || r.B == nil {
			continue
		}
		want := timeline.Span{Value: r.B.Span.Value - r.A.Span.Value, Min: r.B.Span.Min - r.A.Span.Max, Max: r.B.Span.Max - r.A.Span.Min}
		if r.Change == nil || *r.Change != want {
			t.Errorf("%s: change %+v, want %+v", r.Name, r.Change, want)
		}
	}
}

// TestDiffJob: a Job's two pods against one are compared as distributions.
func TestDiffJob(t *testing.T) {
	two, one := recordingFile(t, "job-native-sidecar", "job-classic-sidecar"), recordingFile(t, "job-native-sidecar")
	code, stdout, stderr := runCmd(t, "diff", two, one)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "gaps over all pods") || !strings.Contains(stdout, "PODS A/B") {
		t.Errorf("not a distribution:\n%s", stdout)
	}
	// The classic pod has no named gaps, so each gap has one pod a side, the same pod.
	got := rowVerdicts(stdout)
	if len(got) == 0 {
		t.Fatalf("no gap rows:\n%s", stdout)
	}
	for name, v := range got {
		if v != "within bounds" {
			t.Errorf("%s: %q, want within bounds (the same pod on both sides)", name, v)
		}
	}
}

func TestDiffBad(t *testing.T) {
	a := recordingFile(t, "startup-probe")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"diff", a}, "accepts 2 arg(s)"},
		{[]string{"diff", a, a, "-o", "yaml"}, `-o "yaml": the only output format is json`},
		{[]string{"diff", "-", "-"}, "only one of A and B can be standard input"},
		{[]string{"diff", a, "/does/not/exist.jsonl"}, "no such file"},
		{[]string{"diff", a, a, "--by", "pods"}, `--by "pods": want auto, name, order or gap`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 1 and one line containing %q", code, stderr, tt.want)
			}
		})
	}
}
