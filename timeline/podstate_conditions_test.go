package timeline

import (
	"testing"
	"time"
)

// TestConditionsKept: of a pod's conditions the builder keeps Ready's changes and when
// PodScheduled, Initialized, ContainersReady and DisruptionTarget first became True, nothing of
// the others; a pod whose readiness changes 101 times keeps those and four more, and its pod row shows
// ContainersReady from the snapshot after it first became True.
func TestConditionsKept(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	b := NewBuilder()
	status := func(ok bool) string {
		if ok {
			return "True"
		}
		return "False"
	}
	for i := range 101 {
		at := t0.Add(time.Duration(i) * 10 * time.Second)
		ready := i%2 == 1
		p := &PodObservation{UID: "u", Namespace: "ns", Name: "p", Created: t0, Phase: "Running", Conditions: []Condition{
			{Type: "PodReadyToStartContainers", Status: status(ready), LastTransition: at},
			{Type: "PodScheduled", Status: "True", LastTransition: t0},
			{Type: "Initialized", Status: "True", LastTransition: t0},
			{Type: "ContainersReady", Status: status(ready), LastTransition: at},
			{Type: "Ready", Status: status(ready), LastTransition: at},
			{Type: "DisruptionTarget", Status: status(!ready), LastTransition: at},
		}}
		b.Apply(Observation{Received: at.Add(time.Second), Type: Modified, Pod: p})
		s := b.Snapshot()
		hasCR := FindIn(s.Pods.At(0).Milestones, MContainersReady, 0) != nil
		if want := i >= 1; hasCR != want {
			t.Fatalf("after update %d: ContainersReady in the pod row %v, want %v", i, hasCR, want)
		}
	}
	ps := b.pods["u"]
	counts := map[string]int{}
	for i := range ps.conditions.len() {
		counts[ps.conditions.at(i).Type]++
	}
	want := map[string]int{"Ready": 101, "PodScheduled": 1, "Initialized": 1, "ContainersReady": 1, "DisruptionTarget": 1}
	for typ, n := range want {
		if counts[typ] != n {
			t.Errorf("%s: %d kept, want %d", typ, counts[typ], n)
		}
	}
	if len(counts) != len(want) {
		t.Errorf("kept %v, want only %v", counts, want)
	}
}

// TestConditionWhat: the constants name what the general form would.
func TestConditionWhat(t *testing.T) {
	for _, typ := range []string{"Ready", "PodScheduled", "Initialized", "ContainersReady", "PodReadyToStartContainers", ""} {
		for _, status := range []string{"True", "False", "Unknown"} {
			if got, want := conditionWhat(typ, status), "condition "+typ+"="+status+" lastTransitionTime"; got != want {
				t.Errorf("conditionWhat(%q, %q) = %q, want %q", typ, status, got, want)
			}
		}
	}
}
