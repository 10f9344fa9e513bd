package assert

import (
	"errors"
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// final plays an embedded recording of one pod to its final timeline.
func final(t *testing.T, name string) timeline.Snapshot {
	t.Helper()
	s := finalTB(t, name)
	if s.Pods.Len() != 1 {
		t.Fatalf("%s: %d pods, want 1", name, s.Pods.Len())
	}
	return s
}

// TestRecordings: assertions about what the real recordings show (recordings/README.md).
func TestRecordings(t *testing.T) {
	tests := []struct {
		recording, src string
		want           Truth
		missing        bool
	}{
		// The sidecar's startup probe held it 2.4–4.5 s; the app started after it.
		{"startup-probe", "sidecar.started - sidecar.start > 2s", True, false},
		{"startup-probe", "app.start > sidecar.started", True, false},
		{"startup-probe", "app.start - sidecar.started < 1s", Uncertain, false},
		{"startup-probe", "gap(sidecar.started, app.start) >= 0s", True, false},
		{"startup-probe", `gap("init-sleep exit → sidecar start") < 2s`, True, false},
		{"startup-probe", "init-sleep.exit < sidecar.start", True, false},
		{"startup-probe", "count(findings, warning) == 0 && count(findings) == 1", True, false},
		{"startup-probe", "pod.deleted > pod.deleting", True, false},
		// The app drained for 3 s; the sidecar's SIGTERM is inferred after the app's exit.
		{"termination-order", `gap("app SIGTERM -> app exit") > 1s`, True, false},
		{"termination-order", `gap("app SIGTERM -> app exit") < 3s`, Uncertain, false},
		{"termination-order", "gap(app.exit, sidecar.sigterm) < 5s", True, false},
		// Both finishedAt read the same second: only the kubelet's order, which the gap knows,
		// puts the sidecar's exit after the app's.
		{"termination-order", "sidecar.exit - app.exit >= 0s", Uncertain, false},
		{"termination-order", "gap(app.exit, sidecar.sigterm) >= 0s && gap(sidecar.sigterm, sidecar.exit) >= 0s", True, false},
		{"termination-order", "sidecar.restarts == 0 && app.restarts == 0", True, false},
		// A sidecar that ignored SIGTERM was killed after the grace period.
		{"job-native-sidecar", `gap("sidecar SIGTERM → sidecar exit") < 5s`, False, false},
		{"job-native-sidecar", "count(findings, warning) == 0", False, false},
		{"job-native-sidecar", "pod.phase - main.exit > 25s", True, false},
		// A crashing sidecar restarted four times, ever later.
		{"crashing-sidecar", "sidecar.restarts == 0", False, false},
		{"crashing-sidecar", "app.restarts == 0", True, false},
		{"crashing-sidecar", "sidecar.restart[4] - sidecar.restart[3] > 30s", True, false},
		{"crashing-sidecar", "sidecar.restart > sidecar.restart[3]", True, false},
		// A classic sidecar never exits, so the Job never completes.
		{"job-classic-sidecar", "sidecar.exit - main.exit < 5s", False, true},
		{"job-classic-sidecar", "pod.phase - main.exit < 5s", False, true},
	}
	snaps := map[string]timeline.Snapshot{}
	for _, tt := range tests {
		t.Run(tt.recording+": "+tt.src, func(t *testing.T) {
			s, ok := snaps[tt.recording]
			if !ok {
				s = final(t, tt.recording)
				snaps[tt.recording] = s
			}
			a, err := Parse(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Check(s); err != nil {
				t.Fatal(err)
			}
			got := a.Eval(s.Pods.At(0))
			if got.Truth != tt.want || got.Missing != tt.missing {
				t.Errorf("got %v (missing %v): %s; want %v (missing %v)", got.Truth, got.Missing, got.Detail, tt.want, tt.missing)
			}
		})
	}
}

// TestRecordingGaps: gap(...) reads the very span the timeline computed for every named gap of
// every recording, by its name and by its two milestones.
func TestRecordingGaps(t *testing.T) {
	for _, name := range recordings.Names() {
		s := final(t, name)
		for _, g := range s.Pods.At(0).Gaps {
			want := value{ty: tyDuration, b: bounds{est: g.Span.Value, lo: g.Span.Min, hi: g.Span.Max}}.format() + " < 1h"
			for _, src := range []string{
				`gap("` + g.Name + `") < 1h`,
				"gap(" + refText(g.From) + ", " + refText(g.To) + ") < 1h",
			} {
				a, err := Parse(src)
				if err != nil {
					t.Fatalf("%s: %v", src, err)
				}
				if got := a.Eval(s.Pods.At(0)); got != (Result{Truth: True, Detail: want}) {
					t.Errorf("%s: %s: got %+v, want detail %q", name, src, got, want)
				}
			}
		}
	}
}

// refText writes a gap's end as the language does.
func refText(r timeline.MilestoneRef) string {
	lane := `"` + r.Container + `"`
	if r.Container == "" {
		lane = "pod"
	}
	kind := string(r.Kind)
	for name, k := range containerKinds {
		if k.kind == r.Kind {
			kind = name
		}
	}
	if r.Container == "" {
		return lane + "." + kind
	}
	return lane + "." + kind + "[" + string(rune('0'+r.Attempt)) + "]"
}

// TestNameUnknown: a container that the pods do not have is said before a type error in the
// same assertion, since it is what to fix first; with every container known, or with no pods,
// the type error is left as it is.
func TestNameUnknown(t *testing.T) {
	s := final(t, "startup-probe")
	tests := []struct {
		src, want string
	}{
		{"proxy.start < 3s", `column 1: unknown container "proxy": the pods have app, init-sleep, sidecar; and column 13: cannot compare a time (proxy.start) with a duration (3s)`},
		{`app.start - "proxy x".started < 3`, `column 13: unknown container "proxy x": the pods have app, init-sleep, sidecar; and column 31: cannot compare`},
		{"app.start < 3s", "column 11: cannot compare a time (app.start) with a duration (3s)"},
		{"pod.ready < 3s", "column 11: cannot compare a time (pod.ready)"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.src)
		if err == nil {
			t.Fatalf("%s: parses", tt.src)
		}
		got := NameUnknown(tt.src, err, s)
		if !strings.HasPrefix(got.Error(), tt.want) {
			t.Errorf("%s:\n got %v\nwant %s...", tt.src, got, tt.want)
		}
		var e *Error
		if !errors.As(got, &e) {
			t.Errorf("%s: %T, want an *Error with the column", tt.src, got)
		}
	}
	_, err := Parse("proxy.start < 3s")
	if got := NameUnknown("proxy.start < 3s", err, timeline.Snapshot{}); got != err {
		t.Errorf("no pods: %v, want the type error as it was", got)
	}
}
