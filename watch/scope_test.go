package watch

import (
	"context"
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestLiveScope: a scope of all namespaces delivers every namespace's pods and their Events from
// one watch each, and says how many pods its first list held.
func TestLiveScope(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	other := testPod("web", "web-b-uid", "1", nil)
	other.Namespace = "b"
	c := newFakeCluster(testPod("web", "web-a-uid", "1", nil), other)
	l := startLive(t, ctx, c, Target{Kind: TargetScope}, LiveOptions{Recording: true}, "pods", "events")
	got := &collector{t: t, ctx: ctx, l: l}
	got.next(2)
	if n, ok := l.PodsListed(); !ok || n != 2 {
		t.Errorf("PodsListed() = %d, %v; want 2, true", n, ok)
	}
	ev := podEvent("web.1", "web", "web-b-uid")
	ev.Namespace = "b"
	create(t, ctx, c.CoreV1().Events("b").Create, ev)
	got.next(1)
	if got.got[2].Kind != "Event" || got.got[2].Type != timeline.Added {
		t.Errorf("the pod Event of another namespace: got %+v", got.got[2])
	}
}
