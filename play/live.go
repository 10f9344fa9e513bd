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
	// Hide, for a live scope whose output shows only some pods' rows, picks the pods kept as a
	// count only (Engine.Hide); nil keeps every pod.
	Hide func(*timeline.PodObservation) bool
	// KeepFinished, for a live scope watched for hours, lets go of a pod this long after the run
	// saw it final (Engine.Retain), but the one in focus; nil keeps every pod.
	KeepFinished *time.Duration
	// Now is KeepFinished's clock; nil is time.Now.
	Now func() time.Time
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
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
	reads := readLive(ctx, src)
	r, focus := newLiveRun(src, opts, show)
	// The clock ticks a frame apart while items come, and slows to idleFrame once a frame finds
	// nothing changed: a watch idles most of its life, and waking 30 times a second to find
	// nothing new was most of what it cost then. The first item after a lull wakes it again.
	tick := time.NewTicker(opts.frame())
	defer tick.Stop()
	idle := false
	for {
		select {
		case rd := <-reads:
			if idle {
				idle = false
				tick.Reset(opts.frame())
			}
			if end, err := r.take(ctx, rd); end {
				return r.finish(err)
			}
		case <-tick.C:
			shown := r.frame(false, nil)
			r.retain()
			if !shown && !idle {
				idle = true
				tick.Reset(max(idleFrame, opts.frame()))
			}
		case <-focus:
			r.focused = opts.Brief.follow(r.e, r.focused)
			r.frame(false, nil)
		case <-r.linger:
			return r.finish(nil)
		case <-ctx.Done():
			return r.finish(nil)
		}
	}
}

// newLiveRun is a run of src with opts, its engine set up as they say, and the channel that
// says the focus changed (nil without Options.Brief).
func newLiveRun(src Source, opts Options, show func(Frame)) (*liveRun, <-chan struct{}) {
	r := &liveRun{src: src, opts: opts, show: show, e: NewEngine(), shown: true}
	if opts.Hide != nil {
		r.e.Hide(opts.Hide)
	}
	if opts.KeepFinished != nil {
		r.e.Retain(*opts.KeepFinished)
	}
	focus, focused := opts.brief(r.e)
	r.focused = focused
	return r, focus
}

// liveRead is what RunLive's reader hands on: an item, or the error that came instead.
type liveRead struct {
	it  Input
	err error
}

// readLive reads src in a goroutine of its own, handing on each item and error, until src fails
// for good or ctx ends.
func readLive(ctx context.Context, src Source) <-chan liveRead {
	reads := make(chan liveRead, 256)
	go func() {
		for {
			it, err := src.Next(ctx)
			select {
			case reads <- liveRead{it, err}:
			case <-ctx.Done():
				return
			}
			if err != nil && !isTransient(err) {
				return
			}
		}
	}()
	return reads
}

// liveRun is what a RunLive keeps between the items it applies and the frames it shows.
type liveRun struct {
	src  Source
	opts Options
	show func(Frame) // may be nil
	e    *Engine
	res  Result
	// watchErr stays until a frame has shown it: warnings that come while items flow (a log
	// line sidecar-top could not use) are not lost, and those between two frames are joined.
	watchErr error
	shown    bool
	linger   <-chan time.Time
	silent   time.Duration // as the last frame said
	focused  string        // the UID of the pod in focus (Options.Brief), "" if none
}

// take applies what the reader handed on: an item, or a transient error kept for the next frame.
// It says whether the run ends there, and with which error (none at the source's end or ctx's).
func (r *liveRun) take(ctx context.Context, rd liveRead) (end bool, err error) {
	switch {
	case isTransient(rd.err):
		if r.watchErr != nil && !r.shown {
			r.watchErr = fmt.Errorf("%w; %w", r.watchErr, rd.err)
		} else {
			r.watchErr = rd.err
		}
		r.shown = false
		return false, nil
	case rd.err == io.EOF, rd.err != nil && ctx.Err() != nil:
		return true, nil
	case rd.err != nil:
		return true, rd.err
	}
	r.e.Add(r.src, rd.it)
	if r.shown {
		r.watchErr = nil
	}
	return false, nil
}

// frame shows a frame when something changed since the last (the timeline, the watch error, the
// server's silence) or when it is the final one, and starts Linger once Until holds. It says
// whether it showed one.
func (r *liveRun) frame(final bool, end error) bool {
	was := r.silent
	r.silent = stale(r.src)
	if !r.e.Changed() && !final && r.watchErr == nil && r.silent == was {
		return false
	}
	s := r.e.Snapshot()
	if !r.res.Met && r.opts.Until != nil && r.opts.Until(s) {
		r.res.Met = true
		r.linger = time.After(r.opts.Linger)
	}
	if r.show != nil {
		r.show(Frame{Snapshot: s, Now: r.e.Now(), WatchErr: r.watchErr, Silent: r.silent, Listed: r.e.Listed(), Ended: final, Err: end})
	}
	r.shown = true
	return true
}

// retain notes the pods that are final now, by the clock, and lets go of those final for
// KeepFinished (but the one in focus): the frame that follows is without them. Called after a
// frame, it reads that frame's snapshot (or the last one, when nothing changed), and between
// changes costs next to nothing: no pod of it changed.
func (r *liveRun) retain() {
	if r.opts.KeepFinished == nil {
		return
	}
	now := r.opts.now()
	r.e.FinishedIn(r.e.Snapshot(), now)
	r.e.Sweep(now, r.focused)
}

// finish shows the final frame and ends the run with err.
func (r *liveRun) finish(err error) (Result, error) {
	r.frame(true, err)
	r.res.Items, r.res.Final = r.e.Items(), r.e.Snapshot()
	return r.res, err
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
