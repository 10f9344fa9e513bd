package agent

import (
	"strings"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// final reports whether a pod's timeline will not change in what the agent observes: the pod
// was deleted and is gone, or its phase is terminal and no container of it still runs (a
// container that never ran, as an app behind a failed init container, has nothing to wait for).
func final(p *timeline.Pod) bool {
	if p.Deleted {
		return true
	}
	if p.Phase != "Succeeded" && p.Phase != "Failed" {
		return false
	}
	for i := range p.Containers {
		switch laneState(&p.Containers[i]) {
		case timeline.StateRunning, timeline.StateStarted, timeline.StateReady, timeline.StateTerminating:
			return false
		}
	}
	return true
}

// laneState is the state a container's lane is in now: its last run's last change.
func laneState(c *timeline.Container) timeline.LaneState {
	if c.Runs.Len() == 0 {
		return timeline.StatePending
	}
	r := c.Runs.At(c.Runs.Len() - 1)
	if len(r.Changes) == 0 {
		return timeline.StatePending
	}
	return r.Changes[len(r.Changes)-1].State
}

// roleOf is the role label of a gap's end: its container's kind (sidecar, app, init), or
// "pod" for a pod-level milestone.
func roleOf(p *timeline.Pod, ref timeline.MilestoneRef) string {
	if ref.Container == "" {
		return "pod"
	}
	for i := range p.Containers {
		if p.Containers[i].Name == ref.Container {
			return valid(string(p.Containers[i].Kind))
		}
	}
	return "pod"
}

// gapLabel is a gap's name as the gap label writes it: its arrow in ASCII ("->").
func gapLabel(name string) string { return strings.ReplaceAll(name, "→", "->") }
