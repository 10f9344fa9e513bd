package timeline_test

import (
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestLogEvidence: a run's log bounds its start (before the first line) and its exit (after the
// last, less the stamping delay); a marked line refines the milestone it is named after or is a
// milestone of its own; the kubelet's own log places a SIGTERM.
func TestLogEvidence(t *testing.T) {
	b := timeline.NewBuilder()
	side := running("side", timeline.KindSidecar, 1, true, "c-side")
	app := running("app", timeline.KindApp, 2, true, "c-app")
	apply(b, 2.7, timeline.Observation{Type: timeline.Added, Pod: pod("a", side, app)})
	line := func(s float64, mark, text string) timeline.LogLine {
		return timeline.LogLine{At: sec(s), Len: len(text), Mark: mark, Text: text}
	}
	apply(b, 3.0, timeline.Observation{Log: &timeline.LogObservation{Namespace: "ns", Pod: "p", PodUID: "a",
		Container: "app", ContainerID: "c-app", FromStart: true, Lines: []timeline.LogLine{
			line(2.412, "", ""), line(2.5, "listening", "listening on :8080"), line(2.6, "", "")}}})
	apply(b, 9.0, timeline.Observation{Log: &timeline.LogObservation{Namespace: "ns", Pod: "p", PodUID: "a",
		Container: "app", ContainerID: "c-app", Lines: []timeline.LogLine{
			line(8.31, "sigterm", "caught SIGTERM"), line(8.95, "", "bye")}, End: true}})
	apply(b, 8.3, timeline.Observation{Event: killing("a", "app", "containers", 8.3)})
	apply(b, 9.6, timeline.Observation{Pod: pod("a", side, exited("app", timeline.KindApp, 2, 8, 0, "c-app"))})
	apply(b, 9.7, timeline.Observation{Kubelet: &timeline.KubeletObservation{Node: "n", At: sec(9.2), Namespace: "ns",
		Pod: "p", PodUID: "a", Container: "side", ContainerID: "c-side", GracePeriod: 21}})
	p := b.Snapshot().Pods[0]

	start := find(t, p, "app", timeline.MStart, 0)
	if !start.Latest.Equal(sec(2.412)) {
		t.Errorf("app start latest %s, want the first line's stamp %s", start.Latest, sec(2.412))
	}
	mark := find(t, p, "app", timeline.MilestoneKind("listening"), 0)
	if mark.Source != timeline.SourceLog || !mark.At.Equal(sec(2.5)) || mark.Message != "listening on :8080" {
		t.Errorf("mark: %+v", mark)
	}
	sig := find(t, p, "app", timeline.MSigterm, 0)
	if !sig.Latest.Equal(sec(8.31)) || sig.At.After(sig.Latest) || sig.At.Before(sig.Earliest) {
		t.Errorf("app SIGTERM [%s, %s] at %s, want latest the marked line's stamp", sig.Earliest, sig.Latest, sig.At)
	}
	exit := find(t, p, "app", timeline.MExit, 0)
	if want := sec(8.95).Add(-100 * time.Millisecond); !exit.Earliest.Equal(want) {
		t.Errorf("app exit earliest %s, want the last line less 100 ms %s", exit.Earliest, want)
	}
	if exit.Latest.After(sec(9.0)) {
		t.Errorf("app exit latest %s, want no later than when the log stream ended %s", exit.Latest, sec(9.0))
	}
	sideSig := find(t, p, "side", timeline.MSigterm, 0)
	if sideSig.Source != timeline.SourceKubelet || !sideSig.Earliest.Equal(sec(9.2)) {
		t.Errorf("sidecar SIGTERM from the kubelet's log: %+v", sideSig)
	}
	c := p.Container("app")
	if l := c.Run(0).Log; l == nil || l.Lines != 5 || !l.First.Equal(sec(2.412)) || l.PerSecond.Len() != 2 {
		t.Errorf("run log %+v", l)
	}
}
