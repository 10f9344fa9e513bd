package timeline_test

import (
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Each finding that reads the spec, with a pod that should raise it and one that should not.

func snapshotOf(obs ...timeline.Observation) *timeline.Pod {
	b := timeline.NewBuilder()
	for i, o := range obs {
		if i == 0 {
			o.Type = timeline.Added
		}
		if o.Received.IsZero() {
			o.Received = sec(float64(i) + 0.5)
		}
		b.Apply(o)
	}
	return b.Snapshot().Pods[0]
}

func TestFindingSidecarRaced(t *testing.T) {
	side := running("proxy", timeline.KindSidecar, 1, false, "1")
	app := running("app", timeline.KindApp, 1, true, "2")
	up := pod("a", side, app)
	if p := snapshotOf(timeline.Observation{Pod: up, Received: sec(1.5)}); !hasFinding(p.Findings(), "with no startupProbe the kubelet starts the next container") {
		t.Errorf("no race finding: %+v", p.Findings())
	}
	side.HasStartupProbe = true
	if p := snapshotOf(timeline.Observation{Pod: pod("a", side, app), Received: sec(1.5)}); hasFinding(p.Findings(), "startupProbe the kubelet") {
		t.Errorf("a sidecar with a startupProbe raced: %+v", p.Findings())
	}
}

func unhealthy(uid, container, msg string, at float64) *timeline.EventObservation {
	e := killing(uid, container, "initContainers", at)
	e.UID, e.Reason, e.Type, e.Message = "ev-unhealthy-"+container, "Unhealthy", "Warning", msg
	return e
}

func TestFindingStartupProbeTimedOut(t *testing.T) {
	side := running("proxy", timeline.KindSidecar, 1, false, "1")
	side.Status.Started = boolp(false)
	side.HasStartupProbe, side.Startup = true, timeline.ProbeSpec{Period: time.Second, Timeout: time.Second, FailureThreshold: 30}
	ev := unhealthy("a", "proxy", "Startup probe failed: Get \"http://10.0.0.1:8080/\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)", 3)
	p := snapshotOf(timeline.Observation{Pod: pod("a", side)}, timeline.Observation{Event: ev, Received: sec(3.1)})
	if !hasFinding(p.Findings(), "timed out with timeoutSeconds 1s") {
		t.Errorf("no timeout finding: %+v", p.Findings())
	}
	side.Startup.Timeout = 5 * time.Second
	p = snapshotOf(timeline.Observation{Pod: pod("a", side)}, timeline.Observation{Event: ev, Received: sec(3.1)})
	if hasFinding(p.Findings(), "timed out with timeoutSeconds") {
		t.Errorf("a 5s timeout is not the default: %+v", p.Findings())
	}
	refused := unhealthy("a", "proxy", "Startup probe failed: dial tcp 10.0.0.1:8080: connect: connection refused", 3)
	side.Startup.Timeout = time.Second
	p = snapshotOf(timeline.Observation{Pod: pod("a", side)}, timeline.Observation{Event: refused, Received: sec(3.1)})
	if hasFinding(p.Findings(), "timed out") {
		t.Errorf("a refused connection is no timeout: %+v", p.Findings())
	}
}

// stopped is a pod deleted at 10s with grace 30, its sidecar signalled after the app's exit.
func stopped(appExit float64, sideCode int32, sideExit float64) []timeline.Observation {
	up := pod("a", running("proxy", timeline.KindSidecar, 1, true, "1"), running("app", timeline.KindApp, 2, true, "2"))
	del := pod("a", up.Containers...)
	d, grace := sec(40), int64(30)
	del.Deletion, del.DeletionGrace = &d, &grace
	appDone := pod("a", running("proxy", timeline.KindSidecar, 1, true, "1"), exited("app", timeline.KindApp, 2, appExit, 0, "2"))
	appDone.Deletion, appDone.DeletionGrace = &d, &grace
	done := pod("a", exited("proxy", timeline.KindSidecar, 1, sideExit, sideCode, "1"), exited("app", timeline.KindApp, 2, appExit, 0, "2"))
	done.Deletion, done.DeletionGrace, done.Phase = &d, &grace, "Succeeded"
	return []timeline.Observation{{Pod: up, Received: sec(3)}, {Pod: del, Received: sec(10.1)},
		{Event: killing("a", "app", "containers", 10.2), Received: sec(10.3)},
		{Pod: appDone, Received: sec(appExit + 0.5)},
		{Event: killing("a", "proxy", "initContainers", appExit+0.2), Received: sec(appExit + 0.6)},
		{Pod: done, Received: sec(sideExit + 0.5)}}
}

func TestFindingGraceSpentByApps(t *testing.T) {
	p := snapshotOf(stopped(38, 137, 40)...)
	if !hasFinding(p.Findings(), "the app containers took the grace period") {
		t.Errorf("no grace finding: %+v", p.Findings())
	}
	if hasFinding(p.Findings(), "exited 143") {
		t.Errorf("a SIGKILL is no 143: %+v", p.Findings())
	}
	// The app left the sidecar 27s of the grace: a sidecar killed then ignored its SIGTERM.
	p = snapshotOf(stopped(13, 137, 40)...)
	if hasFinding(p.Findings(), "the app containers took the grace period") {
		t.Errorf("the apps left most of the grace: %+v", p.Findings())
	}
}

func TestFindingSidecarTeardownExit(t *testing.T) {
	p := snapshotOf(stopped(13, 143, 14)...)
	if !hasFinding(p.Findings(), "exited 143 (SIGTERM) at teardown: expected") {
		t.Errorf("no teardown finding: %+v", p.Findings())
	}
}

func TestFindingRestartPolicyOnApp(t *testing.T) {
	app := running("app", timeline.KindApp, 1, true, "1")
	app.RestartPolicy = "Always"
	if p := snapshotOf(timeline.Observation{Pod: pod("a", app)}); !hasFinding(p.Findings(), "it does not make it a sidecar") {
		t.Errorf("no restartPolicy finding: %+v", p.Findings())
	}
	app.RestartPolicy = ""
	if p := snapshotOf(timeline.Observation{Pod: pod("a", app)}); hasFinding(p.Findings(), "restartPolicy") {
		t.Errorf("restartPolicy finding without one: %+v", p.Findings())
	}
}

func TestFindingAppCrashedPodRunning(t *testing.T) {
	mk := func(policy string) *timeline.PodObservation {
		p := pod("a", exited("app", timeline.KindApp, 1, 5, 1, "1"), running("helper", timeline.KindApp, 1, true, "2"))
		p.RestartPolicy = policy
		return p
	}
	if p := snapshotOf(timeline.Observation{Pod: mk("Never")}); !hasFinding(p.Findings(), "the pod is still Running because `helper`") {
		t.Errorf("no crashed-app finding: %+v", p.Findings())
	}
	if p := snapshotOf(timeline.Observation{Pod: mk("Always")}); hasFinding(p.Findings(), "still Running because") {
		t.Errorf("restartPolicy Always restarts the app: %+v", p.Findings())
	}
}
