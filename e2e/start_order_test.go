//go:build e2e

package e2e

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestStartOrder: init container (sleep 2) → native sidecar gated by a startup probe → app; the
// kubelet starts each only after the one before has exited (init) or started (sidecar).
func TestStartOrder(t *testing.T) {
	t.Parallel()
	r, p := runScenario(t, harness.StartOrder)

	initExit := milestone(t, p, "init", timeline.MExit, 0)
	sidecarStart := milestone(t, p, "sidecar", timeline.MStart, 0)
	sidecarStarted := milestone(t, p, "sidecar", timeline.MStarted, 0)
	appStart := milestone(t, p, "app", timeline.MStart, 0)
	before(t, initExit, sidecarStart, false)
	before(t, sidecarStarted, appStart, true)
	if sidecarStart.Latest.Before(initExit.Earliest) {
		t.Errorf("the bounds put the sidecar's start before the init container's exit: %s", describe(initExit, sidecarStart))
	}

	// On delete both exit right on SIGTERM; each exit must still read after its SIGTERM.
	for _, c := range []string{"app", "sidecar"} {
		before(t, milestone(t, p, c, timeline.MSigterm, 0), milestone(t, p, c, timeline.MExit, 0), false)
	}

	// PodInitializing may be skipped: the kubelet can report the app waiting for its image and
	// then running, or running at once, in one status update (seen under load).
	want := []string{"Init:0/2", "Init:1/2", "Running"}
	if seq := statusSequence(p); !inOrder(seq, want) {
		t.Errorf("STATUS went %q; want %q in that order", seq, want)
	}
	checkTruth(t, r, harness.StartOrder)
}
