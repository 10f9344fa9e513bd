package play

import (
	"context"
	"io"
	"time"
)

// RunFile plays a recording through the engine in recorded time: a frame at most once per
// Options.Frame of it, when something changed, and one at the end. At speed 0 it runs as fast as
// it can; at a positive speed it waits between items as long as they were apart when recorded,
// divided by speed. It reads the source as it goes and holds no item. show may be nil.
func RunFile(ctx context.Context, src Source, speed float64, opts Options, show func(Frame)) (Result, error) {
	return RunFilePaced(ctx, src, Pace{Speed: speed}, opts, show)
}

// Pace is how RunFilePaced paces a recording.
type Pace struct {
	// Speed is a multiple of the recorded pace; 0 plays as fast as it can.
	Speed float64
	// IdleLimit, when positive, is the longest pause between two items played at 1× (at 2×,
	// half of it): a longer one, even of years between items stamped absurdly, is cut to it.
	IdleLimit time.Duration
	// Idle, if set, is told of each pause cut, with how long the recording paused, after the
	// frame that shows what came before it.
	Idle func(gap time.Duration)
}

// RunFilePaced is RunFile at a pace that may cut long pauses, as asciinema's idle time limit does.
func RunFilePaced(ctx context.Context, src Source, pace Pace, opts Options, show func(Frame)) (Result, error) {
	// Frames in between are for someone who looks at them or for --until; without either (replay
	// -o json) only the end is derived.
	r := &fileRun{e: NewEngine(), opts: opts, show: show, frames: show != nil || opts.Until != nil}
	for {
		it, err := src.Next(ctx)
		if err == io.EOF || (err != nil && ctx.Err() != nil) {
			break
		}
		if err != nil {
			return r.res, err
		}
		if !r.wait(ctx, pace, it.Time) {
			break
		}
		r.prev = it.Time
		if r.frames && r.e.Changed() && it.Time.Sub(r.frameAt) >= opts.frame() {
			r.emit(false)
			r.frameAt = it.Time
		}
		r.e.Add(src, it)
	}
	return r.end()
}

// fileRun is what a RunFilePaced keeps between the items it applies.
type fileRun struct {
	e       *Engine
	opts    Options
	show    func(Frame) // may be nil
	frames  bool        // whether frames before the end are derived
	res     Result
	frameAt time.Time // the recorded time of the last frame
	prev    time.Time // of the last item
}

// wait waits, when the pace is recorded time, as long as the recording paused between the last
// item and one at t, first showing what there is. It reports false when ctx ended meanwhile.
func (r *fileRun) wait(ctx context.Context, pace Pace, t time.Time) bool {
	paced := pace.Speed > 0 && !r.prev.IsZero() && t.After(r.prev)
	if !paced {
		return true
	}
	if r.frames && r.e.Changed() {
		r.emit(false) // show what there is before waiting
		r.frameAt = r.e.Now()
	}
	return sleep(ctx, pace.delay(t.Sub(r.prev))) == nil
}

// delay is how long a pause of gap in the recording lasts at pace p: divided by its speed, and
// cut to its IdleLimit first (Idle told of it).
func (p Pace) delay(gap time.Duration) time.Duration {
	if p.IdleLimit > 0 && gap > p.IdleLimit {
		if p.Idle != nil {
			p.Idle(gap)
		}
		gap = p.IdleLimit
	}
	return time.Duration(float64(gap) / p.Speed)
}

// emit shows a frame, the final one from the snapshot after which nothing is read, and notes
// when Until holds.
func (r *fileRun) emit(final bool) {
	snapshot := r.e.Snapshot
	if final {
		snapshot = r.e.Final // nothing is read after it
	}
	s := snapshot()
	if !r.res.Met && r.opts.Until != nil && r.opts.Until(s) {
		r.res.Met = true
	}
	if r.show != nil {
		r.show(Frame{Snapshot: s, Now: r.e.Now(), Ended: final})
	}
}

// end is the run's result: the end to be taken pod by pod when Options.Stream asks for it, else
// the final frame shown and the final timeline.
func (r *fileRun) end() (Result, error) {
	if r.opts.Stream {
		r.res.Items, r.res.Stream = r.e.Items(), r.e.Stream()
		return r.res, nil
	}
	r.emit(true)
	r.res.Items, r.res.Final = r.e.Items(), r.e.Final()
	return r.res, nil
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
