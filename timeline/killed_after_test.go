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
// on it. Of a sidecar, which the kubelet kills when the pod's grace runs out, not its own, and of
// an app killed with no deletion (a failed liveness probe, whose grace may be the probe's own),
// the estimate stays.
func TestKilledAfterTheGraceGiven(t *testing.T) {
	for _, tc := range []struct {
		kind    timeline.ContainerKind
		deleted bool
		want    string
	}{{timeline.KindApp, true, "3s later"}, {timeline.KindSidecar, true, "4s later"}, {timeline.KindApp, false, "4s later"}} {
		b := timeline.NewBuilder()
		up := pod("a", running("app", tc.kind, 1.68, true, "2"))
		up.GracePeriod = 3
		apply(b, 1.9, timeline.Observation{Type: timeline.Added, Pod: up})
		d, grace := sec(5.96), int64(3)
		if tc.deleted {
			del := pod("a", up.Containers...)
			del.GracePeriod, del.Deletion, del.DeletionGrace = 3, &d, &grace
			apply(b, 2.96, timeline.Observation{Pod: del})
		}
		apply(b, 3.1, timeline.Observation{Event: killing("a", "app", "containers", 2.96)})
		done := pod("a", exited("app", tc.kind, 1.68, 6, 137, "2"))
		done.GracePeriod, done.Phase = 3, "Failed"
		if tc.deleted {
			done.Deletion, done.DeletionGrace = &d, &grace
		}
		apply(b, 6.93, timeline.Observation{Pod: done})
		var text string
		for _, f := range b.Snapshot().Pods.At(0).Findings() {
			if f.ID == timeline.FindingKilledAfterGrace {
				text = f.Text
			}
		}
		if !strings.Contains(text, tc.want) {
			t.Errorf("%s, deleted %v: killed-after-grace says %q, want %q", tc.kind, tc.deleted, text, tc.want)
		}
	}
}
