package timeline_test

import (
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestDeletionFirstSeenWithNoGraceLeft: a watch that starts after the kubelet confirmed a
// deletion (a finalizer holds the pod; the API server rewrote deletionTimestamp to the
// confirmation, grace 0) cannot tell when the deletion was asked. The deletion's bounds reach
// back to the pod's creation, so the gap to the last exit holds the truth: asked at +8 s, the
// app exited at +11 s, confirmed at +12 s. It had been placed at +12 s: 0s [0s, 1s].
func TestDeletionFirstSeenWithNoGraceLeft(t *testing.T) {
	p := endingPod("Always", "Succeeded", "", exited("proxy", timeline.KindSidecar, 1, 11, 0, "p1"),
		exited("setup", timeline.KindInit, 2, 3, 0, "s1"), exited("app", timeline.KindApp, 4, 11, 0, "a1"))
	d, grace := sec(12), int64(0)
	p.Deletion, p.DeletionGrace = &d, &grace
	b := timeline.NewBuilder()
	apply(b, 20, timeline.Observation{Type: timeline.Added, Pod: p})
	pod := b.Final().Pods.At(0)
	del := pod.Find("", timeline.MDeleting, 0)
	if del == nil {
		t.Fatalf("no deletion milestone")
	}
	asked := sec(8)
	if del.Earliest.After(asked) || del.Latest.Before(asked) {
		t.Errorf("deletion bounds [%s, %s], want them to hold when it was asked, %s", del.Earliest, del.Latest, asked)
	}
	for _, g := range pod.Gaps {
		if g.From.Kind == timeline.MDeleting && g.To.Kind == timeline.MExit {
			if truth := 3 * time.Second; g.Span.Min > truth || g.Span.Max < truth {
				t.Errorf("gap %s: [%v, %v], want it to hold %v", g.Name, g.Span.Min, g.Span.Max, truth)
			}
		}
	}
}
