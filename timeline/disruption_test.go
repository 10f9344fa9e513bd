package timeline_test

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// evictedPod is pod "a" (a sidecar and an app running) at one observation: with the
// DisruptionTarget condition of reason set at +5 s when disrupted, and asked to be deleted at
// +5 s (grace 30) when deleted.
func evictedPod(reason string, disrupted, deleted bool) *timeline.PodObservation {
	p := pod("a", running("proxy", timeline.KindSidecar, 1, true, "p1"), running("app", timeline.KindApp, 2, true, "a1"))
	if disrupted {
		p.Conditions = append(p.Conditions, timeline.Condition{Type: "DisruptionTarget", Status: "True",
			Reason: reason, Message: "Eviction API: evicting", LastTransition: sec(5)})
	}
	if deleted {
		d, grace := sec(35), int64(30)
		p.Deletion, p.DeletionGrace = &d, &grace
	}
	return p
}

// TestDisruptionBeforeDeletion: the Eviction API sets DisruptionTarget and then deletes the pod,
// both at +5.3 s. The pod watch lags: the condition arrives at +6.2 s and the deletion at
// +6.3 s, after the app's Killing Event (+5.5 s) had bounded the deletion to [5 s, 5.5 s]. The
// disruption had read 5.999 s, after the deletion it caused; it must read no later than it.
// The kubelet's own reason, TerminationByKubelet, deletes nothing and is left as the API said.
func TestDisruptionBeforeDeletion(t *testing.T) {
	for _, tc := range []struct {
		reason  string
		bounded bool
	}{{"EvictionByEvictionAPI", true}, {"DeletionByPodGC", true}, {"TerminationByKubelet", false}} {
		t.Run(tc.reason, func(t *testing.T) {
			b := timeline.NewBuilder()
			apply(b, 2.5, timeline.Observation{Type: timeline.Added, Pod: evictedPod(tc.reason, false, false)})
			apply(b, 5.5, timeline.Observation{Event: killing("a", "app", "containers", 5.4)})
			apply(b, 6.2, timeline.Observation{Pod: evictedPod(tc.reason, true, false)})
			apply(b, 6.3, timeline.Observation{Pod: evictedPod(tc.reason, true, true)})
			p := b.Snapshot().Pods.At(0)
			dis, del := p.Find("", timeline.MDisruption, 0), p.Find("", timeline.MDeleting, 0)
			if dis == nil || del == nil {
				t.Fatalf("disruption %v, deletion %v: want both", dis, del)
			}
			truth := sec(5.3)
			for _, m := range []*timeline.Milestone{dis, del} {
				if m.Earliest.After(truth) || m.Latest.Before(truth) {
					t.Errorf("%s [%s, %s] does not hold the truth %s", m.Kind, m.Earliest, m.Latest, truth)
				}
			}
			if got := !dis.At.After(del.At) && !dis.Latest.After(del.Latest); got != tc.bounded {
				t.Errorf("disruption at %s [..%s], deletion at %s [..%s]: bounded by it %v, want %v",
					dis.At, dis.Latest, del.At, del.Latest, got, tc.bounded)
			}
		})
	}
}

// TestDisruptionSeenAfterDeletion: a pod deleted by someone, then ended by the pod garbage
// collector, which sets the condition later: the condition says nothing of the deletion's order.
func TestDisruptionSeenAfterDeletion(t *testing.T) {
	b := timeline.NewBuilder()
	apply(b, 2.5, timeline.Observation{Type: timeline.Added, Pod: evictedPod("", false, false)})
	apply(b, 5.4, timeline.Observation{Pod: evictedPod("", false, true)})
	late := evictedPod("DeletionByPodGC", true, true)
	late.Conditions[len(late.Conditions)-1].LastTransition = sec(9)
	apply(b, 9.5, timeline.Observation{Pod: late})
	p := b.Snapshot().Pods.At(0)
	if dis := p.Find("", timeline.MDisruption, 0); dis == nil || dis.Earliest.Before(sec(9)) {
		t.Errorf("disruption %+v: want it left at +9 s, where the API put it", dis)
	}
}
