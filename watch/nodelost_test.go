package watch_test

import (
	"os"
	"slices"
	"testing"

	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// nodeLost is a real recording (e2e cluster, Kubernetes v1.37, 2026-12-07) of a pod bound to a
// Node with no kubelet, its status written through pods/status as a kubelet would (s1 and app
// running and ready), then its Node deleted. For 49 s the API said nothing more of the pod; then
// the pod garbage collector marked it Failed with DisruptionTarget (DeletionByPodGC) in one
// update, its containers' statuses still running and Ready still True, and deleted it with no
// grace period.
const nodeLost = "testdata/node-lost.jsonl"

// TestNodeLostRecording: the timeline shows what the API told, in order, the disruption among
// it, and invents no exit or signal for containers nobody stopped.
func TestNodeLostRecording(t *testing.T) {
	f, err := os.Open(nodeLost)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, obs, _, err := recfile.ReadObservations(f, nodeLost)
	if err != nil {
		t.Fatal(err)
	}
	b := timeline.NewBuilder()
	for _, o := range obs {
		b.Apply(o)
	}
	s := b.Final()
	if s.Pods.Len() != 1 {
		t.Fatalf("%d pods", s.Pods.Len())
	}
	p := s.Pods.At(0)
	if p.Phase != "Failed" || !p.Deleted || p.Node != "h43-lost-node" {
		t.Errorf("pod phase %s, deleted %v, node %s: want Failed, deleted, h43-lost-node", p.Phase, p.Deleted, p.Node)
	}
	var row []timeline.MilestoneKind
	var disruption *timeline.Milestone
	for _, m := range p.Milestones.All() {
		row = append(row, m.Kind)
		if m.Kind == timeline.MDisruption {
			disruption = m
		}
	}
	want := []timeline.MilestoneKind{timeline.MCreated, timeline.MScheduled, timeline.MInitialized, timeline.MContainersReady,
		timeline.MReady, timeline.MDisruption, timeline.MPhase, timeline.MDeleting, timeline.MDeleted}
	if !slices.Equal(row, want) {
		t.Errorf("pod row %v, want %v", row, want)
	}
	if disruption == nil || disruption.Reason != "DeletionByPodGC" || disruption.Message != "PodGC: node no longer exists" {
		t.Errorf("disruption %+v: want the pod garbage collector's reason and message", disruption)
	}
	for _, c := range p.Containers {
		for _, r := range c.Runs.Items() {
			for _, m := range r.Milestones {
				if m.Kind == timeline.MExit || m.Kind == timeline.MSigterm || m.Kind == timeline.MPreStop {
					t.Errorf("%s: %s at %s, which the API never told", c.Name, m.Kind, m.At)
				}
			}
		}
	}
}
