package main

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// feed pumps a Source: each item is recorded (if recording), translated, applied to the feed's
// own builder, and handed to the view. The feed runs in one goroutine and owns its builder;
// the view gets observations, never the builder.
type feed struct {
	src     watch.Source
	rec     *watch.Recorder
	builder *timeline.Builder
	target  watch.Target
	until   untilCondition
	linger  time.Duration // how long to go on once until is met, for the Events that trail it
	items   int
}

func newFeed(src watch.Source, t watch.Target) *feed {
	return &feed{src: src, target: t, builder: timeline.NewBuilder()}
}

// run reads until the source ends, ctx ends, or the until condition has held for linger.
// emit gets each observation; warn gets watch errors, which are not fatal. met reports whether
// the until condition was met.
func (f *feed) run(ctx context.Context, emit func(timeline.Observation), warn func(error)) (met bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for {
		it, err := f.src.Next(ctx)
		var werr *watch.WatchError
		switch {
		case errors.As(err, &werr):
			warn(werr)
			continue
		case err == io.EOF, err != nil && ctx.Err() != nil:
			return met, nil
		case err != nil:
			return met, err
		}
		if f.rec != nil {
			if err := f.rec.Write(it); err != nil {
				return met, err
			}
		}
		f.items++
		o, ok := watch.Observe(it)
		if !ok {
			continue
		}
		f.builder.Apply(o)
		emit(o)
		if !met && f.until.met(f.target, f.builder.Snapshot()) {
			met = true
			if f.linger <= 0 {
				return met, nil
			}
			time.AfterFunc(f.linger, cancel)
		}
	}
}
