package main

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
)

// growing reports whether a recording is to be read as it is written: r is a named pipe, a
// terminal or another file that is not a regular one, whose end may never come. A regular file
// (or a recording built in) is read whole before it is played.
func growing(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && !fi.Mode().IsRegular()
}

// replayGrowing plays in the view a recording read as it comes (growing): the view starts at once
// and shows what has been read, the replay playing on into what comes next, and q quits whether
// or not the writer ever closes its end. An error reading is said once the view has quit.
func replayGrowing(ctx context.Context, s streams, mode ui.ColorMode, rd *recfile.Reader, opts *replayOptions, name, target, ns string, view *viewOptions) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := play.NewReplay(nil, opts.speed, false, 0)
	r.SetIdleLimit(opts.idleLimit)
	type result struct {
		n   int
		err error
	}
	read := make(chan result, 1)
	go func() {
		n, err := feedReplay(ctx, rd, r)
		read <- result{n, err}
	}()
	err := runReplayView(ctx, s, mode, r, target, ns, view)
	cancel()
	select {
	case res := <-read: // a read blocked on the pipe is left to end with the program
		switch {
		case res.err != nil && !errors.Is(res.err, context.Canceled):
			return res.err
		case res.n == 0:
			return errNothing(name)
		}
		sayTruncated(s, name, rd)
	default:
	}
	return err
}

// feedReplay reads the recording's observations and gives them to r as they come, as many at a
// time as have come while r took the last: one at a time from a slow writer, in batches from a
// fast one. It returns how many it gave, at the end of the recording or at the first error.
func feedReplay(ctx context.Context, rd *recfile.Reader, r *play.Replay) (n int, err error) {
	obs := make(chan timeline.Observation, feedBatch)
	var readErr error
	go func() {
		defer close(obs)
		for {
			r, err := rd.Next(ctx)
			if err != nil {
				if err != io.EOF {
					readErr = err
				}
				return
			}
			if !r.IsObs {
				continue
			}
			select {
			case obs <- r.Obs:
			case <-ctx.Done():
				return
			}
		}
	}()
	batch := make([]timeline.Observation, 0, feedBatch)
	for o := range obs {
		batch = append(batch[:0], o)
	more:
		for len(batch) < feedBatch {
			select {
			case o, ok := <-obs:
				if !ok {
					break more
				}
				batch = append(batch, o)
			default:
				break more
			}
		}
		if err := r.Add(ctx, batch); err != nil {
			return n, err
		}
		n += len(batch)
	}
	return n, readErr // read after obs is closed, which the reading goroutine does last
}

// feedBatch is the most observations feedReplay hands over at a time.
const feedBatch = 4096
