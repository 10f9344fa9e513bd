package present

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestStatusOf: kubectl's STATUS texts, each coloured as what it means.
func TestStatusOf(t *testing.T) {
	for _, tc := range []struct {
		status string
		state  timeline.LaneState
		failed bool
		ok     bool
	}{
		{"Running", timeline.StateReady, false, true},
		{"Completed", timeline.StateStarted, false, true},
		{"Terminating", timeline.StateTerminating, false, true},
		{"Init:Error", "", true, true},
		{"Init:CrashLoopBackOff", "", true, true},
		{"OOMKilled", "", true, true},
		{"Evicted", "", true, true},
		{"Init:1/2", timeline.StateWaiting, false, true},
		{"ContainerCreating", timeline.StateWaiting, false, true},
		{"NotReady", "", false, false},
	} {
		state, failed, ok := StatusOf(tc.status)
		if state != tc.state || failed != tc.failed || ok != tc.ok {
			t.Errorf("StatusOf(%q) = %q, failed %v, ok %v; want %q, %v, %v", tc.status, state, failed, ok, tc.state, tc.failed, tc.ok)
		}
	}
}
