package assert

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

var t0 = time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)

// sec is t0 plus s seconds; NaN gives the zero time (no bound).
func sec(s float64) time.Time {
	if s != s {
		return time.Time{}
	}
	return t0.Add(time.Duration(s * float64(time.Second)))
}

// ms is a milestone of that lane, kind and attempt at est, certainly within [lo, hi] (seconds).
func ms(lane string, kind timeline.MilestoneKind, attempt int32, est, lo, hi float64) timeline.Milestone {
	return timeline.Milestone{Kind: kind, Container: lane, Attempt: attempt, At: sec(est), Earliest: sec(lo), Latest: sec(hi)}
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

var nan = func() float64 { z := 0.0; return z / z }()

// testPod is a pod whose numbers are chosen to exercise the rules: a sidecar proxy that
// restarted once, an app whose preStop has no lower bound, a pod that was Ready twice.
func testPod() *timeline.Pod {
	p := timeline.Pod{
		Name: "p", Created: t0,
		Milestones: timeline.SeqOf(
			ms("", timeline.MCreated, 0, 0, 0, 0),
			ms("", timeline.MReady, 0, 5, 4.5, 5.5),
			ms("", timeline.MNotReady, 0, 8, 8, 8),
			ms("", timeline.MReady, 0, 10, 10, 10),
			ms("", timeline.MNotReady, 0, 12, 12, 12),
			ms("", timeline.MDeleting, 0, 20, 20, 20),
		),
		Containers: []timeline.Container{
			{Name: "proxy", Kind: timeline.KindSidecar, RestartCount: 1, Runs: timeline.SeqOf([]*timeline.Run{
				{Attempt: 0, Milestones: []timeline.Milestone{
					ms("proxy", timeline.MStart, 0, 1, 0.9, 1.1),
					ms("proxy", timeline.MStarted, 0, 2, 1.5, 2.5),
					ms("proxy", timeline.MExit, 0, 3, 3, 3.999),
				}},
				{Attempt: 1, Milestones: []timeline.Milestone{
					ms("proxy", timeline.MRestart, 1, 4, 4, 4.999),
					ms("proxy", timeline.MStarted, 1, 4.5, 4.5, 4.5),
					ms("proxy", timeline.MSigterm, 1, 21, 20.5, 22),
					ms("proxy", timeline.MExit, 1, 22, 21.9, 22.1),
				}},
			}...)},
			{Name: "app", Kind: timeline.KindApp, Runs: timeline.SeqOf([]*timeline.Run{
				{Attempt: 0, Milestones: []timeline.Milestone{
					ms("app", timeline.MStart, 0, 3, 2.5, 3.5),
					ms("app", timeline.MPreStop, 0, 19, nan, 19.5),
					ms("app", timeline.MSigterm, 0, 20.5, 20, 21),
					ms("app", timeline.MExit, 0, 23, 22, 23.999),
				}},
			}...)},
		},
		Gaps: []timeline.Gap{
			{Name: "app SIGTERM → app exit",
				From: timeline.MilestoneRef{Container: "app", Kind: timeline.MSigterm},
				To:   timeline.MilestoneRef{Container: "app", Kind: timeline.MExit},
				Span: timeline.Span{Value: secs(2.5), Min: secs(1), Max: secs(4)}},
			{Name: "app preStop → app SIGTERM",
				From: timeline.MilestoneRef{Container: "app", Kind: timeline.MPreStop},
				To:   timeline.MilestoneRef{Container: "app", Kind: timeline.MSigterm},
				Span: timeline.Span{Value: secs(1.5), Min: secs(0.5), Max: secs(99)}},
			{Name: "pod deletion → last exit (app)",
				From: timeline.MilestoneRef{Kind: timeline.MDeleting},
				To:   timeline.MilestoneRef{Container: "app", Kind: timeline.MExit},
				Span: timeline.Span{Value: secs(3), Min: secs(2), Max: secs(3.999)}},
		},
	}
	return p.WithFindings([]timeline.Finding{
		{ID: timeline.FindingCrashLoop, Severity: timeline.SeverityWarning, Text: "w"},
		{ID: timeline.FindingSlowStartup, Severity: timeline.SeverityInfo, Text: "i1"},
		{ID: timeline.FindingStoppedTogether, Severity: timeline.SeverityInfo, Text: "i2"},
	})
}

// TestEval: each assertion's truth and the values it shows, on a pod made for it.
func TestEval(t *testing.T) {
	tests := []struct {
		src  string
		want Result
	}{
		// app.start - proxy.started: estimate 1 s, certainly within [0 s, 2 s].
		{"app.start - proxy.started < 3s", Result{True, "1.00s [0.00s, 2.00s] < 3s", false}},
		{"app.start - proxy.started < 2s", Result{Uncertain, "1.00s [0.00s, 2.00s] < 2s", false}},
		{"app.start - proxy.started <= 2s", Result{True, "1.00s [0.00s, 2.00s] <= 2s", false}},
		{"app.start - proxy.started < 1s", Result{Uncertain, "1.00s [0.00s, 2.00s] < 1s", false}},
		{"app.start - proxy.started < 0s", Result{False, "1.00s [0.00s, 2.00s] < 0s", false}},
		{"app.start - proxy.started <= 0s", Result{Uncertain, "1.00s [0.00s, 2.00s] <= 0s", false}},
		{"app.start - proxy.started > 2s", Result{False, "1.00s [0.00s, 2.00s] > 2s", false}},
		{"app.start - proxy.started >= 2s", Result{Uncertain, "1.00s [0.00s, 2.00s] >= 2s", false}},
		{"app.start - proxy.started >= 0s", Result{True, "1.00s [0.00s, 2.00s] >= 0s", false}},
		{"app.start - proxy.started > -1s", Result{True, "1.00s [0.00s, 2.00s] > -1.00s", false}},
		{"app.start - proxy.started == 1s", Result{Uncertain, "1.00s [0.00s, 2.00s] == 1s", false}},
		{"app.start - proxy.started == 5s", Result{False, "1.00s [0.00s, 2.00s] == 5s", false}},
		{"app.start - proxy.started != 5s", Result{True, "1.00s [0.00s, 2.00s] != 5s", false}},
		{"app.start - proxy.started != 1s", Result{Uncertain, "1.00s [0.00s, 2.00s] != 1s", false}},
		{"2s == 2000ms", Result{True, "2s == 2000ms", false}},
		{"1m30s - 30s > 59s", Result{True, "1m00.00s > 59s", false}},
		// Times compare as intervals too.
		{"app.start > proxy.started", Result{Uncertain, "+3.00s [+2.50s, +3.50s] > +2.00s [+1.50s, +2.50s]", false}},
		{"app.start >= proxy.started", Result{True, "+3.00s [+2.50s, +3.50s] >= +2.00s [+1.50s, +2.50s]", false}},
		{"pod.deleting + 2s > app.exit", Result{False, "+22.00s > +23.00s [+22.00s, +24.00s]", false}},
		{"pod.deleting + 2s >= app.exit", Result{Uncertain, "+22.00s >= +23.00s [+22.00s, +24.00s]", false}},
		// Which run: first for the kinds that begin one, latest for the others, or [n].
		{"proxy.started - proxy.start < 1.7s", Result{True, "1.00s [0.40s, 1.60s] < 1.7s", false}},
		{"proxy.started[1] - proxy.start == 3.5s", Result{Uncertain, "3.50s [3.40s, 3.60s] == 3.5s", false}},
		{"proxy.exit - proxy.restart > 15s", Result{True, "18.00s [16.90s, 18.10s] > 15s", false}},
		{"proxy.exit[0] - proxy.start < 3s", Result{Uncertain, "2.00s [1.90s, 3.10s] < 3s", false}},
		{"proxy.restart[1] - proxy.exit[0] >= 0s", Result{True, "1.00s [0.00s, 2.00s] >= 0s", false}},
		{"pod.ready - pod.created == 5s", Result{Uncertain, "5.00s [4.50s, 5.50s] == 5s", false}},
		{"pod.not_ready - pod.created == 12s", Result{True, "12.00s == 12s", false}},
		// An unbounded end stays unbounded.
		{"app.sigterm - app.prestop > 0s", Result{True, "1.50s [0.50s, +inf] > 0s", false}},
		{"app.sigterm - app.prestop < 10s", Result{Uncertain, "1.50s [0.50s, +inf] < 10s", false}},
		{"app.prestop < pod.deleting", Result{True, "+19.00s [-inf, +19.50s] < +20.00s", false}},
		// Counts are exact.
		{"proxy.restarts == 1", Result{True, "1 == 1", false}},
		{"proxy.restarts + app.restarts < 1", Result{False, "1 < 1", false}},
		{"app.restarts != 0", Result{False, "0 != 0", false}},
		// A count of findings names those it counted, so a failed gate says which.
		{"count(findings) == 3", Result{True, "3 (crash-loop, slow-startup, stopped-together) == 3", false}},
		{"count(findings, warning) == 0", Result{False, "1 (crash-loop) == 0", false}},
		{"count(findings, info) >= 2", Result{True, "2 (slow-startup, stopped-together) >= 2", false}},
		{"count(findings, info) - 2 == 0", Result{True, "0 == 0", false}},
		{"-proxy.restarts < 0", Result{True, "-1 < 0", false}},
		// Gaps, by name or by milestones; a gap's bounds are the timeline's.
		{`gap("app SIGTERM → app exit") < 5s`, Result{True, "2.50s [1.00s, 4.00s] < 5s", false}},
		{`gap(" APP sigterm->app EXIT ") < 3s`, Result{Uncertain, "2.50s [1.00s, 4.00s] < 3s", false}},
		{"gap(app.sigterm, app.exit) > 1s", Result{Uncertain, "2.50s [1.00s, 4.00s] > 1s", false}},
		{"gap(app.sigterm[0], app.exit[0]) >= 1s", Result{True, "2.50s [1.00s, 4.00s] >= 1s", false}},
		{`gap("pod deletion → last exit") < 4s`, Result{True, "3.00s [2.00s, 4.00s] < 4s", false}},
		{`gap("pod deletion -> last exit (app)") < 4s`, Result{True, "3.00s [2.00s, 4.00s] < 4s", false}},
		{"gap(pod.deleting, app.exit) < 4s", Result{True, "3.00s [2.00s, 4.00s] < 4s", false}},
		{`gap("app preStop → app SIGTERM") < 2s`, Result{Uncertain, "1.50s [0.50s, +inf] < 2s", false}},
		// Kleene's logic.
		{"app.start - proxy.started < 1s && proxy.restarts == 1", Result{Uncertain, "1.00s [0.00s, 2.00s] < 1s; 1 == 1", false}},
		{"app.start - proxy.started < 1s && proxy.restarts == 0", Result{False, "1.00s [0.00s, 2.00s] < 1s; 1 == 0", false}},
		{"app.start - proxy.started < 1s || proxy.restarts == 1", Result{True, "1.00s [0.00s, 2.00s] < 1s; 1 == 1", false}},
		{"app.start - proxy.started < 1s || proxy.restarts == 0", Result{Uncertain, "1.00s [0.00s, 2.00s] < 1s; 1 == 0", false}},
		// A negated comparison shows the comparison it claims: !(a < b) is a >= b.
		{"!(app.start - proxy.started < 1s)", Result{Uncertain, "1.00s [0.00s, 2.00s] >= 1s", false}},
		{"!app.start - proxy.started < 3s", Result{False, "1.00s [0.00s, 2.00s] >= 3s", false}},
		{"!(proxy.restarts == 1)", Result{False, "1 != 1", false}},
		{"!(proxy.restarts != 1)", Result{True, "1 == 1", false}},
		{"!!(proxy.restarts == 1)", Result{True, "1 == 1", false}},
		{"!(proxy.restarts == 1 && count(findings) > 5)", Result{True, "!(1 == 1; 3 (crash-loop, slow-startup, stopped-together) > 5)", false}},
		// A unit after a space is the duration it reads as.
		{"app.start - proxy.started < 5 s", Result{True, "1.00s [0.00s, 2.00s] < 5 s", false}},
		{"app.start - proxy.started > 500 ms", Result{Uncertain, "1.00s [0.00s, 2.00s] > 500 ms", false}},
		// What the pod lacks makes the assertion false, whatever surrounds it.
		{"app.restart[1] - app.start < 1s", Result{False, "no app.restart[1]", true}},
		{"!(app.restart - app.start < 1s)", Result{False, "no app.restart", true}},
		{"proxy.restarts == 1 || app.ready - app.start < 1s", Result{False, "no app.ready", true}},
		{"pod.scheduled - pod.created < 1s", Result{False, "no pod.scheduled", true}},
		{"other.restarts == 0", Result{False, "no container other", true}},
		{"other.start < app.start", Result{False, "no container other", true}},
		{"gap(app.sigterm[1], app.exit) < 5s", Result{False, `no gap(app.sigterm[1], app.exit): the pod's gaps are "app SIGTERM → app exit", "app preStop → app SIGTERM", "pod deletion → last exit (app)"`, true}},
		{`gap("proxy SIGTERM → proxy exit") < 5s`, Result{False, `no gap("proxy SIGTERM → proxy exit"): the pod's gaps are "app SIGTERM → app exit", "app preStop → app SIGTERM", "pod deletion → last exit (app)"`, true}},
	}
	p := testPod()
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			a, err := Parse(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(a.Eval(p), tt.want); diff != "" {
				t.Errorf("-got +want:\n%s", diff)
			}
		})
	}
}

// TestCheck: a container that no pod has is a bad assertion, not a failing one.
func TestCheck(t *testing.T) {
	other := timeline.Pod{Name: "q", Containers: []timeline.Container{{Name: "init-db"}}}
	snap := timeline.Snapshot{Pods: timeline.SeqOf(testPod(), &other)}
	tests := []struct {
		src  string
		want error
	}{
		{"app.start - proxy.started < 3s", nil},
		{"init-db.exit < app.start", nil}, // one pod has it: the other fails when evaluated
		{"count(findings) == 0 && pod.ready < pod.deleting", nil},
		{"app.start - proxi.started < 3s", &Error{13, `unknown container "proxi": the pods have app, init-db, proxy`}},
		{"gap(app.sigterm, ap.exit) < 3s", &Error{18, `unknown container "ap": the pods have app, init-db, proxy`}},
		{`"App".restarts == 0`, &Error{1, `unknown container "App": the pods have app, init-db, proxy`}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			a, err := Parse(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			got := a.Check(snap)
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("-got +want:\n%s", diff)
			}
			if got := a.Check(timeline.Snapshot{}); got != nil {
				t.Errorf("with no pods: %v", got)
			}
		})
	}
}

// TestEvalPods: over several pods the worst decides, and says which pod it was.
func TestEvalPods(t *testing.T) {
	late := testPod()
	late.Name = "late"
	other := timeline.Pod{Name: "other"}
	a, err := Parse("app.start - proxy.started < 3s")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		pods []*timeline.Pod
		want Outcome
	}{
		{"none", nil, Outcome{Truth: False}},
		{"all true", []*timeline.Pod{testPod(), late}, Outcome{Truth: True, Pods: []PodResult{
			{"p", Result{True, "1.00s [0.00s, 2.00s] < 3s", false}},
			{"late", Result{True, "1.00s [0.00s, 2.00s] < 3s", false}},
		}}},
		{"one missing", []*timeline.Pod{testPod(), &other}, Outcome{Truth: False, Pods: []PodResult{
			{"p", Result{True, "1.00s [0.00s, 2.00s] < 3s", false}},
			{"other", Result{False, "no container app", true}},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := a.EvalPods(tt.pods)
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("-got +want:\n%s", diff)
			}
			d, ok := got.Decider()
			if ok != (len(tt.pods) > 0) || ok && d.Truth != got.Truth {
				t.Errorf("Decider() = %+v, %v", d, ok)
			}
		})
	}
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0.00s"},
		{1234 * time.Millisecond, "1.23s"},
		{-250 * time.Millisecond, "-0.25s"},
		{59995 * time.Millisecond, "1m00.00s"},
		{107310 * time.Millisecond, "1m47.31s"},
		{-61 * time.Second, "-1m01.00s"},
		{negInf, "-inf"},
		{posInf, "+inf"},
	}
	for _, tt := range tests {
		if got := formatDuration(tt.d); got != tt.want {
			t.Errorf("formatDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestFormatSpan(t *testing.T) {
	tests := []struct {
		s      timeline.Span
		signed bool
		want   string
	}{
		{timeline.Span{Value: secs(0.25), Min: secs(0.05), Max: secs(2.25)}, false, "0.25s [0.05s, 2.25s]"},
		{timeline.Span{Value: secs(2.74), Min: secs(0.99), Max: secs(3.48)}, true, "+2.74s [+0.99s, +3.48s]"},
		{timeline.Span{Value: secs(0.02), Min: secs(-2.22), Max: secs(0.56)}, true, "+0.02s [-2.22s, +0.56s]"},
		{timeline.Span{Value: secs(-4.36), Min: secs(-4.54), Max: secs(-2.05)}, true, "-4.36s [-4.54s, -2.05s]"},
		{timeline.Span{Value: secs(3), Min: secs(3), Max: secs(3)}, false, "3.00s"},
		{timeline.Span{Value: 0, Min: 0, Max: 0}, true, "+0.00s"},
	}
	for _, tt := range tests {
		if got := FormatSpan(tt.s, tt.signed); got != tt.want {
			t.Errorf("FormatSpan(%+v, %v) = %q, want %q", tt.s, tt.signed, got, tt.want)
		}
	}
}

// TestGapSpan: a gap's bounds are its span's, each opened where a milestone at its ends lacks
// the time that bounds it (the start's latest and the end's earliest bound it below, the
// start's earliest and the end's latest above), or is not found at all.
func TestGapSpan(t *testing.T) {
	from := timeline.MilestoneRef{Kind: timeline.MCreated}
	to := timeline.MilestoneRef{Kind: timeline.MReady}
	span := timeline.Span{Value: secs(2), Min: secs(1), Max: secs(3)}
	tests := []struct {
		name       string
		milestones []timeline.Milestone
		span       timeline.Span
		want       bounds
		wantErr    string
	}{
		{name: "both ends bounded", milestones: []timeline.Milestone{ms("", timeline.MCreated, 0, 0, 0, 0.5), ms("", timeline.MReady, 0, 2, 1.5, 3)},
			want: bounds{est: secs(2), lo: secs(1), hi: secs(3)}},
		{name: "the start has no latest time", milestones: []timeline.Milestone{ms("", timeline.MCreated, 0, 0, 0, nan), ms("", timeline.MReady, 0, 2, 1.5, 3)},
			want: bounds{est: secs(2), lo: negInf, hi: secs(3)}},
		{name: "the end has no earliest time", milestones: []timeline.Milestone{ms("", timeline.MCreated, 0, 0, 0, 0.5), ms("", timeline.MReady, 0, 2, nan, 3)},
			want: bounds{est: secs(2), lo: negInf, hi: secs(3)}},
		{name: "the start has no earliest time", milestones: []timeline.Milestone{ms("", timeline.MCreated, 0, 0, nan, 0.5), ms("", timeline.MReady, 0, 2, 1.5, 3)},
			want: bounds{est: secs(2), lo: secs(1), hi: posInf}},
		{name: "the end has no latest time", milestones: []timeline.Milestone{ms("", timeline.MCreated, 0, 0, 0, 0.5), ms("", timeline.MReady, 0, 2, 1.5, nan)},
			want: bounds{est: secs(2), lo: secs(1), hi: posInf}},
		{name: "the end is not found", milestones: []timeline.Milestone{ms("", timeline.MCreated, 0, 0, 0, 0.5)},
			want: bounds{est: secs(2), lo: negInf, hi: posInf}},
		{name: "the span saturated", milestones: []timeline.Milestone{ms("", timeline.MCreated, 0, 0, 0, 0.5), ms("", timeline.MReady, 0, 2, 1.5, 3)},
			span: timeline.Span{Value: posInf}, wantErr: `gap("x → y") is unknown: its span is more than a duration holds`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &timeline.Pod{Name: "p", Created: t0, Milestones: timeline.SeqOf(tt.milestones...)}
			g := &timeline.Gap{Name: "x → y", From: from, To: to, Span: span}
			if tt.span != (timeline.Span{}) {
				g.Span = tt.span
			}
			got, err := gapSpan(p, g, `gap("x → y")`)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("gapSpan() error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got.b, tt.want, cmp.AllowUnexported(bounds{})); diff != "" || got.ty != tyDuration {
				t.Errorf("gapSpan() type %v, bounds -got +want:\n%s", got.ty, diff)
			}
		})
	}
}
