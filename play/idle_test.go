package play

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// idleRecording is recording() with one observation stamped in 1970 and the pod's deletion seen
// again ten minutes after the rest.
func idleRecording() []timeline.Observation {
	obs := recording()
	early := obs[0]
	early.Received = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	late := obs[len(obs)-1]
	late.Received = at(610)
	return append(append([]timeline.Observation{early}, obs...), late)
}

// TestReplayIdleLimit: with a limit of 2 s, the pauses 1970 → +0.2s, +6.3s → +9.4s and +10s →
// +610s each play for 2 s; the clock spans seconds, not decades; the frame says which pause was
// cut, and Now shows the recorded moment, jumping at the end of a cut pause.
func TestReplayIdleLimit(t *testing.T) {
	r := NewReplay(idleRecording(), 10, false, 100*time.Millisecond) // 1 s of replay clock a tick
	r.SetIdleLimit(2 * time.Second)
	flush(r)
	type state struct {
		Pos     time.Duration
		Now     string
		Applied int
		Idle    IdleCut
		AtEnd   bool
	}
	get := func() state {
		f := latest(t, r)
		return state{f.Replay.Pos, f.Now.Format("2006-01-02T15:04:05.0"), r.applied, f.Replay.Idle, f.Replay.AtEnd}
	}
	if got := latest(t, r).Replay.Total; got != 12700*time.Millisecond {
		t.Errorf("total %v, want 12.7s", got)
	}
	got := []state{get()}
	for range 14 {
		tick(r, 1)
		got = append(got, get())
	}
	s := time.Second
	ms := time.Millisecond
	epoch := IdleCut{From: 0, To: 2 * s, Gap: at(0.2).Sub(time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC))}
	drain := IdleCut{From: 8100 * ms, To: 10100 * ms, Gap: 3100 * ms}
	late := IdleCut{From: 10700 * ms, To: 12700 * ms, Gap: 600 * s}
	want := []state{
		{0, "1970-01-01T00:00:00.0", 1, epoch, false},
		{1 * s, "1970-01-01T00:00:01.0", 1, epoch, false},
		{2 * s, "2025-03-01T10:00:00.2", 2, epoch, false},
		{3 * s, "2025-03-01T10:00:01.2", 3, epoch, false},
		{4 * s, "2025-03-01T10:00:02.2", 4, epoch, false},
		{5 * s, "2025-03-01T10:00:03.2", 5, epoch, false},
		{6 * s, "2025-03-01T10:00:04.2", 5, epoch, false},
		{7 * s, "2025-03-01T10:00:05.2", 6, epoch, false},
		{8 * s, "2025-03-01T10:00:06.2", 6, epoch, false},
		{9 * s, "2025-03-01T10:00:07.2", 7, drain, false},
		{10 * s, "2025-03-01T10:00:08.2", 7, drain, false},
		{11 * s, "2025-03-01T10:00:10.3", 9, late, false},
		{12 * s, "2025-03-01T10:00:11.3", 9, late, false},
		{12700 * ms, "2025-03-01T10:10:10.0", 10, late, true},
		{12700 * ms, "2025-03-01T10:10:10.0", 10, late, true},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("replay states (-got +want):\n%s", diff)
	}
}

// TestReplaySetIdleLimit: changing the limit keeps the playhead at the same recorded moment,
// with the same observations applied; zero plays every pause as recorded.
func TestReplaySetIdleLimit(t *testing.T) {
	r := NewReplay(idleRecording(), 1, true, 100*time.Millisecond)
	r.SetIdleLimit(time.Second)
	flush(r)
	r.Step(1)
	r.Step(1)
	r.Step(1)
	flush(r)
	before, applied := latest(t, r).Now, r.applied
	for _, d := range []time.Duration{0, 5 * time.Second, time.Second} {
		r.SetIdleLimit(d)
		flush(r)
		f := latest(t, r)
		if !f.Now.Equal(before) || r.applied != applied || f.Replay.IdleLimit != d {
			t.Errorf("limit %v: now %v, %d applied, limit %v; want %v, %d, %v", d, f.Now, r.applied, f.Replay.IdleLimit, before, applied, d)
		}
	}
	r.SetIdleLimit(0)
	flush(r)
	if f := latest(t, r); f.Replay.Total != at(610).Sub(time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)) || f.Replay.Idle != (IdleCut{}) {
		t.Errorf("no limit: total %v, idle %+v; want the recorded span and no cut", f.Replay.Total, f.Replay.Idle)
	}
}

// TestReplayIdleStep: stepping crosses cut pauses to every moment a milestone became known.
func TestReplayIdleStep(t *testing.T) {
	r := NewReplay(idleRecording(), 1, false, 100*time.Millisecond)
	r.SetIdleLimit(time.Second)
	flush(r)
	var times []time.Time
	for range 30 {
		r.Step(1)
		flush(r)
		f := latest(t, r)
		times = append(times, f.Now)
		if f.Replay.AtEnd {
			break
		}
	}
	if last := times[len(times)-1]; !last.Equal(at(610)) {
		t.Errorf("steps ended at %v, want %v", last, at(610))
	}
	for i := 1; i < len(times); i++ {
		if !times[i].After(times[i-1]) {
			t.Errorf("step %d at %v, not after %v", i, times[i], times[i-1])
		}
	}
}

// items is a Source of pods received at the given times.
type items []time.Time

func (s *items) Next(ctx context.Context) (Input, error) {
	if len(*s) == 0 {
		return Input{}, io.EOF
	}
	at := (*s)[0]
	*s = (*s)[1:]
	return podInput(at, fmt.Sprint(len(*s))), nil
}

func (s *items) Observe(in Input) (timeline.Observation, bool) { return observing{}.Observe(in) }

// TestRunFileIdle: a paced play cuts every pause longer than the limit, including those of
// items stamped decades away, and says so after the frame of what came before.
func TestRunFileIdle(t *testing.T) {
	src := items{at(0), at(1), at(3601), time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), at(3602), at(3602.5),
		time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)}
	var log []string
	pace := Pace{Speed: 1000, IdleLimit: time.Second, Idle: func(gap time.Duration) {
		log = append(log, "idle "+gap.String())
	}}
	res, err := RunFilePaced(t.Context(), &src, pace, Options{}, func(f Frame) {
		log = append(log, fmt.Sprintf("frame at %s", f.Now.Format("15:04:05.0")))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"frame at 10:00:00.0", // before the first wait
		"frame at 10:00:01.0",
		"idle 1h0m0s",
		"frame at 11:00:01.0", // the item of 1970 waits for nothing and moves no clock
		"idle " + at(3602).Sub(time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)).String(),
		"frame at 11:00:02.0",
		"frame at 11:00:02.5",
		"idle " + time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC).Sub(at(3602.5)).String(),
		"frame at 00:00:00.0", // the end, in 2099
	}
	if diff := cmp.Diff(log, want); diff != "" {
		t.Errorf("frames and cut pauses (-got +want):\n%s", diff)
	}
	if res.Items != 7 {
		t.Errorf("%d items, want 7", res.Items)
	}
}
