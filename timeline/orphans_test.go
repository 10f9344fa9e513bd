package timeline_test

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestOrphanEvents: an Event about a pod not seen yet is listed as an orphan, each occurrence
// once (an update with the same count adds none), until its pod arrives: then its occurrences
// are the pod's, and no orphan is left. An Event whose pod is known goes to the pod at once.
func TestOrphanEvents(t *testing.T) {
	b := timeline.NewBuilder()
	ev := killing("a", "app", "containers", 0.9)
	apply(b, 1.0, timeline.Observation{Event: ev})
	again := *ev // the same occurrence seen again
	apply(b, 1.1, timeline.Observation{Event: &again})
	repeat := *ev
	repeat.Count, repeat.Last, repeat.NameTime = 2, sec(2), sec(2)
	apply(b, 2.1, timeline.Observation{Event: &repeat})
	s := b.Snapshot()
	if len(s.Orphans) != 2 || s.Orphans[0].Count != 1 || s.Orphans[1].Count != 2 {
		t.Fatalf("orphans before the pod: %+v, want counts 1 and 2", s.Orphans)
	}
	apply(b, 3, timeline.Observation{Type: timeline.Added, Pod: pod("a", running("app", timeline.KindApp, 0, true, "c1"))})
	s = b.Snapshot()
	if len(s.Orphans) != 0 {
		t.Errorf("orphans after the pod: %+v", s.Orphans)
	}
	if got := s.Pods.At(0).Events.Len(); got != 2 {
		t.Errorf("the pod has %d Events, want its 2", got)
	}
	later := killing("a", "side", "initContainers", 4)
	apply(b, 4.1, timeline.Observation{Event: later})
	s = b.Final()
	if len(s.Orphans) != 0 || s.Pods.At(0).Events.Len() != 3 {
		t.Errorf("at the end: %d orphans, the pod's Events %d, want 0 and 3", len(s.Orphans), s.Pods.At(0).Events.Len())
	}
	if n := len(s.Events()); n != 3 {
		t.Errorf("%d Events listed, want 3", n)
	}
}
