package timeline_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// bounds is what these tests compare of a milestone: where it is placed, between which bounds,
// from which source.
type bounds struct {
	Earliest, At, Latest time.Time
	Source               timeline.Source
}

func boundsOf(m timeline.Milestone) bounds {
	return bounds{Earliest: m.Earliest, At: m.At, Latest: m.Latest, Source: m.Source}
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// logLine is a line of a run's log, stamped at s seconds, marked mark.
func logLine(s float64, mark, text string) timeline.LogLine {
	return timeline.LogLine{At: sec(s), Len: len(text), Mark: mark, Text: text}
}

// logObs is a batch of a run's log lines.
func logObs(container, id string, fromStart, end bool, lines ...timeline.LogLine) timeline.Observation {
	return timeline.Observation{Log: &timeline.LogObservation{Namespace: "ns", Pod: "p", PodUID: "a",
		Container: container, ContainerID: id, FromStart: fromStart, Lines: lines, End: end}}
}

// TestLogEvidence: a run's log bounds its exit (after the last line, less the stamping delay,
// and before the log stream ended) but not its start (the runtime may record it long after the
// first line); a marked line refines the milestone it is named after, and places it, or is a
// milestone of its own; the kubelet's own log places a SIGTERM within 250 ms after its line.
func TestLogEvidence(t *testing.T) {
	b := timeline.NewBuilder()
	side := running("side", timeline.KindSidecar, 1, true, "c-side")
	app := running("app", timeline.KindApp, 2, true, "c-app")
	apply(b, 3.0, timeline.Observation{Type: timeline.Added, Pod: pod("a", side, app)})
	apply(b, 3.0, logObs("app", "c-app", true, false,
		logLine(2.412, "", ""), logLine(2.5, "listening", "listening on :8080"), logLine(2.6, "", "")))
	apply(b, 9.0, logObs("app", "c-app", false, true, logLine(8.31, "sigterm", "caught SIGTERM"), logLine(8.95, "", "bye")))
	apply(b, 8.3, timeline.Observation{Event: killing("a", "app", "containers", 8.3)})
	apply(b, 9.6, timeline.Observation{Pod: pod("a", side, exited("app", timeline.KindApp, 2, 8, 0, "c-app"))})
	apply(b, 9.7, timeline.Observation{Kubelet: &timeline.KubeletObservation{Node: "n", At: sec(9.2), Namespace: "ns",
		Pod: "p", PodUID: "a", Container: "side", ContainerID: "c-side", GracePeriod: 21}})
	p := b.Snapshot().Pods.At(0)

	got := map[string]bounds{
		"app start":     boundsOf(find(t, p, "app", timeline.MStart, 0)),
		"app listening": boundsOf(find(t, p, "app", timeline.MilestoneKind("listening"), 0)),
		"app sigterm":   boundsOf(find(t, p, "app", timeline.MSigterm, 0)),
		"side sigterm":  boundsOf(find(t, p, "side", timeline.MSigterm, 0)),
	}
	start := got["app start"]
	want := map[string]bounds{
		// startedAt 2 s (from 1.9, as the API has it), seen running at 3.0; the first line at
		// 2.412 does not bound it: containerd may record a start long after the first line.
		"app start": {Earliest: sec(1.9), At: start.At, Latest: sec(3).Add(-time.Nanosecond), Source: timeline.SourceStatus},
		// A mark of the app's own: the line, stamped up to 100 ms after it was written.
		"app listening": {Earliest: sec(2.4), At: sec(2.5), Latest: sec(2.5), Source: timeline.SourceLog},
		// After the Killing Event (8.3), no later than the trap's line (8.31), placed there.
		"app sigterm": {Earliest: sec(8.3), At: sec(8.31), Latest: sec(8.31), Source: timeline.SourceEvent},
		// The kubelet's line, and up to 250 ms for the runtime to send the signal.
		"side sigterm": {Earliest: sec(9.2), At: sec(9.2), Latest: sec(9.45), Source: timeline.SourceKubelet},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("milestones (-got +want):\n%s", diff)
	}
	exit := find(t, p, "app", timeline.MExit, 0)
	if want := sec(8.95).Add(-ms(100)); !exit.Earliest.Equal(want) || exit.Latest.After(sec(9.0)) {
		t.Errorf("app exit in [%s, %s], want from the last line less 100 ms (%s) to when the log stream ended (%s)",
			exit.Earliest, exit.Latest, want, sec(9.0))
	}
	c := p.Container("app")
	if l := c.Run(0).Log; l == nil || l.Lines != 5 || !l.First.Equal(sec(2.412)) || l.PerSecond.Len() != 2 {
		t.Errorf("run log %+v", l)
	}
}

// TestRefiningMarks: a mark named start, sigterm, exit or ready says the container printed the
// line at that step. Each bounds its milestone as far as the runtime allows and, but for ready,
// places it at the line; without the mark, the same lines only bound.
func TestRefiningMarks(t *testing.T) {
	marked := func(mark string) string { return mark }
	plain := func(string) string { return "" }
	run := func(markOf func(string) string) map[timeline.MilestoneKind]bounds {
		b := timeline.NewBuilder()
		app := running("app", timeline.KindApp, 2, true, "c-app")
		app.HasReadinessProbe = true
		app.Status.Ready = false
		apply(b, 2.9, timeline.Observation{Type: timeline.Added, Pod: pod("a", app)})
		apply(b, 3.0, logObs("app", "c-app", true, false,
			logLine(2.6, markOf("start"), "app start"), logLine(3.4, markOf("ready"), "app ready")))
		ready := running("app", timeline.KindApp, 2, true, "c-app")
		ready.HasReadinessProbe = true
		apply(b, 4.8, timeline.Observation{Pod: pod("a", ready)})
		apply(b, 6.0, timeline.Observation{Event: killing("a", "app", "containers", 6.0)})
		apply(b, 7.5, logObs("app", "c-app", false, true,
			logLine(6.6, markOf("sigterm"), "app got TERM"), logLine(7.2, markOf("exit"), "app exiting")))
		apply(b, 8.2, timeline.Observation{Pod: pod("a", exited("app", timeline.KindApp, 2, 7, 0, "c-app"))})
		p := b.Snapshot().Pods.At(0)
		out := map[timeline.MilestoneKind]bounds{}
		for _, k := range []timeline.MilestoneKind{timeline.MStart, timeline.MReady, timeline.MSigterm, timeline.MExit} {
			out[k] = boundsOf(find(t, p, "app", k, 0))
		}
		return out
	}
	without, with := run(plain), run(marked)
	want := map[timeline.MilestoneKind]bounds{
		// startedAt 2 s (from 1.9, as the API has it), seen at 2.9; the line (2.6) bounds it no
		// better (at 3.1), but places it.
		timeline.MStart: {Earliest: sec(1.9), At: sec(2.6), Latest: sec(2.9), Source: timeline.SourceStatus},
		// Ready once the line was written (3.3 at the earliest), seen at 4.8; not placed.
		timeline.MReady: {Earliest: sec(3.3), At: without[timeline.MReady].At, Latest: sec(4.8), Source: timeline.SourceObserved},
		// The trap's line: the signal came no more than 250 ms before it, and after Killing.
		timeline.MSigterm: {Earliest: sec(6.35), At: sec(6.6), Latest: sec(6.6), Source: timeline.SourceEvent},
		// finishedAt 7 s; the last line (7.2) bounds it below at 7.1, and places it.
		timeline.MExit: {Earliest: sec(7.1), At: sec(7.2), Latest: with[timeline.MExit].Latest, Source: timeline.SourceStatus},
	}
	if diff := cmp.Diff(with, want); diff != "" {
		t.Errorf("with marks (-got +want):\n%s", diff)
	}
	// Without marks the first line bounds the start (it is the first), the last the exit;
	// nothing is placed, and nothing bounds ready or the SIGTERM.
	if w, m := without[timeline.MStart], with[timeline.MStart]; !w.Latest.Equal(m.Latest) || w.At.Equal(sec(2.6)) {
		t.Errorf("start without a mark %+v, want the same bounds as with it (%+v), not placed at the line", w, m)
	}
	if w := without[timeline.MReady]; !w.Earliest.Before(sec(3.3)) {
		t.Errorf("ready without a mark %+v, want no bound from the line", w)
	}
	if w := without[timeline.MSigterm]; !w.Earliest.Equal(sec(6.0)) || !w.Latest.After(sec(6.6)) {
		t.Errorf("SIGTERM without a mark %+v, want the Killing Event's bounds", w)
	}
	if w := without[timeline.MExit]; !w.Earliest.Equal(sec(7.1)) || w.At.Equal(sec(7.2)) {
		t.Errorf("exit without a mark %+v, want bounded by the last line, not placed there", w)
	}
}

// TestKubeletAndTrapLine: the kubelet's line and the trap's line together hold a sidecar's
// SIGTERM between them, placed at the trap's line.
func TestKubeletAndTrapLine(t *testing.T) {
	b := timeline.NewBuilder()
	side := running("side", timeline.KindSidecar, 1, true, "c-side")
	apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", side)})
	apply(b, 1.6, logObs("side", "c-side", true, false, logLine(1.2, "start", "side start")))
	apply(b, 9.7, timeline.Observation{Kubelet: &timeline.KubeletObservation{Node: "n", At: sec(9.2), Namespace: "ns",
		Pod: "p", PodUID: "a", Container: "side", ContainerID: "c-side", GracePeriod: 30}})
	apply(b, 9.8, logObs("side", "c-side", false, true, logLine(9.213, "sigterm", "side got TERM")))
	got := boundsOf(find(t, b.Snapshot().Pods.At(0), "side", timeline.MSigterm, 0))
	want := bounds{Earliest: sec(9.2), At: sec(9.213), Latest: sec(9.213), Source: timeline.SourceKubelet}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("sidecar SIGTERM (-got +want):\n%s", diff)
	}
}
