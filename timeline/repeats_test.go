package timeline_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// An Event that repeats is one object whose count and lastTimestamp rise: each update that raised
// the count is a repeat of its own, placed by its lastTimestamp (whole seconds: [t, t+1s)) and no
// later than the update was received.

// eventUpdate is one update of an Event as a recording kept it.
type eventUpdate struct {
	count    int32
	last     time.Time
	received time.Time
}

// repeatsIn are the updates of the Events for container with that reason in a recording that
// raised their count, in the order received.
func repeatsIn(t *testing.T, name, container, reason string) []eventUpdate {
	t.Helper()
	var out []eventUpdate
	counts := map[string]int32{}
	for _, it := range itemsOf(t, name) {
		e, ok := it.Object.(*corev1.Event)
		if !ok || e.Reason != reason || !strings.HasSuffix(e.InvolvedObject.FieldPath, "{"+container+"}") || e.Count <= counts[e.Name] {
			continue
		}
		counts[e.Name] = e.Count
		out = append(out, eventUpdate{e.Count, e.LastTimestamp.Time, it.Time})
	}
	return out
}

// kindOf is the milestones of kind in list.
func kindOf(list []timeline.Milestone, kind timeline.MilestoneKind) []timeline.Milestone {
	var out []timeline.Milestone
	for _, m := range list {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// inItsSecond checks that m is the repeat u: its count, within the second of u's lastTimestamp
// and not after u was received, with u's update as its evidence.
func inItsSecond(t *testing.T, m timeline.Milestone, u eventUpdate) {
	t.Helper()
	if m.Count != u.count {
		t.Errorf("%s at %s: count %d, want %d", m.Kind, m.At.Format("05.000"), m.Count, u.count)
	}
	hi := u.last.Add(time.Second)
	if u.received.Before(hi) {
		hi = u.received
	}
	if m.Earliest.Before(u.last) || m.Latest.After(hi) || m.At.Before(m.Earliest) || m.At.After(m.Latest) {
		t.Errorf("%s #%d: %s in [%s, %s], want within [%s, %s]", m.Kind, m.Count, m.At.Format("05.000"),
			m.Earliest.Format("05.000"), m.Latest.Format("05.000"), u.last.Format("05.000"), hi.Format("05.000"))
	}
	if len(m.Evidence) == 0 || !m.Evidence[0].Received.Equal(u.received) {
		t.Errorf("%s #%d: evidence %+v, want the update received at %s", m.Kind, m.Count, m.Evidence, u.received.Format("05.000"))
	}
}

// TestProbeRepeatsEachInPlace: the startup probe of startup-probe failed four times, an update
// of one Unhealthy Event each: four probe-failed milestones, each in its second, in the snapshot
// and in its JSON.
func TestProbeRepeatsEachInPlace(t *testing.T) {
	ups := repeatsIn(t, "startup-probe", "sidecar", "Unhealthy")
	if len(ups) != 4 {
		t.Fatalf("the recording has %d Unhealthy updates, want 4", len(ups))
	}
	p := build(t, "startup-probe").Pods.At(0)
	got := kindOf(container(t, p, "sidecar").Milestones(), timeline.MProbeFailed)
	if len(got) != len(ups) {
		t.Fatalf("%d probe-failed milestones, want %d: %+v", len(got), len(ups), got)
	}
	for i, m := range got {
		inItsSecond(t, m, ups[i])
		if m.Reason != "Startup" {
			t.Errorf("probe-failed #%d: reason %q", m.Count, m.Reason)
		}
	}
	if w := milestone(t, container(t, p, "sidecar"), timeline.MStarted, 0).Why; !strings.Contains(w, "failed 4×") {
		t.Errorf("started's why %q does not count the 4 failures", w)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back timeline.Pod
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	fromJSON := kindOf(container(t, &back, "sidecar").Milestones(), timeline.MProbeFailed)
	if len(fromJSON) != len(ups) {
		t.Fatalf("the JSON has %d probe-failed milestones, want %d", len(fromJSON), len(ups))
	}
	for i, m := range fromJSON {
		inItsSecond(t, m, ups[i])
	}
}

// probeEvent is an update of an Unhealthy Event of container's probe: count, with its
// lastTimestamp the second of at. Only the first update's name has the emitter's time.
func probeEvent(uid, container, name, msg string, count int32, at float64) *timeline.EventObservation {
	e := unhealthy(uid, container, msg, at)
	e.UID, e.Name, e.Count = "ev-"+name, name, count
	if count > 1 {
		e.NameTime = time.Time{}
	}
	e.First = e.Last.Add(-time.Duration(count-1) * time.Second)
	return e
}

// TestTwoEventsOfOneProbe: a readiness probe that fails with two messages is two Events, each
// counting from 1: three failures, three milestones in time order, and the why counts three.
func TestTwoEventsOfOneProbe(t *testing.T) {
	b := timeline.NewBuilder()
	side := running("proxy", timeline.KindSidecar, 1, false, "1")
	side.HasReadinessProbe = true
	apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", side)})
	refused, timeout := "Readiness probe failed: connection refused", "Readiness probe failed: timeout"
	apply(b, 2.2, timeline.Observation{Event: probeEvent("a", "proxy", "p.1", refused, 1, 2.1)})
	apply(b, 3.2, timeline.Observation{Event: probeEvent("a", "proxy", "p.2", timeout, 1, 3.1)})
	apply(b, 4.3, timeline.Observation{Event: probeEvent("a", "proxy", "p.1", refused, 2, 4.2)})
	side = running("proxy", timeline.KindSidecar, 1, true, "1")
	side.HasReadinessProbe = true
	apply(b, 5.5, timeline.Observation{Pod: pod("a", side)})
	p := b.Snapshot().Pods.At(0)
	got := kindOf(container(t, p, "proxy").Milestones(), timeline.MProbeFailed)
	var msgs []string
	for _, m := range got {
		msgs = append(msgs, m.Message)
	}
	if want := []string{refused, timeout, refused}; strings.Join(msgs, "|") != strings.Join(want, "|") {
		t.Fatalf("probe failures %q, want %q", msgs, want)
	}
	if got[2].Count != 2 || got[2].Earliest.Before(sec(4)) || got[2].Latest.After(sec(4.3)) {
		t.Errorf("the repeat: count %d in [%s, %s], want 2 in [4, 4.3]", got[2].Count, got[2].Earliest, got[2].Latest)
	}
	if w := find(t, p, "proxy", timeline.MReady, 0).Why; !strings.Contains(w, "failed 3×") {
		t.Errorf("ready's why %q does not count 3 failures", w)
	}
}

// TestRepeatCountJump: an update that raised the count by more than one (a watch that missed
// updates) places only the last repeat it brings, and its evidence says which it left unplaced.
func TestRepeatCountJump(t *testing.T) {
	b := timeline.NewBuilder()
	side := running("proxy", timeline.KindSidecar, 1, false, "1")
	side.Status.Started = boolp(false)
	side.HasStartupProbe = true
	apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", side)})
	apply(b, 2.2, timeline.Observation{Event: probeEvent("a", "proxy", "p.1", "Startup probe failed: x", 1, 2.1)})
	apply(b, 5.3, timeline.Observation{Event: probeEvent("a", "proxy", "p.1", "Startup probe failed: x", 4, 5.2)})
	got := kindOf(container(t, b.Snapshot().Pods.At(0), "proxy").Milestones(), timeline.MProbeFailed)
	if len(got) != 2 || got[1].Count != 4 {
		t.Fatalf("probe failures %+v, want counts 1 and 4", got)
	}
	if m := got[1]; m.Earliest.Before(sec(5)) || m.Latest.After(sec(5.3)) || !strings.Contains(m.Evidence[0].Note, "counts 2–3 came in no update seen") {
		t.Errorf("count 4 in [%s, %s], evidence %+v", m.Earliest, m.Latest, m.Evidence)
	}
}

// appRun is the app container of a liveness test in its run n (started at start), with the run
// before it ended at prevEnd.
func appRun(n int32, start, prevEnd float64) timeline.ContainerObservation {
	c := running("app", timeline.KindApp, start, true, "c"+string(rune('0'+n)))
	c.Status.RestartCount = n
	if n > 0 {
		c.Status.LastTerminated = &timeline.Terminated{ContainerID: "c" + string(rune('0'+n-1)), ExitCode: 143,
			StartedAt: sec(start - 5), FinishedAt: sec(prevEnd)}
	}
	return c
}

// livenessKill is an update of the Killing Event of a failed liveness probe, raised to count.
func livenessKill(count int32, at float64) *timeline.EventObservation {
	e := killing("a", "app", "containers", at)
	e.Message, e.Count = "Container app failed liveness probe, will be restarted", count
	if count > 1 {
		e.NameTime = time.Time{}
	}
	return e
}

// TestRepeatsAcrossRuns: a liveness probe fails three times in each run and the kubelet kills
// the run, then starts it again: the Unhealthy and Killing Events repeat run after run. Each run
// has its own three failures, and its own SIGTERM, placed by its own repeat of Killing.
func TestRepeatsAcrossRuns(t *testing.T) {
	b := timeline.NewBuilder()
	apply(b, 0.6, timeline.Observation{Type: timeline.Added, Pod: pod("a", appRun(0, 0.5, 0))})
	msg := "Liveness probe failed: HTTP probe failed with statuscode: 500"
	for n := range int32(2) {
		base := 5 * float64(n)
		for k := range int32(3) {
			at := base + 2.1 + float64(k)
			apply(b, at+0.05, timeline.Observation{Event: probeEvent("a", "app", "p.live", msg, 3*n+k+1, at)})
		}
		apply(b, base+4.4, timeline.Observation{Event: livenessKill(n+1, base+4.35)})
		apply(b, base+5.6, timeline.Observation{Pod: pod("a", appRun(n+1, base+5.5, base+4.6))})
	}
	p := b.Snapshot().Pods.At(0)
	for a := range int32(2) {
		r := container(t, p, "app").Run(a)
		if r == nil {
			t.Fatalf("no run %d", a)
		}
		fails := kindOf(r.Milestones, timeline.MProbeFailed)
		if len(fails) != 3 || fails[0].Count != 3*a+1 || fails[2].Count != 3*a+3 {
			t.Errorf("run %d: probe failures %+v, want counts %d–%d", a, fails, 3*a+1, 3*a+3)
		}
		for _, m := range fails {
			if m.Reason != "Liveness" || m.At.Before(sec(5*float64(a)+2)) || m.Latest.After(sec(5*float64(a)+4.2)) {
				t.Errorf("run %d: %s #%d %s at %s in [%s, %s]", a, m.Kind, m.Count, m.Reason, m.At, m.Earliest, m.Latest)
			}
		}
		// Its Killing: in the second of its lastTimestamp, and received 50 ms later.
		sig, exit := find(t, p, "app", timeline.MSigterm, a), find(t, p, "app", timeline.MExit, a)
		kill := sec(5*float64(a) + 4)
		if sig.Earliest.Before(kill) || sig.Earliest.After(kill.Add(400*time.Millisecond)) || sig.Latest.After(exit.Latest) {
			t.Errorf("run %d: SIGTERM in [%s, %s], want from its Killing (%s) to its exit (%s)", a, sig.Earliest, sig.Latest, kill, exit.Latest)
		}
	}
	if n := len(kindOf(container(t, p, "app").Run(2).Milestones, timeline.MProbeFailed)); n != 0 {
		t.Errorf("run 2 has %d probe failures, want none", n)
	}
}
