package play

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// podAs is recording()'s pod as the pod uid, its times off seconds later, up to its n-th
// observation (all of them when n is 0).
func podAs(uid string, off float64, n int) []timeline.Observation {
	obs := recording()
	if n > 0 {
		obs = obs[:n]
	}
	d := time.Duration(off * float64(time.Second))
	for i := range obs {
		p := *obs[i].Pod
		p.UID, p.Name, p.Created = uid, uid, p.Created.Add(d)
		obs[i].Pod, obs[i].Received = &p, obs[i].Received.Add(d)
	}
	return obs
}

// eventAbout is a kubelet Event about the pod uid, received at s.
func eventAbout(uid string, s float64) timeline.Observation {
	return timeline.Observation{Received: at(s), Type: timeline.Added, Event: &timeline.EventObservation{
		UID: "ev-" + uid, Namespace: "ns", Name: uid + ".1", InvolvedKind: "Pod", InvolvedUID: uid, InvolvedName: uid,
		FieldPath: "spec.containers{app}", Container: "app", ContainerKind: timeline.KindApp, Type: "Normal",
		Reason: "Killing", Message: "Stopping container app", Count: 1, First: at(s), Last: at(s)}}
}

// uidsOf is the UIDs of s's pods.
func uidsOf(s timeline.Snapshot) []string {
	var uids []string
	for _, p := range s.Pods.Items() {
		uids = append(uids, p.UID)
	}
	return uids
}

// TestRetain: of three pods, one Succeeded (final at +9.4s), one deleted (+10s) and one still
// running, a run that keeps final pods 60 s lets go of the first two 60 s after it saw them
// final, keeps the running one and the one in focus, counts the Succeeded one in Forgotten
// until the API deletes it, and applies nothing that comes later about either: the snapshot is
// the one of a run that never saw them.
func TestRetain(t *testing.T) {
	keep := time.Minute
	var obs []timeline.Observation
	obs = append(obs, podAs("done", 0, 7)...)
	obs = append(obs, podAs("gone", 0, 0)...)
	obs = append(obs, podAs("open", 0, 5)...)
	obs = append(obs, podAs("opened", 0, 7)...)
	slices.SortStableFunc(obs, func(a, b timeline.Observation) int { return a.Received.Compare(b.Received) })
	e := NewEngine()
	e.Retain(keep)
	for _, o := range obs {
		e.Add(&held{}, Input{Translated: true, IsObs: true, Obs: o})
	}
	e.FinishedIn(e.Snapshot(), at(10))
	if got := e.Sweep(at(69.9), "opened"); len(got) != 0 {
		t.Errorf("let go of %v before 60 s", got)
	}
	if got := e.Sweep(at(70), "opened"); !cmp.Equal(got, []string{"done", "gone"}) {
		t.Errorf("let go of %v at +70s, want done and gone", got)
	}
	// What the API still says of them: a relist of the Succeeded pod, a late Event of each.
	late := []timeline.Observation{podAs("done", 61, 7)[6], eventAbout("done", 71), eventAbout("gone", 72)}
	for _, o := range late {
		e.Add(&held{}, Input{Translated: true, IsObs: true, Obs: o})
	}
	s := e.Snapshot()
	if got := uidsOf(s); !cmp.Equal(got, []string{"open", "opened"}) {
		t.Errorf("kept %v, want open and opened", got)
	}
	if s.Forgotten != 1 {
		t.Errorf("Forgotten %d, want 1 (the Succeeded pod the API still has)", s.Forgotten)
	}
	// The snapshot is the one of a run that never saw done or gone.
	ref := NewEngine()
	for _, o := range obs {
		if o.Pod.UID == "open" || o.Pod.UID == "opened" {
			ref.Apply(o)
		}
	}
	if diff := cmp.Diff(uidsOf(ref.Snapshot()), uidsOf(s)); diff != "" {
		t.Errorf("pods differ from a run that never saw them (-never +forgot):\n%s", diff)
	}
	for i := range s.Pods.Len() {
		if s.Pods.At(i).Events.Len() != 0 {
			t.Errorf("%s holds %d Events: a late one was applied", s.Pods.At(i).UID, s.Pods.At(i).Events.Len())
		}
	}
	// The API deletes the Succeeded pod: it is no longer counted, and nothing comes back.
	del := podAs("done", 80, 0)[7]
	e.Add(&held{}, Input{Translated: true, IsObs: true, Obs: del})
	if s := e.Snapshot(); s.Forgotten != 0 || len(uidsOf(s)) != 2 {
		t.Errorf("after the deletion: Forgotten %d, pods %v; want 0 and open, opened", s.Forgotten, uidsOf(s))
	}
	// The one in focus was kept another 60 s from when it was passed over.
	if got := e.Sweep(at(129.9)); len(got) != 0 {
		t.Errorf("let go of %v before 60 s more", got)
	}
	if got := e.Sweep(at(130)); !cmp.Equal(got, []string{"opened"}) {
		t.Errorf("let go of %v once closed, want opened", got)
	}
}

// TestRunLiveKeepFinished: a live run with KeepFinished lets go of a final pod that long after
// it saw it final by its clock, though nothing more comes, and its frames say so.
func TestRunLiveKeepFinished(t *testing.T) {
	keep := 30 * time.Second
	obs := append(podAs("done", 0, 7), podAs("later", 40, 2)...)
	src := &held{obs: obs}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	clock := at(0)
	tick := func() time.Time { clock = clock.Add(20 * time.Second); return clock } // 20 s a frame
	var last Frame
	res, err := RunLive(ctx, src, Options{KeepFinished: &keep, Now: tick, Frame: time.Millisecond,
		Until: func(s timeline.Snapshot) bool { return s.Forgotten == 1 }}, func(f Frame) { last = f })
	if err != nil {
		t.Fatal(err)
	}
	if !res.Met {
		t.Fatalf("the run never let go of the final pod; last frame's pods %v", uidsOf(last.Snapshot))
	}
	if got := uidsOf(res.Final); !cmp.Equal(got, []string{"later"}) {
		t.Errorf("pods %v at the end, want later only", got)
	}
}
