package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
)

// plainFeed hands a plain printer the player's frames and, between them, the time: a line the
// printer holds (ui.Plain prints milestones in estimate order, a horizon late) comes out once
// the time is past it, even while no frame comes: live, when nothing changes; in a paced replay,
// while the player waits for the next item. Frames and the clock come from two goroutines; the
// lock keeps their writes apart.
type plainFeed struct {
	mu    sync.Mutex
	p     *ui.Plain
	w     io.Writer
	clock func() time.Time
	// rate is recorded time per wall time: 1 live, the speed in a paced replay, 0 when nothing
	// waits (a replay as fast as it can), so that no clock is needed.
	rate     float64
	at, wall time.Time // the time advanced to, and when (by the clock) it last moved
	// ceiling, in a replay, is the time of the latest item the player has read: all before it
	// is in a frame, so the clock may reach it but never pass it, however slowly the player
	// runs. Zero live, where the clock is the receive times' own.
	ceiling time.Time
	report  reportOptions
	lanes   *laneFilter // -c: the lanes printed; the workload's summary is of whole pods
	// rests, live, lets the clock stop while no line is held: nothing is printed by it then, and
	// the next frame sets the time it moves from. (A replay's clock runs on: where the ceiling
	// stops it, the time it stood still at is where it goes on from.)
	rests bool
	wake  chan struct{} // a frame left lines held: a resting clock runs again
}

func newPlainFeed(w io.Writer, rate float64, report reportOptions, lanes *laneFilter) *plainFeed {
	p := ui.NewPlain(w)
	p.SetExplain(report.explain)
	return &plainFeed{p: p, w: w, clock: time.Now, rate: rate, report: report, lanes: lanes, wake: make(chan struct{}, 1)}
}

// frame learns a frame's snapshot and prints what is past the horizon of its time.
func (f *plainFeed) frame(fr play.Frame) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.p.Update(f.lanes.snapshot(fr.Snapshot))
	f.advance(fr.Now)
	f.wall = f.clock()
	if f.p.Held() > 0 {
		select {
		case f.wake <- struct{}{}:
		default: // already woken
		}
	}
}

// advance prints what is past the horizon of now, never going back.
func (f *plainFeed) advance(now time.Time) {
	if now.After(f.at) {
		f.at = now
	}
	f.p.Advance(f.at)
}

// idle says that a replay skipped a pause of gap after the last frame: what came before the
// pause is printed first, since nothing arrived during it.
func (f *plainFeed) idle(gap time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.advance(f.at.Add(gap))
	fmt.Fprintf(f.w, "… %s idle, skipped\n", ui.IdleDur(gap))
}

// tick advances to the time the clock says has passed since the last frame, at rate. It reports
// whether the clock is to go on: not when it may rest and no line is held.
func (f *plainFeed) tick() (more bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.rate <= 0 || f.at.IsZero() {
		return !f.rests
	}
	now := f.at.Add(time.Duration(float64(f.clock().Sub(f.wall)) * f.rate))
	if !f.ceiling.IsZero() && now.After(f.ceiling) {
		now = f.ceiling
	}
	f.advance(now)
	f.wall = f.clock()
	return !f.rests || f.p.Held() > 0
}

// source wraps a recording's records so that the feed knows the time of each item the player
// reads: the clock's ceiling.
func (f *plainFeed) source(src source.Records) source.Records { return ceilingSource{src, f} }

type ceilingSource struct {
	source.Records
	f *plainFeed
}

func (c ceilingSource) Next(ctx context.Context) (recfile.Record, error) {
	r, err := c.Records.Next(ctx)
	if err == nil {
		c.raise(r.Time)
	}
	return r, err
}

func (c ceilingSource) raise(t time.Time) {
	c.f.mu.Lock()
	if t.After(c.f.ceiling) {
		c.f.ceiling = t
	}
	c.f.mu.Unlock()
}

// run ticks every interval until ctx ends; it returns at once when nothing waits (rate 0). A
// clock that may rest stops while no line is held, until a frame holds one: a live watch that
// sees nothing new no longer wakes ten times a second to print nothing (half of what an idle
// watch of one pod had cost).
func (f *plainFeed) run(ctx context.Context, interval time.Duration) {
	if f.rate <= 0 {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	running := true
	for {
		select {
		case <-t.C:
			if !f.tick() {
				t.Stop()
				running = false
			}
		case <-f.wake:
			if !running {
				t.Reset(interval)
				running = true
			}
		case <-ctx.Done():
			return
		}
	}
}

// start runs the clock in a goroutine; the function it returns stops it and waits for it.
func (f *plainFeed) start(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.run(ctx, 100*time.Millisecond)
	}()
	return func() {
		cancel()
		<-done
	}
}

// finish prints what is held, the summary of each pod and job, and with --summary the
// workload's; it returns the first error writing.
func (f *plainFeed) finish(final timeline.Snapshot) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.p.Summary(f.lanes.snapshot(final))
	if f.report.summary {
		f.p.Workload(timeline.Summarize(final))
	}
	return f.p.Err()
}
