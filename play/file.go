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
	e := NewEngine()
	var res Result
	var frameAt, prev time.Time
	// Frames in between are for someone who looks at them or for --until; without either (replay
	// -o json) only the end is derived.
	frames := show != nil || opts.Until != nil
	emit := func(final bool) {
		snapshot := e.Snapshot
		if final {
			snapshot = e.Final // nothing is read after it
		}
		s := snapshot()
		if !res.Met && opts.Until != nil && opts.Until(s) {
			res.Met = true
		}
		if show != nil {
			show(Frame{Snapshot: s, Now: e.Now(), Ended: final})
		}
	}
	for {
		it, err := src.Next(ctx)
		if err == io.EOF || (err != nil && ctx.Err() != nil) {
			break
		}
		if err != nil {
			return res, err
		}
		if pace.Speed > 0 && !prev.IsZero() && it.Time.After(prev) {
			if frames && e.Changed() {
				emit(false) // show what there is before waiting
				frameAt = e.Now()
			}
			gap := it.Time.Sub(prev)
			if pace.IdleLimit > 0 && gap > pace.IdleLimit {
				if pace.Idle != nil {
					pace.Idle(gap)
				}
				gap = pace.IdleLimit
			}
			if err := sleep(ctx, time.Duration(float64(gap)/pace.Speed)); err != nil {
				break
			}
		}
		prev = it.Time
		if frames && e.Changed() && it.Time.Sub(frameAt) >= opts.frame() {
			emit(false)
			frameAt = it.Time
		}
		e.Add(src, it)
	}
	if opts.Stream {
		res.Items, res.Stream = e.Items(), e.Stream()
		return res, nil
	}
	emit(true)
	res.Items, res.Final = e.Items(), e.Final()
	return res, nil
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
