package timeline

import (
	"runtime"
	"testing"
	"time"
	"weak"
)

// TestFinalLetsFactsGo: once Final has derived a pod, nothing the Builder keeps reaches what it
// kept of that pod (its observations, conditions, lanes and Events), so the collector can take it
// while the pods after it are derived.
func TestFinalLetsFactsGo(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	b := NewBuilder()
	var states []weak.Pointer[podState]
	for i, uid := range []string{"a", "b", "c"} {
		p := &PodObservation{UID: uid, Namespace: "ns", Name: "p-" + uid, Created: t0, Phase: "Running",
			Conditions: []Condition{{Type: "Ready", Status: "True", LastTransition: t0}},
			Containers: []ContainerObservation{{Name: "app", Kind: KindApp, Status: &ContainerStatus{
				ContainerID: "c-" + uid, Ready: true, Running: &Running{ContainerID: "c-" + uid, StartedAt: t0}}}}}
		b.Apply(Observation{Received: t0.Add(time.Duration(i) * time.Second), Type: Added, Pod: p})
		b.Apply(Observation{Received: t0.Add(time.Duration(i) * time.Second), Type: Added, Event: &EventObservation{
			UID: "e-" + uid, Namespace: "ns", Name: "e-" + uid, InvolvedKind: "Pod", InvolvedName: "p-" + uid,
			InvolvedUID: uid, FieldPath: "spec.containers{app}", Container: "app", ContainerKind: KindApp,
			Reason: "Started", Count: 1, First: t0, Last: t0}})
		states = append(states, weak.Make(b.pods[uid]))
	}
	b.Snapshot() // what a snapshot before derived is let go of too
	b.Apply(Observation{Received: t0.Add(time.Minute), Type: Modified, Pod: &PodObservation{UID: "c",
		Namespace: "ns", Name: "p-c", Created: t0, Phase: "Succeeded"}})
	// While Final goes on deriving the pods after it, a pod's facts are already out of reach.
	derived := 0
	testHookFinalPod = func(i int) {
		derived++
		runtime.GC()
		if states[i].Value() != nil {
			t.Errorf("pod %d: its facts are still reachable once Final has derived it", i)
		}
	}
	defer func() { testHookFinalPod = nil }()
	s := b.Final()
	if derived != 3 {
		t.Errorf("Final let go of %d pods, want 3", derived)
	}
	if s.Pods.Len() != 3 || s.Pods.At(0).Container("app") == nil || s.Pods.At(2).Phase != "Succeeded" {
		t.Fatalf("Final: %d pods, want 3 with their lanes", s.Pods.Len())
	}
	runtime.KeepAlive(b)
}

// TestStreamLetsFactsGo: once a Stream has handed a pod out, nothing it or the Builder keeps
// reaches that pod's facts, nor the pod: a stream holds neither the pods nor their facts.
func TestStreamLetsFactsGo(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	b := NewBuilder()
	var states []weak.Pointer[podState]
	for i, uid := range []string{"a", "b", "c"} {
		p := &PodObservation{UID: uid, Namespace: "ns", Name: "p-" + uid, Created: t0, Phase: "Running",
			OwnerKind: "Job", OwnerName: "j", OwnerUID: "j",
			Containers: []ContainerObservation{{Name: "app", Kind: KindApp, Status: &ContainerStatus{
				ContainerID: "c-" + uid, Running: &Running{ContainerID: "c-" + uid, StartedAt: t0}}}}}
		b.Apply(Observation{Received: t0.Add(time.Duration(i) * time.Second), Type: Added, Pod: p})
		states = append(states, weak.Make(b.pods[uid]))
	}
	st := b.Stream()
	var pods []weak.Pointer[Pod]
	for i := range st.Len() {
		p := st.Pod(i)
		if p.Container("app") == nil {
			t.Fatalf("pod %d: no lane", i)
		}
		pods = append(pods, weak.Make(p))
		runtime.GC()
		if states[i].Value() != nil {
			t.Errorf("pod %d: its facts are still reachable once the stream has handed it out", i)
		}
		if pods[i].Value() != nil {
			t.Errorf("pod %d: still reachable once handed out", i)
		}
	}
	if len(pods) != 3 {
		t.Fatalf("%d pods, want 3", len(pods))
	}
	runtime.KeepAlive(st)
}
