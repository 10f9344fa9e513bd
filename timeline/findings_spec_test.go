package timeline_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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
	return b.Snapshot().Pods.At(0)
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

// idsOf are the findings' IDs and containers, in order.
func idsOf(fs []timeline.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.ID)+" "+f.Container)
	}
	return out
}

// deleted is a pod deleted at 10 s with a grace period of 4 s, stopped as the kubelet stops it (as
// e2e TestFindingGraceSpentByApps and TestFindingPreStopUsedGrace show): Killing for every
// container at once, 0.2 s after the deletion; the app exits at appExit, the sidecar at sideExit
// with sideCode, signalled after the app (nobody reports when). hook gives the app a preStop hook;
// the sidecar has a startupProbe.
func deleted(appExit float64, sideCode int32, sideExit float64, hook bool) []timeline.Observation {
	side, app := running("proxy", timeline.KindSidecar, 1, true, "1"), running("app", timeline.KindApp, 2, true, "2")
	side.HasStartupProbe, app.HasPreStop = true, hook // no race: the findings of the stop alone
	d, grace := sec(14), int64(4)
	at := func(p *timeline.PodObservation) *timeline.PodObservation {
		p.Deletion, p.DeletionGrace = &d, &grace
		return p
	}
	appDone := exited("app", timeline.KindApp, 2, appExit, 0, "2")
	appDone.HasPreStop = hook
	sideDone := exited("proxy", timeline.KindSidecar, 1, sideExit, sideCode, "1")
	sideDone.HasStartupProbe = true
	done := at(pod("a", sideDone, appDone))
	done.Phase = "Succeeded"
	return []timeline.Observation{{Pod: pod("a", side, app), Received: sec(3)},
		{Pod: at(pod("a", side, app)), Received: sec(10.1)},
		{Event: killing("a", "proxy", "initContainers", 10.2), Received: sec(10.3)},
		{Event: killing("a", "app", "containers", 10.2), Received: sec(10.3)},
		{Pod: at(pod("a", side, appDone)), Received: sec(appExit + 0.3)},
		{Pod: done, Received: sec(sideExit + 0.3)}}
}

// TestFindingGraceSpentKubeletOrder: the kubelet reports Killing for the sidecar at the deletion,
// not when it signals it; the sidecar's SIGTERM is inferred after the app's exit, and may be as
// early as the exit. On a real cluster (e2e TestFindingGraceSpentByApps) the rule asked for a
// SIGTERM certainly after the app's exit, which an inferred one never is, and said nothing: an
// app that exits 3.5 s into the 4 s grace, a sidecar killed after it, is the finding.
func TestFindingGraceSpentKubeletOrder(t *testing.T) {
	for _, tc := range []struct {
		name              string
		appExit, sideExit float64
		sideCode          int32
		want              []string
	}{
		{"the app took 3.5 s of 4", 13.5, 15.6, 137,
			[]string{"killed-after-grace proxy", "grace-spent-by-apps proxy"}},
		{"the app exited at once, the sidecar ignored SIGTERM", 10.4, 14.3, 137,
			[]string{"killed-after-grace proxy"}},
		{"the app took 3.5 s, the sidecar exited on SIGTERM", 13.5, 13.7, 143,
			[]string{"sidecar-teardown-exit proxy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := snapshotOf(deleted(tc.appExit, tc.sideCode, tc.sideExit, false)...)
			if diff := cmp.Diff(idsOf(p.Findings()), tc.want); diff != "" {
				t.Errorf("findings (-got +want):\n%s\n%+v", diff, p.Findings())
			}
		})
	}
}

// TestFindingPreStopUnreported: the API never says when a preStop hook returned: the SIGTERM lies
// anywhere between the hook's start and the exit. On a real cluster (e2e
// TestFindingPreStopUsedGrace, a hook of 3 s of 4) the rule asked for a hook that certainly took
// half the grace period before SIGTERM, and said nothing. An app with a hook that exits more than
// half the grace period after the deletion is the finding, said as what is known.
func TestFindingPreStopUnreported(t *testing.T) {
	for _, tc := range []struct {
		name    string
		appExit float64
		hook    bool
		want    []string
	}{
		{"a hook, exit 3.3 s in", 13.3, true, []string{"prestop-used-grace app"}},
		{"a hook, exit 1.2 s in", 11.2, true, nil},
		{"no hook, exit 3.3 s in", 13.3, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := snapshotOf(deleted(tc.appExit, 0, tc.appExit+0.2, tc.hook)...)
			if diff := cmp.Diff(idsOf(p.Findings()), tc.want); diff != "" {
				t.Errorf("findings (-got +want):\n%s\n%+v", diff, p.Findings())
			}
			for _, f := range p.Findings() {
				if f.ID == timeline.FindingPreStopUsedGrace && !strings.Contains(f.Text, "when the hook returned is not reported") {
					t.Errorf("the finding claims what the API does not say: %s", f.Text)
				}
			}
		})
	}
}

// TestFindingIDInJSON: a pod's JSON carries each finding's ID, and decoding it gives the same
// findings back: a program finds one by its ID, not its words.
func TestFindingIDInJSON(t *testing.T) {
	app := running("app", timeline.KindApp, 1, true, "1")
	app.RestartPolicy = "OnFailure"
	p := snapshotOf(timeline.Observation{Pod: pod("a", app)})
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"id":"restart-policy-on-app"`) {
		t.Errorf("no finding ID in the JSON: %s", b)
	}
	var back timeline.Pod
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(back.Findings(), p.Findings()); diff != "" {
		t.Errorf("decoded findings (-got +want):\n%s", diff)
	}
}
