package play

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// t0 is the pod's creation time in the recording below.
var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

// podObs is a watch event of pod "web" received s seconds after t0.
func podObs(s float64, typ timeline.WatchType, phase, status string, init, side, app *timeline.ContainerStatus, conds ...timeline.Condition) timeline.Observation {
	return timeline.Observation{Received: at(s), Type: typ, Pod: &timeline.PodObservation{
		UID: "uid-web", Namespace: "ns", Name: "web", ResourceVersion: status, Node: "node-1",
		Created: t0, GracePeriod: 30, RestartPolicy: "Never", Phase: phase, Status: status, Conditions: conds,
		Containers: []timeline.ContainerObservation{
			{Name: "init", Kind: timeline.KindInit, Status: init},
			{Name: "side", Kind: timeline.KindSidecar, HasStartupProbe: true, Status: side},
			{Name: "app", Kind: timeline.KindApp, Status: app},
		},
	}}
}

func running(s int) *timeline.ContainerStatus {
	f := false
	return &timeline.ContainerStatus{Started: &f, Running: &timeline.Running{StartedAt: at(float64(s))}}
}

func ready(s int) *timeline.ContainerStatus {
	tr := true
	return &timeline.ContainerStatus{Started: &tr, Ready: true, Running: &timeline.Running{StartedAt: at(float64(s))}}
}

func exited(from, to int) *timeline.ContainerStatus {
	f := false
	return &timeline.ContainerStatus{Started: &f, Terminated: &timeline.Terminated{
		Reason: "Completed", StartedAt: at(float64(from)), FinishedAt: at(float64(to))}}
}

func waiting(reason string) *timeline.ContainerStatus {
	return &timeline.ContainerStatus{Waiting: &timeline.Waiting{Reason: reason}}
}

// recording is a pod whose init container runs, then its sidecar with a startup probe, then
// its app, which exits; the pod is deleted.
func recording() []timeline.Observation {
	cond := func(typ string, s int) timeline.Condition {
		return timeline.Condition{Type: typ, Status: "True", LastTransition: at(float64(s))}
	}
	return []timeline.Observation{
		podObs(0.2, timeline.Added, "Pending", "Pending", nil, nil, nil),
		podObs(0.4, timeline.Modified, "Pending", "Init:0/2", waiting("PodInitializing"), waiting("PodInitializing"), waiting("PodInitializing"), cond("PodScheduled", 0)),
		podObs(1.3, timeline.Modified, "Pending", "Init:0/2", running(1), waiting("PodInitializing"), waiting("PodInitializing"), cond("PodScheduled", 0)),
		podObs(3.2, timeline.Modified, "Pending", "Init:1/2", exited(1, 3), running(3), waiting("PodInitializing"), cond("PodScheduled", 0)),
		podObs(5.1, timeline.Modified, "Running", "Running", exited(1, 3), ready(3), running(5), cond("PodScheduled", 0), cond("Initialized", 5)),
		podObs(6.3, timeline.Modified, "Running", "Running", exited(1, 3), ready(3), ready(5), cond("PodScheduled", 0), cond("Initialized", 5), cond("Ready", 6)),
		podObs(9.4, timeline.Modified, "Succeeded", "Completed", exited(1, 3), exited(3, 9), exited(5, 9), cond("PodScheduled", 0), cond("Initialized", 5)),
		podObs(10.0, timeline.Deleted, "Succeeded", "Completed", exited(1, 3), exited(3, 9), exited(5, 9), cond("PodScheduled", 0), cond("Initialized", 5)),
	}
}

// newTestReplay is a replay whose clock moves 0.1 s a tick at 1×, driven by the test: tick
// moves it, each command runs at once (flush).
func newTestReplay(speed float64) *Replay {
	return NewReplay(recording(), speed, false, 100*time.Millisecond)
}

// flush runs the commands sent so far, as Run would.
func flush(r *Replay) {
	for {
		select {
		case f := <-r.cmds:
			f()
			r.publish()
		default:
			return
		}
	}
}

func tick(r *Replay, n int) {
	for range n {
		if r.advance() {
			r.publish()
		}
	}
}

// latest is the last frame the replay handed out.
func latest(t *testing.T, r *Replay) Frame {
	t.Helper()
	select {
	case f := <-r.frames:
		r.frames <- f
		return f
	default:
		t.Fatal("no frame")
		return Frame{}
	}
}

func TestReplayPlayPauseSpeed(t *testing.T) {
	r := newTestReplay(1)
	if f := latest(t, r); !f.Now.Equal(at(0.2)) || f.Snapshot.Pods.Len() != 1 || r.applied != 1 {
		t.Fatalf("start: now %v, %d pods, %d applied; want %v, 1, 1", f.Now, f.Snapshot.Pods.Len(), r.applied, at(0.2))
	}
	type state struct {
		Playhead time.Duration
		Speed    float64
		Paused   bool
		Pos      time.Duration
	}
	get := func() state {
		f := latest(t, r)
		return state{f.Now.Sub(t0), f.Replay.Speed, f.Replay.Paused, f.Replay.Pos}
	}
	var got []state
	tick(r, 2) // 1×: 0.1s a tick
	got = append(got, get())
	r.TogglePause()
	flush(r)
	tick(r, 3) // paused
	got = append(got, get())
	r.SetSpeed(2)
	r.TogglePause()
	flush(r)
	tick(r, 1)
	got = append(got, get())
	r.SetSpeed(10)
	flush(r)
	tick(r, 1)
	got = append(got, get())
	r.CycleSpeed() // 10× → max
	flush(r)
	got = append(got, get())
	r.CycleSpeed() // max → 1×
	flush(r)
	got = append(got, get())
	ms := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	want := []state{
		{ms(0.4), 1, false, ms(0.2)},
		{ms(0.4), 1, true, ms(0.2)},
		{ms(0.6), 2, false, ms(0.4)},
		{ms(1.6), 10, false, ms(1.4)},
		{ms(1.6), SpeedMax, false, ms(1.4)},
		{ms(1.6), 1, false, ms(1.4)},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("replay states (-got +want):\n%s", diff)
	}
	if r.applied != 3 {
		t.Errorf("at +1.6s %d observations applied, want 3", r.applied)
	}
}

func TestReplayMaxAndEnd(t *testing.T) {
	r := newTestReplay(SpeedMax)
	tick(r, 1)
	f := latest(t, r)
	if !f.Replay.AtEnd || !f.Replay.Paused || !f.Now.Equal(at(10)) {
		t.Fatalf("max: at end %v paused %v now %v; want true, true, %v", f.Replay.AtEnd, f.Replay.Paused, f.Now, at(10))
	}
	if !f.Snapshot.Pods.At(0).Deleted {
		t.Error("the whole recording is applied but the pod is not deleted")
	}
	r.Restart()
	flush(r)
	if f := latest(t, r); !f.Now.Equal(at(0.2)) || r.applied != 1 || f.Replay.AtEnd {
		t.Errorf("after restart: now %v applied %d", f.Now, r.applied)
	}
	r.SeekEnd()
	flush(r)
	if f := latest(t, r); !f.Replay.AtEnd || !f.Replay.Paused {
		t.Error("SeekEnd did not go to the end, paused")
	}
	r.TogglePause() // at the end: plays again from the start
	flush(r)
	if f := latest(t, r); f.Replay.Paused || !f.Now.Equal(at(0.2)) {
		t.Errorf("play at the end: paused %v now %v; want playing from %v", f.Replay.Paused, f.Now, at(0.2))
	}
}

// milestoneCount counts the pod's milestones in a frame.
func milestoneCount(f Frame) int {
	if f.Snapshot.Pods.Len() == 0 {
		return 0
	}
	return len(f.Snapshot.Pods.At(0).Rows())
}

func TestReplayStep(t *testing.T) {
	r := newTestReplay(1)
	f := latest(t, r)
	counts := []int{milestoneCount(f)}
	times := []time.Time{f.Now}
	for range 20 {
		r.Step(1, "uid-web")
		flush(r)
		f = latest(t, r)
		if !f.Replay.Paused {
			t.Fatal("a step did not pause")
		}
		counts = append(counts, milestoneCount(f))
		times = append(times, f.Now)
		if f.Replay.AtEnd {
			break
		}
	}
	if !f.Replay.AtEnd {
		t.Fatal("20 steps did not reach the end")
	}
	for i := 1; i < len(counts); i++ {
		if !times[i].After(times[i-1]) || counts[i] <= counts[i-1] {
			t.Errorf("step %d: at %v with %d milestones, after %v with %d; want later and more",
				i, times[i].Sub(t0), counts[i], times[i-1].Sub(t0), counts[i-1])
		}
	}
	// Back again, step by step, through the same moments.
	for i := len(times) - 2; i >= 0; i-- {
		r.Step(-1, "uid-web")
		flush(r)
		f = latest(t, r)
		if !f.Now.Equal(times[i]) || milestoneCount(f) != counts[i] {
			t.Errorf("back to step %d: at %v with %d milestones, want %v with %d",
				i, f.Now.Sub(t0), milestoneCount(f), times[i].Sub(t0), counts[i])
		}
	}
}

func TestNextSpeed(t *testing.T) {
	var got []string
	s := 1.0
	for range 5 {
		s = NextSpeed(s)
		got = append(got, strings.TrimSpace(time.Duration(s).String()))
	}
	if diff := cmp.Diff([]string{"2ns", "10ns", "0s", "1ns", "2ns"}, got); diff != "" {
		t.Errorf("speeds (-want +got):\n%s", diff)
	}
}
