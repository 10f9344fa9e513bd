package watch

import (
	"context"
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestLiveScope: a scope of all namespaces delivers every namespace's pods and their Events from
// one watch each, and says when both first lists are in (a Listed note, after what they held).
func TestLiveScope(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	other := testPod("web", "web-b-uid", "1", nil)
	other.Namespace = "b"
	c := newFakeCluster(testPod("web", "web-a-uid", "1", nil), other)
	l := startLive(t, ctx, c, Target{Kind: TargetScope}, LiveOptions{Recording: true}, "pods", "events")
	got := &collector{t: t, ctx: ctx, l: l}
	for len(got.got) < 3 {
		it, err := l.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := it.Object.(*Note); ok {
			if n.Reason != Listed || len(got.got) != 2 {
				t.Fatalf("note %q after %d items, want Listed after both pods", n.Reason, len(got.got))
			}
			got.got = append(got.got, seen{Kind: "Listed"})
			continue
		}
		got.got = append(got.got, see(it))
	}
	ev := podEvent("web.1", "web", "web-b-uid")
	ev.Namespace = "b"
	create(t, ctx, c.CoreV1().Events("b").Create, ev)
	got.next(1)
	if got.got[3].Kind != "Event" || got.got[3].Type != timeline.Added {
		t.Errorf("the pod Event of another namespace: got %+v", got.got[3])
	}
}
