package timeline_test

import (
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestKilledAfterTheGraceGiven: an app deleted with a 3 s grace, signalled at +2.96 (its
// Killing Event) and killed when the grace ran out, its exit stamped in whole seconds (+6,
// seen at +6.93): the finding says 3s, the grace the kubelet gave, which the bounds allow. From
// the estimates alone (3.5 s) it said "4s later", and make test's TestDeleteGraceOverride failed
// on it. Of a sidecar, which the kubelet kills when the pod's grace runs out, not its own, the
// estimate stays.
func TestKilledAfterTheGraceGiven(t *testing.T) {
	for _, tc := range []struct {
		kind timeline.ContainerKind
		want string
	}{{timeline.KindApp, "3s later"}, {timeline.KindSidecar, "4s later"}} {
		b := timeline.NewBuilder()
		up := pod("a", running("app", tc.kind, 1.68, true, "2"))
		apply(b, 1.9, timeline.Observation{Type: timeline.Added, Pod: up})
		del := pod("a", up.Containers...)
		d, grace := sec(5.96), int64(3)
		del.Deletion, del.DeletionGrace = &d, &grace
		apply(b, 2.96, timeline.Observation{Pod: del})
		apply(b, 3.1, timeline.Observation{Event: killing("a", "app", "containers", 2.96)})
		done := pod("a", exited("app", tc.kind, 1.68, 6, 137, "2"))
		done.Deletion, done.DeletionGrace, done.Phase = &d, &grace, "Failed"
		apply(b, 6.93, timeline.Observation{Pod: done})
		var text string
		for _, f := range b.Snapshot().Pods.At(0).Findings() {
			if f.ID == timeline.FindingKilledAfterGrace {
				text = f.Text
			}
		}
		if !strings.Contains(text, tc.want) {
			t.Errorf("%s: killed-after-grace says %q, want %q", tc.kind, text, tc.want)
		}
	}
}
