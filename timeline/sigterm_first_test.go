package timeline_test

import (
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestSidecarSignalledBeforeAppExitWhy: a delete gives 3 s; the app ignores SIGTERM and is
// killed when they run out, and the kubelet's wait for s1's turn runs out with them, a little
// before (seen in CI's TestDeleteGraceOverride: s1 SIGTERM 0.11 s before the app's exit). The
// gap app exit → s1 SIGTERM is then below zero, and its why must not say the sidecar is
// signalled only after the app exited: it names the grace period that ended the wait.
func TestSidecarSignalledBeforeAppExitWhy(t *testing.T) {
	b := timeline.NewBuilder()
	up := pod("a", running("s1", timeline.KindSidecar, 0.7, true, "1"), running("app", timeline.KindApp, 0.8, true, "2"))
	apply(b, 1, timeline.Observation{Type: timeline.Added, Pod: up})
	del := pod("a", up.Containers...)
	d, grace := sec(4), int64(3)
	del.Deletion, del.DeletionGrace = &d, &grace
	apply(b, 1.01, timeline.Observation{Pod: del})
	apply(b, 1.1, timeline.Observation{Event: killing("a", "app", "containers", 1.05)})
	apply(b, 1.1, timeline.Observation{Event: killing("a", "s1", "initContainers", 1.05)})
	s1Done := pod("a", exited("s1", timeline.KindSidecar, 0.7, 4.05, 0, "1"), up.Containers[1])
	s1Done.Deletion, s1Done.DeletionGrace = &d, &grace
	apply(b, 4.2, timeline.Observation{Pod: s1Done})
	done := pod("a", s1Done.Containers[0], exited("app", timeline.KindApp, 0.8, 5.15, 137, "2"))
	done.Deletion, done.DeletionGrace, done.Phase = &d, &grace, "Failed"
	apply(b, 5.3, timeline.Observation{Pod: done})
	p := b.Snapshot().Pods.At(0)
	for _, g := range p.Gaps {
		if g.Name != "app exit → s1 SIGTERM" {
			continue
		}
		if g.Span.Value >= 0 {
			t.Fatalf("gap %s %+v: want it below zero, as the exits say", g.Name, g.Span)
		}
		if strings.Contains(g.Why, "only after") || !strings.Contains(g.Why, "3s") {
			t.Errorf("gap %s below zero says %q: want the grace period (3s) that ended the sidecar's wait", g.Name, g.Why)
		}
		return
	}
	t.Errorf("no gap app exit → s1 SIGTERM in %+v", p.Gaps)
}
