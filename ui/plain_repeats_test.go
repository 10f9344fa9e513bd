package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// probeFailedLines are the offsets of out's probe-failed lines of lane, in order.
func probeFailedLines(t *testing.T, out, lane string) []time.Duration {
	t.Helper()
	var offs []time.Duration
	for l := range strings.SplitSeq(out, "\n") {
		f := strings.Fields(l)
		if m := plainLineRE.FindStringSubmatch(l); m != nil && len(f) > 5 && strings.Contains(l, " "+lane+" ") && strings.Contains(l, " probe-failed ") {
			offs = append(offs, parseOffset(t, m[2]))
		}
	}
	return offs
}

// TestPlainProbeRepeats: the sidecar's startup probe of startup-probe failed four times (an
// update of one Unhealthy Event each, as the Events table lists them): four probe-failed lines,
// each at its failure's time, not four at the first's.
func TestPlainProbeRepeats(t *testing.T) {
	f, err := recordings.Open("startup-probe")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, final := replayPlain(t, f, "startup-probe", false)
	p := final.Pods.At(0)
	origin := newPodTimes(p).origin
	var want []time.Duration
	for _, e := range final.Events() {
		if e.Reason == "Unhealthy" && e.Container == "sidecar" {
			want = append(want, e.At.Sub(origin))
		}
	}
	got := probeFailedLines(t, out, "sidecar")
	if len(want) != 4 || len(got) != len(want) {
		t.Fatalf("%d probe-failed lines for %d Unhealthy Events (want 4):\n%s", len(got), len(want), out)
	}
	for i := range got {
		if d := got[i] - want[i]; d < -10*time.Millisecond || d > 10*time.Millisecond {
			t.Errorf("probe-failed line %d at %s, its Event at %s:\n%s", i+1, got[i], want[i], out)
		}
	}
}

// TestPlainTwoEventsOfOneProbe: a probe that fails with two messages is two Events, each
// counting from 1: a line for each failure, though two have the same probe and count.
func TestPlainTwoEventsOfOneProbe(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	sec := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	side := timeline.ContainerObservation{Name: "proxy", Kind: timeline.KindSidecar, HasReadinessProbe: true,
		Status: &timeline.ContainerStatus{ContainerID: "1", Running: &timeline.Running{ContainerID: "1", StartedAt: sec(1)}}}
	pod := &timeline.PodObservation{UID: "a", Namespace: "ns", Name: "p", Created: t0, Phase: "Running",
		RestartPolicy: "Always", Containers: []timeline.ContainerObservation{side}}
	b := timeline.NewBuilder()
	b.Apply(timeline.Observation{Received: sec(1.5), Type: timeline.Added, Pod: pod})
	for i, msg := range []string{"Readiness probe failed: connection refused", "Readiness probe failed: timeout"} {
		at := sec(2.1 + float64(i))
		b.Apply(timeline.Observation{Received: at.Add(50 * time.Millisecond), Type: timeline.Added, Event: &timeline.EventObservation{
			UID: "ev" + msg, Namespace: "ns", Name: "p." + msg[len(msg)-4:], InvolvedKind: "Pod", InvolvedName: "p", InvolvedUID: "a",
			FieldPath: "spec.initContainers{proxy}", Container: "proxy", ContainerKind: timeline.KindInit, Type: "Warning",
			Reason: "Unhealthy", Message: msg, Count: 1, First: at.Truncate(time.Second), Last: at.Truncate(time.Second)}})
	}
	var out strings.Builder
	pl := NewPlain(&out)
	pl.Update(b.Snapshot())
	pl.Flush()
	if got := probeFailedLines(t, out.String(), "proxy"); len(got) != 2 {
		t.Errorf("%d probe-failed lines, want 2:\n%s", len(got), out.String())
	}
}
