package timeline_test

import (
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestKillingAfterImpliedExit: a run's next run was created (its Created Event implies the run
// before had exited) and killed by its liveness probe before the status showed it. The Killing
// Event is not a SIGTERM of the run before, after its own exit (found by FuzzBuilder), before
// or after the status shows the next run.
func TestKillingAfterImpliedExit(t *testing.T) {
	b := timeline.NewBuilder()
	apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", running("app", timeline.KindApp, 1, true, "c1"))})
	created := killing("a", "app", "containers", 6.35)
	created.UID, created.Reason, created.Message = "ev-created-app", "Created", "Container created"
	apply(b, 6.36, timeline.Observation{Event: created})
	kill := killing("a", "app", "containers", 6.4)
	kill.Message = "Container app failed liveness probe, will be restarted"
	apply(b, 6.41, timeline.Observation{Event: kill})
	noSigtermAfterExit(t, b.Snapshot().Pods.At(0), "app", 0)
	again := running("app", timeline.KindApp, 6, false, "c2")
	again.Status.RestartCount = 1
	apply(b, 6.6, timeline.Observation{Pod: pod("a", again)})
	noSigtermAfterExit(t, b.Snapshot().Pods.At(0), "app", 0)
}

func noSigtermAfterExit(t *testing.T, p *timeline.Pod, container string, attempt int32) {
	t.Helper()
	c := containerOf(t, p, container)
	exit, sig := c.Find(timeline.MExit, attempt), c.Find(timeline.MSigterm, attempt)
	if exit == nil {
		t.Fatalf("%s has no exit #%d", container, attempt)
	}
	if sig != nil && sig.At.After(exit.At) {
		t.Errorf("%s's SIGTERM #%d at %s, after its exit at %s", container, attempt, sig.At.Sub(t0), exit.At.Sub(t0))
	}
}

// TestSidecarRestartedAfterTheGracePeriod: a pod is deleted with an app container that never
// exits; its sidecar's grace period runs out at 9 s, and the sidecar runs again from 12 s. The
// run that began after the signal could have come is not given that signal (found by
// FuzzBuilder: it had been placed at 8 s, before the run began).
func TestSidecarRestartedAfterTheGracePeriod(t *testing.T) {
	b := timeline.NewBuilder()
	up := pod("a", running("s1", timeline.KindSidecar, 0.7, true, "s-0"), running("app", timeline.KindApp, 0.8, true, "app-0"))
	apply(b, 1, timeline.Observation{Type: timeline.Added, Pod: up})
	d, grace := sec(9), int64(4)
	del := pod("a", up.Containers...)
	del.Deletion, del.DeletionGrace = &d, &grace
	apply(b, 5.01, timeline.Observation{Pod: del})
	again := running("s1", timeline.KindSidecar, 12, true, "s-1")
	again.Status.RestartCount = 1
	later := pod("a", again, up.Containers[1])
	later.Deletion, later.DeletionGrace = &d, &grace
	apply(b, 12.5, timeline.Observation{Pod: later})
	done := exited("s1", timeline.KindSidecar, 12, 13, 0, "s-1")
	done.Status.RestartCount = 1
	last := pod("a", done, up.Containers[1])
	last.Deletion, last.DeletionGrace = &d, &grace
	apply(b, 13.5, timeline.Observation{Pod: last})

	c := containerOf(t, b.Snapshot().Pods.At(0), "s1")
	if m := c.Find(timeline.MSigterm, 1); m != nil {
		if start := c.Find(timeline.MRestart, 1); start != nil && m.At.Before(start.At) {
			t.Errorf("run 1's SIGTERM at %s, before it began at %s", m.At.Sub(t0), start.At.Sub(t0))
		}
		if m.Latest.Before(sec(12)) || m.Earliest.Before(sec(12).Add(-time.Second)) {
			t.Errorf("run 1's SIGTERM in [%s, %s], before it began", m.Earliest.Sub(t0), m.Latest.Sub(t0))
		}
	}
}
