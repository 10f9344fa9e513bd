package present

import (
	"strings"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// StatusOf says how kubectl's STATUS text of a pod is coloured, in the view and the exports
// alike: failed (an error, a back-off, a failure, a kill, an eviction, a state no one knows),
// else as the lane state it means (running and ready, completed, terminating, waiting to run);
// ok is false for a status drawn muted.
func StatusOf(status string) (state timeline.LaneState, failed, ok bool) {
	switch status {
	case "Running":
		return timeline.StateReady, false, true
	case "Completed", "Succeeded", "Complete":
		return timeline.StateStarted, false, true
	case "Terminating":
		return timeline.StateTerminating, false, true
	}
	switch {
	case statusFailed(status):
		return "", true, true
	case statusWaiting(status):
		return timeline.StateWaiting, false, true
	}
	return "", false, false
}

// statusFailed reports whether a STATUS says something went wrong.
func statusFailed(status string) bool {
	for _, w := range [...]string{"Err", "BackOff", "Fail", "Kill", "Evicted", "Unknown"} {
		if strings.Contains(status, w) {
			return true
		}
	}
	return false
}

// statusWaiting reports whether a STATUS says the pod waits to run: its init containers, its
// scheduling or its containers' creation.
func statusWaiting(status string) bool {
	switch status {
	case "Pending", "PodInitializing", "ContainerCreating":
		return true
	}
	return strings.HasPrefix(status, "Init:")
}
