package timeline_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// oneApp is a pod with no sidecar: one regular container, no restartable init container.
func oneApp(p *timeline.PodObservation) bool {
	apps := 0
	for _, c := range p.Containers {
		switch c.Kind {
		case timeline.KindSidecar:
			return false
		case timeline.KindApp:
			apps++
		}
	}
	return apps <= 1
}

// TestHide: a pod Hide picks is counted from its first observation to its deletion, and nothing
// else of it or of its Events, before or after it, is kept: the other pods' snapshot is the one
// a Builder that never saw it gives.
func TestHide(t *testing.T) {
	shown := func() *timeline.PodObservation {
		p := pod("s", running("proxy", timeline.KindSidecar, 0.5, true, "c-s1"), running("app", timeline.KindApp, 1, true, "c-s2"))
		p.Name = "q"
		return p
	}
	hidden := pod("h", running("app", timeline.KindApp, 0, true, "c-h"))
	b, plain := timeline.NewBuilder(), timeline.NewBuilder()
	b.Hide(oneApp)
	steps := []struct {
		at     float64
		o      timeline.Observation
		hidden int
	}{
		{0.1, timeline.Observation{Event: killing("h", "app", "containers", 0.1)}, 0}, // before its pod
		{0.2, timeline.Observation{Type: timeline.Added, Pod: hidden}, 1},
		{0.3, timeline.Observation{Type: timeline.Added, Pod: shown()}, 1},
		{0.4, timeline.Observation{Event: killing("s", "app", "containers", 0.4)}, 1},
		{0.5, timeline.Observation{Event: killing("h", "app", "containers", 0.5)}, 1}, // after it
		{0.6, timeline.Observation{Pod: pod("h", exited("app", timeline.KindApp, 0, 0.6, 0, "c-h"))}, 1},
		{0.7, timeline.Observation{Type: timeline.Deleted, Pod: pod("h", exited("app", timeline.KindApp, 0, 0.6, 0, "c-h"))}, 0},
	}
	for i, st := range steps {
		apply(b, st.at, st.o)
		if p := st.o.Pod; (p != nil && p.UID == "s") || (st.o.Event != nil && st.o.Event.InvolvedUID == "s") {
			apply(plain, st.at, st.o)
		}
		got := b.Snapshot()
		if got.Hidden != st.hidden {
			t.Fatalf("step %d: Hidden %d, want %d", i, got.Hidden, st.hidden)
		}
		want := plain.Snapshot()
		if got.Pods.Len() != want.Pods.Len() || (i > 0 && len(got.Orphans) != 0) { // the first waits for its pod
			t.Fatalf("step %d: %d pods and %d orphaned Events, want %d and none", i, got.Pods.Len(), len(got.Orphans), want.Pods.Len())
		}
		for j := range got.Pods.Len() {
			if diff := cmp.Diff(jsonOf(t, want.Pods.At(j)), jsonOf(t, got.Pods.At(j))); diff != "" {
				t.Fatalf("step %d: pod %s differs from a Builder's that never saw the hidden one (-want +got):\n%s", i, got.Pods.At(j).Name, diff)
			}
		}
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
