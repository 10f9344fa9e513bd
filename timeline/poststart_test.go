package timeline_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// hookPod is a sidecar with no startup probe whose first status shows it running and started at
// once, 3.2 s after it began (startedAt +1 s), then the app running from +4 s: with a postStart
// hook when hook is true.
func hookPod(hook bool) *timeline.Pod {
	side := timeline.ContainerObservation{Name: "proxy", Kind: timeline.KindSidecar, RestartPolicy: "Always", HasPostStart: hook}
	app := timeline.ContainerObservation{Name: "app", Kind: timeline.KindApp, Status: &timeline.ContainerStatus{
		Started: boolp(false), Waiting: &timeline.Waiting{Reason: "PodInitializing"}}}
	pending := pod("a", side, app)
	upSide := running("proxy", timeline.KindSidecar, 1, true, "s")
	upSide.RestartPolicy, upSide.HasPostStart = "Always", hook
	sideUp := pod("a", upSide, app)
	appUp := pod("a", upSide, running("app", timeline.KindApp, 4, true, "a"))
	return snapshotOf(timeline.Observation{Pod: pending, Received: sec(0.5)},
		timeline.Observation{Pod: sideUp, Received: sec(4.2)},
		timeline.Observation{Pod: appUp, Received: sec(4.6)})
}

// TestPostStartHookPlacesStarted: a postStart hook runs to its end before the kubelet counts the
// container started, so a started that came in the same status as the run is placed late in its
// interval, not at the start, and the gaps and their why say so.
func TestPostStartHookPlacesStarted(t *testing.T) {
	p := hookPod(true)
	c := container(t, p, "proxy")
	start, started := milestone(t, c, timeline.MStart, 0), milestone(t, c, timeline.MStarted, 0)
	if !started.At.Equal(started.Latest) || !started.At.After(start.Latest) {
		t.Errorf("started at %s in [%s, %s], want at its latest, after the start's latest %s",
			started.At.Sub(t0), started.Earliest.Sub(t0), started.Latest.Sub(t0), start.Latest.Sub(t0))
	}
	if !started.Earliest.Equal(start.Earliest) {
		t.Errorf("started's earliest %s, want the start's %s: the hook may have returned at once",
			started.Earliest.Sub(t0), start.Earliest.Sub(t0))
	}
	if !strings.Contains(started.Why, "postStart") {
		t.Errorf("started's why %q says nothing of the postStart hook", started.Why)
	}
	gaps := map[string]timeline.Gap{}
	for _, g := range p.Gaps {
		gaps[g.Name] = g
	}
	run, next := gaps["proxy start → proxy started"], gaps["proxy started → app start"]
	if run.Span.Value < 2*time.Second || !strings.Contains(run.Why, "postStart") {
		t.Errorf("start → started %v, why %q: want the hook's wait in it, and said", run.Span.Value, run.Why)
	}
	if next.Span.Value >= time.Second {
		t.Errorf("started → app start %v: the hook's wait is still in the next gap", next.Span.Value)
	}
}

// TestNoPostStartHookStartedWithRun: without a hook the same statuses place started at the start,
// as before.
func TestNoPostStartHookStartedWithRun(t *testing.T) {
	p := hookPod(false)
	c := container(t, p, "proxy")
	start, started := milestone(t, c, timeline.MStart, 0), milestone(t, c, timeline.MStarted, 0)
	if !started.At.Equal(start.At) {
		t.Errorf("started at %s, want at the start %s", started.At.Sub(t0), start.At.Sub(t0))
	}
	if strings.Contains(started.Why, "postStart") {
		t.Errorf("started's why %q names a hook there is not", started.Why)
	}
}

// TestFindingPostStartDelays: a hook that certainly held the next container back more than a
// second is named; no hook, or a startup probe the kubelet waits for as well, is not.
func TestFindingPostStartDelays(t *testing.T) {
	fs := hookPod(true).Findings()
	var got []timeline.Finding
	for _, f := range fs {
		if f.ID == timeline.FindingPostStartDelays {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Container != "proxy" || got[0].Severity != timeline.SeverityInfo ||
		!strings.Contains(got[0].Text, "postStart hook of sidecar `proxy` held back `app`") {
		t.Errorf("findings %+v: want one naming proxy's hook holding back app", fs)
	}
	for _, f := range hookPod(false).Findings() {
		if f.ID == timeline.FindingPostStartDelays {
			t.Errorf("a finding of a hook there is not: %+v", f)
		}
	}
}

// TestFindingPostStartQuickHook: a hook after which the next container started at once is not
// named.
func TestFindingPostStartQuickHook(t *testing.T) {
	side := running("proxy", timeline.KindSidecar, 1, true, "s")
	side.RestartPolicy, side.HasPostStart = "Always", true
	p := snapshotOf(timeline.Observation{Pod: pod("a", side, running("app", timeline.KindApp, 1, true, "a")), Received: sec(1.5)})
	for _, f := range p.Findings() {
		if f.ID == timeline.FindingPostStartDelays {
			t.Errorf("a quick hook named: %+v", f)
		}
	}
}
