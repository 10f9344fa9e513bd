package timeline_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// t0 is the creation time of the synthetic pods below.
var t0 = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

func sec(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func boolp(b bool) *bool { return &b }

// pod is a synthetic pod observation with the given containers' statuses.
func pod(uid string, containers ...timeline.ContainerObservation) *timeline.PodObservation {
	return &timeline.PodObservation{UID: uid, Namespace: "ns", Name: "p", Created: t0, Phase: "Running",
		RestartPolicy: "Always", GracePeriod: 30, Containers: containers}
}

func running(name string, kind timeline.ContainerKind, started float64, ready bool, id string) timeline.ContainerObservation {
	return timeline.ContainerObservation{Name: name, Kind: kind, Status: &timeline.ContainerStatus{
		ContainerID: id, Ready: ready, Started: boolp(true),
		Running: &timeline.Running{ContainerID: id, StartedAt: sec(started)},
	}}
}

func exited(name string, kind timeline.ContainerKind, started, finished float64, code int32, id string) timeline.ContainerObservation {
	return timeline.ContainerObservation{Name: name, Kind: kind, Status: &timeline.ContainerStatus{
		ContainerID: id, Started: boolp(false),
		Terminated: &timeline.Terminated{ContainerID: id, ExitCode: code, StartedAt: sec(started), FinishedAt: sec(finished)},
	}}
}

func killing(uid, container, fieldKind string, at float64) *timeline.EventObservation {
	return &timeline.EventObservation{UID: "ev-" + container + uid, Namespace: "ns", Name: "p.x", InvolvedKind: "Pod",
		InvolvedName: "p", InvolvedUID: uid, Container: container, FieldPath: "spec." + fieldKind + "{" + container + "}",
		Reason: "Killing", Message: "Stopping container " + container, Count: 1, First: sec(at).Truncate(time.Second),
		Last: sec(at).Truncate(time.Second), NameTime: sec(at)}
}

func apply(b *timeline.Builder, at float64, o timeline.Observation) {
	o.Received = sec(at)
	if o.Type == "" {
		o.Type = timeline.Modified
	}
	b.Apply(o)
}

func find(t *testing.T, p *timeline.Pod, container string, kind timeline.MilestoneKind, attempt int32) timeline.Milestone {
	t.Helper()
	return milestone(t, containerOf(t, p, container), kind, attempt)
}

func containerOf(t *testing.T, p *timeline.Pod, name string) *timeline.Container {
	t.Helper()
	return container(t, p, name)
}

// TestRecreatedPod: a pod deleted and created again under the same name is a new section; the
// old one keeps its timeline, and each keeps its own Events (by involved UID).
func TestRecreatedPod(t *testing.T) {
	b := timeline.NewBuilder()
	apply(b, 0.1, timeline.Observation{Type: timeline.Added, Pod: pod("a", running("app", timeline.KindApp, 0, true, "c1"))})
	apply(b, 1.5, timeline.Observation{Event: killing("a", "app", "containers", 1.4)})
	old := pod("a", exited("app", timeline.KindApp, 0, 2, 0, "c1"))
	apply(b, 2.5, timeline.Observation{Type: timeline.Deleted, Pod: old})
	again := pod("b", running("app", timeline.KindApp, 3, true, "c2"))
	again.Created = sec(3)
	apply(b, 3.2, timeline.Observation{Type: timeline.Added, Pod: again})
	s := b.Snapshot()
	if s.Pods.Len() != 2 || s.Pods.At(0).UID != "a" || s.Pods.At(1).UID != "b" || !s.Pods.At(0).Deleted || s.Pods.At(1).Deleted {
		t.Fatalf("pods %+v", s.Pods)
	}
	find(t, s.Pods.At(0), "app", timeline.MSigterm, 0)
	for _, m := range s.Pods.At(1).Containers[0].Milestones() {
		if m.Kind == timeline.MSigterm {
			t.Errorf("the new pod got the old pod's Killing Event")
		}
	}
}

// TestEventBeforePod: an Event can arrive before the pod it is about (informers race).
func TestEventBeforePod(t *testing.T) {
	b := timeline.NewBuilder()
	apply(b, 1.0, timeline.Observation{Event: killing("a", "app", "containers", 0.9)})
	apply(b, 1.2, timeline.Observation{Type: timeline.Added, Pod: pod("a", running("app", timeline.KindApp, 0, true, "c1"))})
	m := find(t, b.Snapshot().Pods.At(0), "app", timeline.MSigterm, 0)
	if !m.At.Equal(sec(0.9)) || m.Source != timeline.SourceEvent {
		t.Errorf("sigterm %+v", m)
	}
}

// TestClockSkew: when this machine's clock is behind the server's, a receive time would put a
// milestone before its own API time; the bound is dropped and the snapshot says so.
func TestClockSkew(t *testing.T) {
	b := timeline.NewBuilder()
	apply(b, -5, timeline.Observation{Type: timeline.Added, Pod: pod("a", running("app", timeline.KindApp, 1, false, "c1"))})
	s := b.Snapshot()
	m := find(t, s.Pods.At(0), "app", timeline.MStart, 0)
	if m.Latest.Before(m.Earliest) || m.At.Before(m.Earliest) || m.At.After(m.Latest) {
		t.Errorf("start %s in [%s, %s]", m.At, m.Earliest, m.Latest)
	}
	if len(s.Notes) == 0 || !strings.Contains(s.Notes[0], "clock") {
		t.Errorf("notes %q", s.Notes)
	}
}

// TestWatchStartsMidLife: a container already restarted 3 times when the watch begins.
func TestWatchStartsMidLife(t *testing.T) {
	c := running("side", timeline.KindSidecar, 50, true, "c4")
	c.Status.RestartCount = 3
	c.Status.LastTerminated = &timeline.Terminated{ContainerID: "c3", ExitCode: 1, StartedAt: sec(40), FinishedAt: sec(43)}
	b := timeline.NewBuilder()
	apply(b, 60, timeline.Observation{Type: timeline.Added, Pod: pod("a", c)})
	p := b.Snapshot().Pods.At(0)
	find(t, p, "side", timeline.MRestart, 3)
	exit := find(t, p, "side", timeline.MExit, 2)
	if !exit.Earliest.Equal(sec(43)) {
		t.Errorf("exit of run 2: %+v", exit)
	}
	if p.Containers[0].RestartCount != 3 {
		t.Errorf("restart count %d", p.Containers[0].RestartCount)
	}
}

// TestTwoSidecarsStopInReverse: the kubelet signals the later sidecar after the app exits and
// the earlier one after the later one exits; both SIGTERMs are inferred, in that order.
func TestTwoSidecarsStopInReverse(t *testing.T) {
	b := timeline.NewBuilder()
	up := pod("a", running("s1", timeline.KindSidecar, 1, true, "1"), running("s2", timeline.KindSidecar, 2, true, "2"),
		running("app", timeline.KindApp, 3, true, "3"))
	apply(b, 4, timeline.Observation{Type: timeline.Added, Pod: up})
	del := pod("a", up.Containers...)
	d, grace := sec(40), int64(30)
	del.Deletion, del.DeletionGrace = &d, &grace
	apply(b, 10.2, timeline.Observation{Pod: del})
	for _, c := range []string{"s1", "s2"} {
		apply(b, 10.3, timeline.Observation{Event: killing("a", c, "initContainers", 10.25)})
	}
	apply(b, 10.3, timeline.Observation{Event: killing("a", "app", "containers", 10.26)})
	done := pod("a", exited("s1", timeline.KindSidecar, 1, 13, 0, "1"), exited("s2", timeline.KindSidecar, 2, 13, 0, "2"),
		exited("app", timeline.KindApp, 3, 12, 0, "3"))
	done.Deletion, done.DeletionGrace, done.Phase = &d, &grace, "Succeeded"
	apply(b, 14.1, timeline.Observation{Pod: done})
	p := b.Snapshot().Pods.At(0)
	appExit := find(t, p, "app", timeline.MExit, 0)
	s2t, s2x := find(t, p, "s2", timeline.MSigterm, 0), find(t, p, "s2", timeline.MExit, 0)
	s1t, s1x := find(t, p, "s1", timeline.MSigterm, 0), find(t, p, "s1", timeline.MExit, 0)
	for _, pair := range [][2]timeline.Milestone{{appExit, s2t}, {s2t, s2x}, {s2x, s1t}, {s1t, s1x}} {
		before(t, pair[0], pair[1])
	}
	if s2t.Source != timeline.SourceInferred || s1t.Source != timeline.SourceInferred {
		t.Errorf("sources %s %s", s2t.Source, s1t.Source)
	}
	if s1t.Earliest.Before(s2x.Earliest) {
		t.Errorf("s1 SIGTERM may be before s2's exit: %s < %s", s1t.Earliest, s2x.Earliest)
	}
}

// TestSidecarHoldsReadiness: the app is ready, the sidecar's readiness probe fails, the Pod
// stays not Ready until the sidecar is.
func TestSidecarHoldsReadiness(t *testing.T) {
	b := timeline.NewBuilder()
	mk := func(sideReady bool, podReady string, lt float64) *timeline.PodObservation {
		p := pod("a", running("side", timeline.KindSidecar, 1, sideReady, "1"), running("app", timeline.KindApp, 2, true, "2"))
		p.Conditions = []timeline.Condition{{Type: "Ready", Status: podReady, LastTransition: sec(lt)}}
		return p
	}
	apply(b, 3.1, timeline.Observation{Type: timeline.Added, Pod: mk(false, "False", 0)})
	apply(b, 8.1, timeline.Observation{Pod: mk(true, "True", 8)})
	p := b.Snapshot().Pods.At(0)
	if !hasFinding(p.Findings(), "Pod Ready waited for sidecar `side`") {
		t.Errorf("findings %+v", p.Findings())
	}
	b2 := timeline.NewBuilder()
	apply(b2, 3.1, timeline.Observation{Type: timeline.Added, Pod: mk(false, "False", 0)})
	if p := b2.Snapshot().Pods.At(0); !hasFinding(p.Findings(), "not Ready only because sidecar `side`") {
		t.Errorf("findings while held %+v", p.Findings())
	}
	// Ready, then held by the sidecar's failing probe, then Ready again: each snapshot's findings
	// are read only after the next update, and are of the pod as it was.
	b3 := timeline.NewBuilder()
	apply(b3, 3.1, timeline.Observation{Type: timeline.Added, Pod: mk(true, "True", 3)})
	ready := b3.Snapshot().Pods.At(0)
	apply(b3, 20.1, timeline.Observation{Pod: mk(false, "False", 20)})
	held := b3.Snapshot().Pods.At(0)
	apply(b3, 25.1, timeline.Observation{Pod: mk(true, "True", 25)})
	again := b3.Snapshot().Pods.At(0)
	for _, c := range []struct {
		name string
		p    *timeline.Pod
		want bool
	}{{"ready", ready, false}, {"held", held, true}, {"ready again", again, false}} {
		if got := hasFinding(c.p.Findings(), "not Ready only because sidecar `side`"); got != c.want {
			t.Errorf("%s: finding %v, want %v: %+v", c.name, got, c.want, c.p.Findings())
		}
	}
}

// TestExitAfterItsSigterm: an app that exits the moment it gets SIGTERM, late in a second; its
// exit (finishedAt, whole seconds) must still read after the SIGTERM (seen in e2e).
func TestExitAfterItsSigterm(t *testing.T) {
	b := timeline.NewBuilder()
	apply(b, 1, timeline.Observation{Type: timeline.Added, Pod: pod("a", running("app", timeline.KindApp, 0, true, "c1"))})
	apply(b, 29.3, timeline.Observation{Event: killing("a", "app", "containers", 29.295)})
	apply(b, 29.515, timeline.Observation{Pod: pod("a", exited("app", timeline.KindApp, 0, 29, 0, "c1"))})
	p := b.Snapshot().Pods.At(0)
	before(t, find(t, p, "app", timeline.MSigterm, 0), find(t, p, "app", timeline.MExit, 0))
}

// TestStartedEventBeforeStatus: the kubelet's Started Event can arrive before the status that
// shows the container running; the run's start is placed on the Event until the status comes,
// and then on both: the status bounds it below (startedAt), the Event above (the kubelet
// records it once the runtime has started the container).
func TestStartedEventBeforeStatus(t *testing.T) {
	waiting := timeline.ContainerObservation{Name: "app", Kind: timeline.KindApp, Status: &timeline.ContainerStatus{
		Waiting: &timeline.Waiting{Reason: "ContainerCreating"}}}
	started := &timeline.EventObservation{UID: "ev-started", Namespace: "ns", Name: "p.x", InvolvedKind: "Pod",
		InvolvedName: "p", InvolvedUID: "a", Container: "app", FieldPath: "spec.containers{app}", Reason: "Started",
		Count: 1, First: sec(2), Last: sec(2), NameTime: sec(2.3)}
	b := timeline.NewBuilder()
	apply(b, 0.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", waiting)})
	apply(b, 2.31, timeline.Observation{Event: started})
	m := find(t, b.Snapshot().Pods.At(0), "app", timeline.MStart, 0)
	if m.Source != timeline.SourceEvent || !m.At.Equal(sec(2.3)) || !m.Earliest.Equal(t0) || !m.Latest.Equal(sec(2.3)) {
		t.Errorf("start from the Event alone: %+v", m)
	}
	apply(b, 2.6, timeline.Observation{Pod: pod("a", running("app", timeline.KindApp, 2, false, "c1"))})
	m = find(t, b.Snapshot().Pods.At(0), "app", timeline.MStart, 0)
	if m.Source != timeline.SourceStatus || !m.At.Equal(sec(2.3)) || !m.Earliest.Equal(sec(1.9)) || !m.Latest.Equal(sec(2.3)) {
		t.Errorf("start from status and Event: %+v", m)
	}
}

// TestStartedEventAfterStatus: the Started Event comes after the status that showed the run,
// with a snapshot between. The run derived again then keeps its earliest, ends no later than the
// Event was made (its name's time), is placed by the Event and cites it, as if derived once: a
// run derived again is kept only if nothing changed.
func TestStartedEventAfterStatus(t *testing.T) {
	started := &timeline.EventObservation{UID: "ev-started", Namespace: "ns", Name: "p.x", InvolvedKind: "Pod",
		InvolvedName: "p", InvolvedUID: "a", Container: "app", FieldPath: "spec.containers{app}", Reason: "Started",
		Count: 1, First: sec(2), Last: sec(2), NameTime: sec(2.3)}
	obs := []timeline.Observation{
		{Received: sec(2.6), Type: timeline.Added, Pod: pod("a", running("app", timeline.KindApp, 2, false, "c1"))},
		{Received: sec(2.65), Type: timeline.Added, Event: started},
	}
	b := timeline.NewBuilder()
	b.Apply(obs[0])
	before := find(t, b.Snapshot().Pods.At(0), "app", timeline.MStart, 0)
	b.Apply(obs[1])
	after := find(t, b.Snapshot().Pods.At(0), "app", timeline.MStart, 0)
	once := timeline.NewBuilder()
	for _, o := range obs {
		once.Apply(o)
	}
	want := find(t, once.Snapshot().Pods.At(0), "app", timeline.MStart, 0)
	if diff := cmp.Diff(want, after); diff != "" {
		t.Errorf("start after the Event, snapshot between (-once +incremental):\n%s", diff)
	}
	if !before.Earliest.Equal(after.Earliest) || !before.Latest.Equal(sec(2.6)) || !after.Latest.Equal(sec(2.3)) ||
		!after.At.Equal(sec(2.3)) || len(after.Evidence) != len(before.Evidence)+1 {
		t.Errorf("the Event should bound the start above at 2.3 s, place it there and add evidence: before %+v, after %+v", before, after)
	}
}

// TestSidecarSignalledAtGraceDeadline: the app's preStop hook never returns; at the grace
// deadline the kubelet signals the sidecar without waiting for the app, whose SIGTERM and exit
// come after (seen in e2e TestMatrixPreStopNeverReturns). The gap app exit → sidecar SIGTERM
// must be allowed below zero.
func TestSidecarSignalledAtGraceDeadline(t *testing.T) {
	b := timeline.NewBuilder()
	up := pod("a", running("s1", timeline.KindSidecar, 0.7, true, "1"), running("app", timeline.KindApp, 0.8, true, "2"))
	up.Containers[1].HasPreStop = true
	apply(b, 1, timeline.Observation{Type: timeline.Added, Pod: up})
	del := pod("a", up.Containers...)
	d, grace := sec(5), int64(4)
	del.Deletion, del.DeletionGrace = &d, &grace
	apply(b, 1.01, timeline.Observation{Pod: del})
	apply(b, 1.3, timeline.Observation{Event: killing("a", "s1", "initContainers", 1.05)})
	done := pod("a", exited("s1", timeline.KindSidecar, 0.7, 5, 0, "1"), exited("app", timeline.KindApp, 0.8, 5, 0, "2"))
	done.Containers[1].HasPreStop = true
	done.Deletion, done.DeletionGrace, done.Phase = &d, &grace, "Succeeded"
	apply(b, 5.4, timeline.Observation{Pod: done})
	notCutAtZero(t, b.Snapshot().Pods.At(0), "app exit → s1 SIGTERM")
}

// TestRestartWithoutLastState: a startup probe killed a sidecar's first run and the kubelet
// started it again between two status updates; the status shows restartCount 1 with no
// lastState (seen in e2e TestMatrixSidecarRecovers). The first run's exit is implied: after
// its Killing Event, before the next run's Created Event.
func TestRestartWithoutLastState(t *testing.T) {
	b := timeline.NewBuilder()
	side := running("s1", timeline.KindSidecar, 1, false, "c1")
	side.HasStartupProbe, side.Status.Started = true, boolp(false)
	apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", side)})
	kill := killing("a", "s1", "initContainers", 6.2)
	kill.Message = "Init container s1 failed startup probe, will be restarted"
	apply(b, 6.25, timeline.Observation{Event: kill})
	created := killing("a", "s1", "initContainers", 6.35)
	created.UID, created.Reason, created.Message = "ev-created-s1", "Created", "Container created"
	created.NameTime = time.Time{} // a repeat: whole seconds only
	apply(b, 6.36, timeline.Observation{Event: created})
	again := running("s1", timeline.KindSidecar, 6, false, "c2")
	again.HasStartupProbe, again.Status.Started, again.Status.RestartCount = true, boolp(false), 1
	apply(b, 6.57, timeline.Observation{Pod: pod("a", again)})
	p := b.Snapshot().Pods.At(0)
	exit := find(t, p, "s1", timeline.MExit, 0)
	if exit.Source != timeline.SourceInferred || exit.Earliest.Before(sec(6.2)) || exit.Latest.After(sec(6.36)) {
		t.Errorf("implied exit %s [%s, %s], want inferred within [6.2, 6.36]", exit.Source,
			exit.Earliest.Sub(t0), exit.Latest.Sub(t0))
	}
	before(t, find(t, p, "s1", timeline.MSigterm, 0), exit)
	before(t, exit, find(t, p, "s1", timeline.MRestart, 1))
}

// TestStartedFlagLate: the kubelet's status can show a started flag up to a second after it
// changed, so the observation before it does not bound it from below (seen in e2e
// TestMatrixStartupProbesSerial: s2 was created before the status showed s1 started).
func TestStartedFlagLate(t *testing.T) {
	b := timeline.NewBuilder()
	side := running("s1", timeline.KindSidecar, 1, false, "c1")
	side.HasStartupProbe, side.Status.Started = true, boolp(false)
	apply(b, 1.5, timeline.Observation{Type: timeline.Added, Pod: pod("a", side)})
	apply(b, 5.06, timeline.Observation{Pod: pod("a", side)})
	up := running("s1", timeline.KindSidecar, 1, true, "c1")
	up.HasStartupProbe = true
	apply(b, 5.56, timeline.Observation{Pod: pod("a", up)})
	p := b.Snapshot().Pods.At(0)
	started := find(t, p, "s1", timeline.MStarted, 0)
	if want := sec(5.06).Add(-time.Second); started.Earliest.After(want) {
		t.Errorf("started earliest %s, want at most %s", started.Earliest.Sub(t0), want.Sub(t0))
	}
}

// TestSidecarSignalledLateInItsTurn: after the app completes by itself, s2 is signalled and
// exits, then s1's turn comes; the kubelet learns of s2's exit only at its next relist of the
// containers, which on a loaded node came 1.3 s past s2's whole-second finishedAt. s1's SIGTERM
// then still lies in its bounds (the end-to-end suite caught a bound of one second there).
func TestSidecarSignalledLateInItsTurn(t *testing.T) {
	b := timeline.NewBuilder()
	up := pod("a", running("s1", timeline.KindSidecar, 1, true, "1"), running("s2", timeline.KindSidecar, 2, true, "2"),
		running("app", timeline.KindApp, 3, true, "3"))
	up.RestartPolicy = "Never"
	apply(b, 4, timeline.Observation{Type: timeline.Added, Pod: up})
	appDone := pod("a", up.Containers[0], up.Containers[1], exited("app", timeline.KindApp, 3, 44, 0, "3"))
	appDone.RestartPolicy = "Never"
	apply(b, 44.6, timeline.Observation{Pod: appDone})
	for _, c := range []string{"s1", "s2"} {
		apply(b, 44.7, timeline.Observation{Event: killing("a", c, "initContainers", 44.5)})
	}
	s2Done := pod("a", up.Containers[0], exited("s2", timeline.KindSidecar, 2, 46, 0, "2"), appDone.Containers[2])
	s2Done.RestartPolicy = "Never"
	apply(b, 46.9, timeline.Observation{Pod: s2Done})
	done := pod("a", exited("s1", timeline.KindSidecar, 1, 49, 0, "1"), s2Done.Containers[1], appDone.Containers[2])
	done.RestartPolicy, done.Phase = "Never", "Succeeded"
	apply(b, 49.6, timeline.Observation{Pod: done})
	p := b.Snapshot().Pods.At(0)
	s1t := find(t, p, "s1", timeline.MSigterm, 0)
	// s2 exited in [46, 47); the kubelet signalled s1 at 48.3, 1.3 s past that second.
	contains(t, "s1 SIGTERM", s1t, sec(48.3))
	if !s1t.Earliest.Before(s1t.Latest) || s1t.At.Before(s1t.Earliest) || s1t.At.After(s1t.Latest) {
		t.Errorf("s1 SIGTERM at %s outside its own [%s, %s]", s1t.At, s1t.Earliest, s1t.Latest)
	}
}

// TestPodsInCreationOrder: a snapshot lists pods by creation, those made in the same instant in
// the order they arrived, however they arrive and when a pod's creationTimestamp changes.
func TestPodsInCreationOrder(t *testing.T) {
	b := timeline.NewBuilder()
	created := map[string]float64{}
	var arrived []string
	at := 1.0
	add := func(name string, c float64) {
		p := pod("uid-"+name, running("app", timeline.KindApp, c+0.5, false, "c-"+name))
		p.Name, p.Created = name, sec(c)
		if _, ok := created[name]; !ok {
			arrived = append(arrived, name)
		}
		created[name] = c
		at += 0.1
		apply(b, at, timeline.Observation{Pod: p})
		want := slices.Clone(arrived)
		slices.SortStableFunc(want, func(x, y string) int {
			switch {
			case created[x] < created[y]:
				return -1
			case created[x] > created[y]:
				return 1
			}
			return 0
		})
		var got []string
		for _, p := range b.Snapshot().Pods.Items() {
			got = append(got, p.Name)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("after %s (created at %vs): pods %v, want %v", name, c, got, want)
		}
	}
	for _, p := range []struct {
		name string
		c    float64
	}{{"c", 3}, {"a", 1}, {"b", 2}, {"d", 2}, {"e", 0.5}, {"f", 3}, {"a", 2.5}, {"g", 2.5}, {"e", 4}} {
		add(p.name, p.c)
	}
}

// TestPodsInCreationOrderFarBack: pods that arrive far from their place by creation (a scope's
// first list, in the API server's order) are listed by creation all the same, ties in arrival
// order, with snapshots taken between arrivals or not.
func TestPodsInCreationOrderFarBack(t *testing.T) {
	for _, every := range []int{1, 7, 50, 1000} {
		b := timeline.NewBuilder()
		type arrival struct {
			name string
			c    float64
		}
		var arrived []arrival
		for i := range 300 {
			c := float64((299-i)/3) + 1 // reverse creation order, three pods a second
			if i%10 == 0 {
				c = float64(i%7) + 0.5 // and some in between
			}
			name := fmt.Sprintf("p%03d", i)
			p := pod("uid-"+name, running("app", timeline.KindApp, c+0.5, false, "c-"+name))
			p.Name, p.Created = name, sec(c)
			arrived = append(arrived, arrival{name, c})
			apply(b, 200+float64(i)/100, timeline.Observation{Pod: p})
			if i%every == 0 {
				b.Snapshot()
			}
		}
		want := slices.Clone(arrived)
		slices.SortStableFunc(want, func(x, y arrival) int {
			switch {
			case x.c < y.c:
				return -1
			case x.c > y.c:
				return 1
			}
			return 0
		})
		var got, wantNames []string
		for _, p := range b.Snapshot().Pods.Items() {
			got = append(got, p.Name)
		}
		for _, a := range want {
			wantNames = append(wantNames, a.name)
		}
		if !slices.Equal(got, wantNames) {
			t.Errorf("snapshot every %d pods: pods %v, want %v", every, got, wantNames)
		}
	}
}
