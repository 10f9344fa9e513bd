package play

import (
	"context"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestReplayAdd: a replay made before anything was read (a recording read from a pipe whose
// writer has not closed it) is empty, then plays what Add gives it as it comes: at its end it
// plays on into what comes next, and observations that come out of order are placed where they
// belong. It ends where a replay made with every observation at once ends, its clock the same.
func TestReplayAdd(t *testing.T) {
	rec := recording()
	r := NewReplay(nil, 1, false, 100*time.Millisecond)
	if f := latest(t, r); !f.Replay.Empty || f.Snapshot.Pods.Len() != 0 {
		t.Fatalf("before anything is read: empty %v, %d pods; want empty", f.Replay.Empty, f.Snapshot.Pods.Len())
	}
	ctx := context.Background()
	add := func(from, to int) {
		t.Helper()
		if err := r.Add(ctx, rec[from:to]); err != nil {
			t.Fatal(err)
		}
		flush(r)
	}
	add(0, 3)
	tick(r, 200) // far past the end of what it has: it stops there
	if f := latest(t, r); f.Replay.Empty || !f.Replay.AtEnd || !f.Replay.Paused || r.applied != 3 {
		t.Fatalf("after the first three: empty %v, at end %v, paused %v, %d applied; want all three played", f.Replay.Empty, f.Replay.AtEnd, f.Replay.Paused, r.applied)
	}
	add(3, 5)
	if f := latest(t, r); f.Replay.Paused || f.Replay.AtEnd {
		t.Fatalf("more came at the end: paused %v, at end %v; want it playing on", f.Replay.Paused, f.Replay.AtEnd)
	}
	tick(r, 200)
	if r.applied != 5 {
		t.Fatalf("%d applied, want 5", r.applied)
	}
	// The last two out of order, and one earlier than some played already.
	late := []timeline.Observation{rec[7], rec[6], rec[5]}
	if err := r.Add(ctx, late[:2]); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(ctx, late[2:]); err != nil {
		t.Fatal(err)
	}
	flush(r)
	tick(r, 200)

	whole := NewReplay(rec, 1, false, 100*time.Millisecond)
	whole.SeekEnd()
	flush(whole)
	got, want := latest(t, r), latest(t, whole)
	if !got.Replay.AtEnd || r.applied != len(rec) || got.Replay.Total != want.Replay.Total || !got.Now.Equal(want.Now) {
		t.Errorf("at the end: at end %v, %d applied, total %v, now %v; want %d applied, %v, %v", got.Replay.AtEnd, r.applied,
			got.Replay.Total, got.Now, len(rec), want.Replay.Total, want.Now)
	}
	if g, w := got.Snapshot.Pods.At(0).Status, want.Snapshot.Pods.At(0).Status; g != w {
		t.Errorf("pod status %q, want %q", g, w)
	}
	for i := range rec {
		if r.clock[i] != whole.clock[i] {
			t.Errorf("clock[%d] = %v, want %v", i, r.clock[i], whole.clock[i])
		}
	}

	// One paused by the user keeps still when more comes.
	p := NewReplay(rec[:3], 1, true, 100*time.Millisecond)
	if err := p.Add(ctx, rec[3:]); err != nil {
		t.Fatal(err)
	}
	flush(p)
	if f := latest(t, p); !f.Replay.Paused || p.applied != 1 {
		t.Errorf("paused at the start: paused %v, %d applied; want still paused at 1", f.Replay.Paused, p.applied)
	}
}

// TestReplayAddIdle: pauses longer than the idle limit among observations added are cut as among
// those the replay was made with.
func TestReplayAddIdle(t *testing.T) {
	rec := recording()
	r := NewReplay(rec[:4], 1, false, 100*time.Millisecond)
	r.SetIdleLimit(time.Second)
	flush(r)
	if err := r.Add(context.Background(), rec[4:]); err != nil {
		t.Fatal(err)
	}
	flush(r)
	whole := NewReplay(rec, 1, false, 100*time.Millisecond)
	whole.SetIdleLimit(time.Second)
	flush(whole)
	if len(r.cuts) != len(whole.cuts) || r.end() != whole.end() {
		t.Errorf("%d cuts, end %v; want %d, %v", len(r.cuts), r.end(), len(whole.cuts), whole.end())
	}
	for i := range min(len(r.cuts), len(whole.cuts)) {
		if r.cuts[i] != whole.cuts[i] {
			t.Errorf("cut %d: %+v, want %+v", i, r.cuts[i], whole.cuts[i])
		}
	}
}
