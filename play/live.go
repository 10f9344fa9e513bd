package play

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Options say how a run goes.
type Options struct {
	// Until, if set, stops the run once it holds of a frame's snapshot and Linger has passed
	// (for the Events that trail what it waited for).
	Until  func(timeline.Snapshot) bool
	Linger time.Duration
	// Frame is the shortest time between two frames; zero means DefaultFrame.
	Frame time.Duration
	// Stream, for a file (RunFile), ends the run with Result.Stream rather than a last frame
	// and Result.Final: for output that writes the end pod by pod (replay -o json). show and
	// Until see the frames before the end only.
	Stream bool
	// Brief, for a live scope, keeps only the pod in focus whole (see Focus); nil keeps every
	// pod whole.
	Brief *Focus
}

func (o Options) frame() time.Duration {
	if o.Frame > 0 {
		return o.Frame
	}
	return DefaultFrame
}

// Result is how a run ended.
type Result struct {
	Met   bool              // Until held
	Items int               // inputs read
	Final timeline.Snapshot // the timeline at the end
	// Stream is the end, to be taken pod by pod, when Options.Stream asked for it (Final is
	// empty then).
	Stream *timeline.Stream
}

// idleFrame is how often a live run looks for a change while none comes: often enough that a
// silent server (stale) is said within its second.
const idleFrame = 500 * time.Millisecond

// stale is how long src's server has not answered, to the second, once the source says what is
// shown is stale; zero otherwise, or when src cannot tell.
func stale(src Source) time.Duration {
	if s, ok := src.(staleSource); ok {
		return s.Stale().Truncate(time.Second)
	}
	return 0
}

// RunLive plays a source that delivers items as they happen (informers): a goroutine reads
// them, and the run applies each as it comes and shows a frame at most once per Options.Frame,
// only when something changed. It returns when the source ends (io.EOF), ctx ends, or Until has
// held for Linger; a transient error (a watch that retries) is shown, not fatal. When the
// source's server stops answering (its Stale), a frame says so each second, in Frame.Silent.
// show may be nil.
func RunLive(ctx context.Context, src Source, opts Options, show func(Frame)) (Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type read struct {
		it  Input
		err error
	}
	reads := make(chan read, 256)
	go func() {
		for {
			it, err := src.Next(ctx)
			select {
			case reads <- read{it, err}:
			case <-ctx.Done():
				return
			}
			if err != nil && !isTransient(err) {
				return
			}
		}
	}()
	e := NewEngine()
	focus, focused := opts.brief(e)
	var res Result
	// watchErr stays until a frame has shown it: warnings that come while items flow (a log
	// line sidecar-top could not use) are not lost, and those between two frames are joined.
	var watchErr error
	shown := true
	var linger <-chan time.Time
	var silent time.Duration // as the last frame said
	frame := func(final bool, end error) (shownNow bool) {
		was := silent
		silent = stale(src)
		if !e.Changed() && !final && watchErr == nil && silent == was {
			return false
		}
		s := e.Snapshot()
		if !res.Met && opts.Until != nil && opts.Until(s) {
			res.Met = true
			linger = time.After(opts.Linger)
		}
		if show != nil {
			show(Frame{Snapshot: s, Now: e.Now(), WatchErr: watchErr, Silent: silent, Listed: e.Listed(), Ended: final, Err: end})
		}
		shown = true
		return true
	}
	finish := func(err error) (Result, error) {
		frame(true, err)
		res.Items, res.Final = e.Items(), e.Snapshot()
		return res, err
	}
	// The clock ticks a frame apart while items come, and slows to idleFrame once a frame finds
	// nothing changed: a watch idles most of its life, and waking 30 times a second to find
	// nothing new was most of what it cost then. The first item after a lull wakes it again.
	tick := time.NewTicker(opts.frame())
	defer tick.Stop()
	idle := false
	for {
		select {
		case r := <-reads:
			if idle {
				idle = false
				tick.Reset(opts.frame())
			}
			switch {
			case isTransient(r.err):
				if watchErr != nil && !shown {
					watchErr = fmt.Errorf("%w; %w", watchErr, r.err)
				} else {
					watchErr = r.err
				}
				shown = false
				continue
			case r.err == io.EOF, r.err != nil && ctx.Err() != nil:
				return finish(nil)
			case r.err != nil:
				return finish(r.err)
			}
			e.Add(src, r.it)
			if shown {
				watchErr = nil
			}
		case <-tick.C:
			if !frame(false, nil) && !idle {
				idle = true
				tick.Reset(max(idleFrame, opts.frame()))
			}
		case <-focus:
			focused = opts.Brief.follow(e, focused)
			frame(false, nil)
		case <-linger:
			return finish(nil)
		case <-ctx.Done():
			return finish(nil)
		}
	}
}

// brief puts e in brief mode if the options ask for it, and is the channel that says the focus
// moved (nil if not) and the pod in focus.
func (o Options) brief(e *Engine) (<-chan struct{}, string) {
	if o.Brief == nil {
		return nil, ""
	}
	e.Brief(o.Brief.keep)
	return o.Brief.changed, o.Brief.get()
}
