package agent

import (
	"strings"

	"github.com/sidecar-top/sidecar-top/timeline"
)

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
