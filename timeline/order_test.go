package timeline_test

import (
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// strictlyBefore fails unless a's estimate reads before b's.
func strictlyBefore(t *testing.T, a, b timeline.Milestone) {
	t.Helper()
	if !a.At.Before(b.At) {
		t.Errorf("%s %s#%d at %s should read before %s %s#%d at %s", a.Container, a.Kind, a.Attempt, a.At.Sub(t0),
			b.Container, b.Kind, b.Attempt, b.At.Sub(t0))
	}
}

// TestRestartInTheSecondOfTheExit: an init container that fails and runs again within one whole
// second (seen in e2e TestMatrixInitFailsOnce): its exit, the next run's Created Event, its
// restart and its exit all lie in that second; they read in the order the kubelet did them.
func TestRestartInTheSecondOfTheExit(t *testing.T) {
	b := timeline.NewBuilder()
	i1 := running("i1", timeline.KindInit, 9, false, "c1")
	apply(b, 9.3, timeline.Observation{Type: timeline.Added, Pod: pod("a", i1)})
	failed := exited("i1", timeline.KindInit, 9, 10, 1, "c1")
	apply(b, 10.5, timeline.Observation{Pod: pod("a", failed)})
	created := killing("a", "i1", "initContainers", 10.4)
	created.UID, created.Reason, created.Message = "ev-created-i1", "Created", "Container created"
	created.NameTime = time.Time{} // a repeat of the first run's: whole seconds only
	apply(b, 10.6, timeline.Observation{Event: created})
	done := exited("i1", timeline.KindInit, 10, 10, 0, "c2")
	done.Status.RestartCount, done.Status.LastTerminated = 1, failed.Status.Terminated
	apply(b, 10.95, timeline.Observation{Pod: pod("a", done)})

	p := b.Snapshot().Pods.At(0)
	exit0, restart1, exit1 := find(t, p, "i1", timeline.MExit, 0), find(t, p, "i1", timeline.MRestart, 1), find(t, p, "i1", timeline.MExit, 1)
	created1 := find(t, p, "i1", timeline.MCreated, 1)
	strictlyBefore(t, exit0, created1)
	strictlyBefore(t, created1, restart1)
	strictlyBefore(t, restart1, exit1)
	for _, m := range []timeline.Milestone{exit0, created1, restart1, exit1} {
		if m.At.Before(m.Earliest) || m.At.After(m.Latest) {
			t.Errorf("%s#%d at %s outside [%s, %s]", m.Kind, m.Attempt, m.At.Sub(t0), m.Earliest.Sub(t0), m.Latest.Sub(t0))
		}
	}
}

// TestSidecarReadyBeforePodReady: the kubelet sets the pod Ready once the sidecar is ready, so
// the sidecar's ready, observed only when a status showed it, is bounded by the Ready condition's
// second (seen in e2e TestFindingReadinessHeldBySidecar: it read 0.13 s after the pod's Ready).
func TestSidecarReadyBeforePodReady(t *testing.T) {
	b := timeline.NewBuilder()
	side, app := running("s1", timeline.KindSidecar, 1, false, "c1"), running("app", timeline.KindApp, 1, true, "c2")
	apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", side, app)})
	side.Status.Ready = true
	ready := pod("a", side, app)
	ready.Conditions = []timeline.Condition{{Type: "Ready", Status: "True", LastTransition: sec(4)}}
	apply(b, 5.13, timeline.Observation{Pod: ready})

	p := b.Snapshot().Pods.At(0)
	sideReady := find(t, p, "s1", timeline.MReady, 0)
	var podReady timeline.Milestone
	for _, m := range p.Milestones.All() {
		if m.Kind == timeline.MReady {
			podReady = *m
		}
	}
	if podReady.Kind == "" {
		t.Fatal("no pod Ready milestone")
	}
	if !sideReady.Latest.Equal(podReady.Latest) || sideReady.At.After(podReady.At) {
		t.Errorf("s1 ready at %s [%s, %s], pod Ready at %s [%s, %s]: want s1's latest the pod's, and s1 no later",
			sideReady.At.Sub(t0), sideReady.Earliest.Sub(t0), sideReady.Latest.Sub(t0),
			podReady.At.Sub(t0), podReady.Earliest.Sub(t0), podReady.Latest.Sub(t0))
	}
}

// TestSidecarSignalledAsTheAppIsKilled: the app's preStop hook ran out the grace period, so the
// kubelet killed the app at the deadline and signalled the sidecar then too, maybe first (seen in
// e2e TestMatrixPreStopNeverReturns: the sidecar's SIGTERM 7 ms before the app's exit). The
// kubelet's line places the SIGTERM after the app's earliest exit, but the app's exit may lie at
// the deadline: the gap is not cut at zero.
func TestSidecarSignalledAsTheAppIsKilled(t *testing.T) {
	b := timeline.NewBuilder()
	up := pod("a", running("s1", timeline.KindSidecar, 0.7, true, "1"), running("app", timeline.KindApp, 0.8, true, "2"))
	up.Containers[1].HasPreStop = true
	apply(b, 1, timeline.Observation{Type: timeline.Added, Pod: up})
	del := pod("a", up.Containers...)
	d, grace := sec(5), int64(4)
	del.Deletion, del.DeletionGrace = &d, &grace
	apply(b, 1.01, timeline.Observation{Pod: del})
	apply(b, 5.3, timeline.Observation{Kubelet: &timeline.KubeletObservation{Node: "n", At: sec(5.05), Namespace: "ns",
		Pod: "p", PodUID: "a", Container: "s1", ContainerID: "1", GracePeriod: 1}})
	done := pod("a", exited("s1", timeline.KindSidecar, 0.7, 5, 0, "1"), exited("app", timeline.KindApp, 0.8, 5, 137, "2"))
	done.Containers[1].HasPreStop = true
	done.Deletion, done.DeletionGrace, done.Phase = &d, &grace, "Succeeded"
	apply(b, 5.4, timeline.Observation{Pod: done})
	notCutAtZero(t, b.Snapshot().Pods.At(0), "app exit → s1 SIGTERM")
}

// notCutAtZero fails unless pod p has the named gap and its lower bound is below zero: the
// kubelet's order did not hold, and the gap may be negative.
func notCutAtZero(t *testing.T, p *timeline.Pod, name string) {
	t.Helper()
	for _, g := range p.Gaps {
		if g.Name == name {
			if g.Span.Min >= 0 {
				t.Errorf("gap %s cut at zero: %+v", g.Name, g.Span)
			}
			return
		}
	}
	t.Errorf("no gap %s in %+v", name, p.Gaps)
}

// podInitialized is pod p's Initialized milestone.
func podInitialized(t *testing.T, p *timeline.Pod) timeline.Milestone {
	t.Helper()
	for _, m := range p.Milestones.All() {
		if m.Kind == timeline.MInitialized {
			return *m
		}
	}
	t.Fatal("no pod Initialized milestone")
	return timeline.Milestone{}
}

// initializedAt is a pod whose sidecar s and app wait as given, Initialized in second at.
func initializedAt(at float64, s timeline.ContainerObservation) *timeline.PodObservation {
	app := timeline.ContainerObservation{Name: "app", Kind: timeline.KindApp,
		Status: &timeline.ContainerStatus{Waiting: &timeline.Waiting{Reason: "PodInitializing"}}}
	p := pod("a", s, app)
	p.Conditions = []timeline.Condition{{Type: "Initialized", Status: "True", LastTransition: sec(at)}}
	return p
}

// TestSidecarStartedBeforePodInitialized: the kubelet sets the pod Initialized once the last
// sidecar has started, so the sidecar's started, observed only when a status showed it, is
// bounded by the Initialized condition's second (seen in e2e TestMatrixStartupProbesSerial: the
// last sidecar's started read 13 ms after the pod's Initialized).
func TestSidecarStartedBeforePodInitialized(t *testing.T) {
	b := timeline.NewBuilder()
	s1 := running("s1", timeline.KindSidecar, 30, false, "c1")
	s1.Status.Started = boolp(false)
	apply(b, 30.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", s1)})
	s1.Status.Started = boolp(true)
	apply(b, 34.013, timeline.Observation{Pod: initializedAt(33, s1)})

	p := b.Snapshot().Pods.At(0)
	started, init := find(t, p, "s1", timeline.MStarted, 0), podInitialized(t, p)
	if !started.Latest.Equal(init.Latest) || started.At.After(init.At) {
		t.Errorf("s1 started at %s [%s, %s], pod Initialized at %s [%s, %s]: want s1's latest the pod's, and s1 no later",
			started.At.Sub(t0), started.Earliest.Sub(t0), started.Latest.Sub(t0),
			init.At.Sub(t0), init.Earliest.Sub(t0), init.Latest.Sub(t0))
	}
}

// TestSidecarRunBegunInTheSecondOfInitialized: a sidecar's second run began within the second of
// the pod's Initialized. If its first run did not certainly exit before that second, the first
// may have been the one that started, so the second run's started is not bounded by Initialized;
// if it did, the second run was the one the kubelet waited for.
func TestSidecarRunBegunInTheSecondOfInitialized(t *testing.T) {
	for _, c := range []struct {
		exit    float64 // when the first run exited
		latest  float64 // the second run's started's latest
		bounded bool
	}{{33, 34.2, false}, {32, 33.999999999, true}} {
		b := timeline.NewBuilder()
		s1 := running("s1", timeline.KindSidecar, 30, false, "c1")
		apply(b, 30.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", s1)})
		again := running("s1", timeline.KindSidecar, 33, false, "c2")
		again.Status.RestartCount = 1
		again.Status.LastTerminated = exited("s1", timeline.KindSidecar, 30, c.exit, 1, "c1").Status.Terminated
		apply(b, 34.2, timeline.Observation{Pod: initializedAt(33, again)})

		p := b.Snapshot().Pods.At(0)
		if started := find(t, p, "s1", timeline.MStarted, 1); !started.Latest.Equal(sec(c.latest)) {
			t.Errorf("first run exited at %vs: s1#1 started at %s [%s, %s], want its latest %vs (bounded by Initialized: %v)",
				c.exit, started.At.Sub(t0), started.Earliest.Sub(t0), started.Latest.Sub(t0), c.latest, c.bounded)
		}
	}
}
