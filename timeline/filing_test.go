package timeline_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestBackOffAfterAShortRun: a container that crashes within the second it started (a command
// not found, a bad flag), and the kubelet backs off before the run after it. The status says only
// that the run started and exited in that second; its Created Event says it was created at 20.05,
// so the BackOff at 20.4 comes after it: the back-off before run 2, not one before run 1 (found
// by FuzzBuilder, where it read after run 1's restart and exit). So whether the BackOff arrives
// before the status that shows the run or after it.
func TestBackOffAfterAShortRun(t *testing.T) {
	event := func(uid, reason, msg string, at float64) *timeline.EventObservation {
		e := killing("a", "app", "containers", at)
		e.UID, e.Reason, e.Message = uid, reason, msg
		return e
	}
	waiting := func(restarts int32, started, finished float64, id string) timeline.ContainerObservation {
		c := exited("app", timeline.KindApp, started, finished, 1, id)
		c.Status.LastTerminated, c.Status.Terminated = c.Status.Terminated, nil
		c.Status.Waiting = &timeline.Waiting{Reason: "CrashLoopBackOff"}
		c.Status.RestartCount = restarts
		return c
	}
	backOff := event("ev-backoff-2", "BackOff", "Back-off restarting failed container", 20.4)
	shown := pod("a", waiting(1, 20, 20, "c2"))
	for _, statusFirst := range []bool{false, true} {
		b := timeline.NewBuilder()
		apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", running("app", timeline.KindApp, 1, true, "c1"))})
		apply(b, 3.5, timeline.Observation{Pod: pod("a", waiting(0, 1, 3, "c1"))})
		apply(b, 4.21, timeline.Observation{Event: event("ev-backoff-1", "BackOff", "Back-off restarting failed container", 4.2)})
		apply(b, 20.06, timeline.Observation{Event: event("ev-created-1", "Created", "Container created", 20.05)})
		apply(b, 20.11, timeline.Observation{Event: event("ev-started-1", "Started", "Started container", 20.1)})
		if statusFirst {
			apply(b, 20.35, timeline.Observation{Pod: shown})
			apply(b, 20.41, timeline.Observation{Event: backOff})
		} else {
			apply(b, 20.41, timeline.Observation{Event: backOff})
			apply(b, 20.5, timeline.Observation{Pod: shown})
		}
		c := containerOf(t, b.Snapshot().Pods.At(0), "app")
		if m := c.Find(timeline.MBackOff, 1); m == nil || !m.At.Equal(sec(4.2)) {
			t.Errorf("status first %v: back-off #1 %+v, want the one at 4.2 s", statusFirst, m)
		}
		if m := c.Find(timeline.MBackOff, 2); m == nil || !m.At.Equal(sec(20.4)) {
			t.Errorf("status first %v: back-off #2 %+v, want the one at 20.4 s", statusFirst, m)
		}
		for _, r := range c.Runs.Items() {
			if r.Attempt != 1 {
				continue
			}
			for _, m := range r.Milestones {
				if m.Kind == timeline.MBackOff && !m.At.Equal(sec(4.2)) {
					t.Errorf("status first %v: run 1 has a back-off at %s", statusFirst, m.At.Sub(t0))
				}
			}
		}
	}
}

// TestEventsAfterAnUnseenExit: a startup probe kills the app run after run; the kubelet restarts
// it between two status updates, and the status never shows the first run's end (lastState is
// empty), only the second run running. The Killing Event of the second run, a repeat of the
// first run's, is the second run's: the first had ended before the second began. (Seen on the
// real cluster, TestMatrixStartupProbeKillsApp under make truth: every later run's probe
// failures, preStop hook and SIGTERM were filed under the first run.)
func TestEventsAfterAnUnseenExit(t *testing.T) {
	run := func(restarts int32, started float64, id string) timeline.ContainerObservation {
		c := running("app", timeline.KindApp, started, false, id)
		c.Status.Started, c.Status.RestartCount = boolp(false), restarts
		return c
	}
	kill := func(count int32, at float64) *timeline.EventObservation {
		e := killing("a", "app", "containers", 5.8)
		e.Message, e.Count, e.Last = "Container app failed startup probe, will be restarted", count, sec(at).Truncate(time.Second)
		return e
	}
	b := timeline.NewBuilder()
	apply(b, 3.9, timeline.Observation{Type: timeline.Added, Pod: pod("a", run(0, 3, "c1"))})
	apply(b, 5.81, timeline.Observation{Event: kill(1, 5.8)})
	apply(b, 8.38, timeline.Observation{Pod: pod("a", run(1, 8, "c2"))}) // run 0's end never shown
	apply(b, 10.11, timeline.Observation{Event: kill(2, 10.1)})
	next := run(2, 12, "c3")
	next.Status.LastTerminated = &timeline.Terminated{ContainerID: "c2", ExitCode: 0, StartedAt: sec(8), FinishedAt: sec(11)}
	apply(b, 12.71, timeline.Observation{Pod: pod("a", next)})
	c := containerOf(t, b.Snapshot().Pods.At(0), "app")
	for a, want := range []float64{5.8, 10} {
		m := c.Find(timeline.MSigterm, int32(a))
		if m == nil {
			var has []string
			for _, m := range c.Milestones() {
				has = append(has, fmt.Sprintf("%s#%d", m.Kind, m.Attempt))
			}
			t.Errorf("run %d has no SIGTERM; the app has %v", a, has)
			continue
		}
		if m.Earliest.Before(sec(want)) || m.Earliest.After(sec(want+1)) {
			t.Errorf("run %d's SIGTERM %+v, want it from the Killing at %.1f s", a, m, want)
		}
	}
}
