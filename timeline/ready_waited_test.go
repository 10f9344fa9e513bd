package timeline_test

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestReadyWaitedOnlyWhenKnown: "Pod Ready waited for sidecar" is said only when every other
// lane was certainly ready before the Pod, and sidecar-raced only when the app certainly
// started before the sidecar was ready. A pod listed after it became ready has each lane's
// ready bounded by the list alone, so which lane came last is not known and the finding is not
// said (it used to follow whichever lane's estimate came out last, and changed between runs of a
// fleet); a pod seen becoming ready with its app ready well before still has it.
func TestReadyWaitedOnlyWhenKnown(t *testing.T) {
	mk := func(sideReady bool, podReady string, lt float64) *timeline.PodObservation {
		p := pod("a", running("side", timeline.KindSidecar, 1, sideReady, "1"), running("app", timeline.KindApp, 2, true, "2"))
		p.Conditions = []timeline.Condition{{Type: "Ready", Status: podReady, LastTransition: sec(lt)}}
		return p
	}
	const finding, raced = "Pod Ready waited for sidecar `side`", "started 1.0s after sidecar `side`, before it was ready"
	listed := timeline.NewBuilder()
	apply(listed, 30.1, timeline.Observation{Type: timeline.Added, Pod: mk(true, "True", 3)})
	if p := listed.Snapshot().Pods.At(0); hasFinding(p.Findings(), finding) || hasFinding(p.Findings(), raced) {
		t.Errorf("a pod listed after it became ready: %+v", p.Findings())
	}
	// Seen: the app ready by 3.1, the Pod Ready at 8: the sidecar held it.
	seen := timeline.NewBuilder()
	apply(seen, 3.1, timeline.Observation{Type: timeline.Added, Pod: mk(false, "False", 0)})
	apply(seen, 8.1, timeline.Observation{Pod: mk(true, "True", 8)})
	if p := seen.Snapshot().Pods.At(0); !hasFinding(p.Findings(), finding) || !hasFinding(p.Findings(), raced) {
		t.Errorf("a pod seen waiting for its sidecar: %+v", p.Findings())
	}
	// Seen, but the app's ready may have come within a second of the Pod's: not known.
	near := timeline.NewBuilder()
	apply(near, 3.1, timeline.Observation{Type: timeline.Added, Pod: mk(false, "False", 0)})
	apply(near, 4.5, timeline.Observation{Pod: mk(true, "True", 4)})
	if p := near.Snapshot().Pods.At(0); hasFinding(p.Findings(), finding) {
		t.Errorf("the app ready by 3.1, the Pod at 4: %+v", p.Findings())
	}
}

// TestRacedNotBeforeTheSidecar: statuses and Events that put the app's start before its
// sidecar's (no kubelet does that; the scale benchmark's Events, stamped an hour before the pods,
// did) are no race: the finding said "`app` started -3462.7s after sidecar".
func TestRacedNotBeforeTheSidecar(t *testing.T) {
	side := running("proxy", timeline.KindSidecar, 5, false, "1")
	app := running("app", timeline.KindApp, 1, true, "2")
	p := snapshotOf(timeline.Observation{Type: timeline.Added, Pod: pod("a", side, app), Received: sec(6.5)})
	if hasFinding(p.Findings(), "with no startupProbe the kubelet starts the next container") {
		t.Errorf("a race of an app that started before its sidecar: %+v", p.Findings())
	}
}

// TestReadyNotWaitedForALongReadySidecar: a Pod's Ready that comes again while every lane has
// been ready for minutes waited for none of them (the node lifecycle controller marks the pods
// of a node it lost not Ready, their containers still ready, and they are Ready again with the
// node). The tie between lanes ready at the same estimate went to the first lane, a sidecar,
// and the finding said the Pod's Ready waited for a sidecar ready 18 minutes before it (1,071
// of 20,000 pods of the scale benchmark, whose churn then wrote a new lastTransitionTime with
// the same status). A sidecar that became ready within a second of a Pod's later Ready still
// held it.
func TestReadyNotWaitedForALongReadySidecar(t *testing.T) {
	mk := func(sideReady bool, podReady string, lt float64) *timeline.PodObservation {
		p := pod("a", running("side", timeline.KindSidecar, 1, sideReady, "1"), running("app", timeline.KindApp, 2, true, "2"))
		p.Conditions = []timeline.Condition{{Type: "Ready", Status: podReady, LastTransition: sec(lt)}}
		return p
	}
	const finding = "Pod Ready waited for sidecar `side`"
	restamped := timeline.NewBuilder()
	apply(restamped, 3.5, timeline.Observation{Type: timeline.Added, Pod: mk(true, "True", 3)})
	apply(restamped, 1100.5, timeline.Observation{Pod: mk(true, "True", 1100)})
	if p := restamped.Snapshot().Pods.At(0); hasFinding(p.Findings(), finding) {
		t.Errorf("every lane ready at 3, the Pod's Ready stamped again at 1100: %+v", p.Findings())
	}
	again := timeline.NewBuilder()
	apply(again, 3.5, timeline.Observation{Type: timeline.Added, Pod: mk(true, "True", 3)})
	apply(again, 600.5, timeline.Observation{Pod: mk(false, "False", 600)})
	apply(again, 1100.5, timeline.Observation{Pod: mk(true, "True", 1100)})
	if p := again.Snapshot().Pods.At(0); !hasFinding(p.Findings(), finding) {
		t.Errorf("the sidecar not ready from 600 to 1100, the Pod Ready with it at 1100: %+v", p.Findings())
	}
}
