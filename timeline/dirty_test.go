package timeline_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestStartImpliesEndOfRunBefore: a run whose status never showed it end (the kubelet restarted
// it between two updates, with no lastState) ends before the next run started, with no Event to
// say so. The next run's start, seen first, must have the run before derived again even when a
// snapshot was taken in between: a start marks the run before only to check its Started Events
// when the status showed that run end (touchStart), and this one's did not.
func TestStartImpliesEndOfRunBefore(t *testing.T) {
	first := running("s1", timeline.KindSidecar, 1, true, "c1")
	again := running("s1", timeline.KindSidecar, 9, true, "c2")
	again.Status.RestartCount = 1
	app := running("app", timeline.KindApp, 2, true, "a1")
	obs := []struct {
		at float64
		o  timeline.Observation
	}{
		{1.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", first, app)}},
		{3, timeline.Observation{Pod: pod("a", first, app)}},
		{9.4, timeline.Observation{Pod: pod("a", again, app)}},
	}
	once, each := timeline.NewBuilder(), timeline.NewBuilder()
	for _, o := range obs {
		apply(once, o.at, o.o)
		apply(each, o.at, o.o)
		_ = each.Snapshot()
	}
	p := each.Snapshot().Pods.At(0)
	exit, restart := find(t, p, "s1", timeline.MExit, 0), find(t, p, "s1", timeline.MRestart, 1)
	if exit.Source != timeline.SourceInferred || exit.Latest.After(restart.Latest) {
		t.Errorf("run 0's exit %s, latest %s: want inferred, no later than run 1's start (latest %s)", exit.Source,
			exit.Latest.Sub(t0), restart.Latest.Sub(t0))
	}
	if diff := cmp.Diff(dump(once.Snapshot()), dump(each.Snapshot())); diff != "" {
		t.Errorf("a snapshot per observation differs from one at the end (-once +each):\n%s", diff)
	}
}
