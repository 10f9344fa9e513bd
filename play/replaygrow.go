package play

import (
	"context"
	"slices"
	"sort"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Add gives the replay observations read after those it was made with: a recording read from a
// pipe whose writer has not closed it (a recorder still running, a FIFO) is played as it comes,
// rather than after an end that may never come. It blocks until the replay's goroutine (Run)
// takes them, or ctx ends. A replay that had played all it had plays on into them; one paused
// elsewhere stays where it is. obs is not kept.
func (r *Replay) Add(ctx context.Context, obs []timeline.Observation) error {
	if len(obs) == 0 {
		return nil
	}
	obs = slices.Clone(obs)
	select {
	case r.cmds <- func() { r.add(obs) }:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// add appends obs to the recording, in the order of their receive times. Observations later than
// all before them (the common case) are timed on the replay clock from the last one on; one
// earlier than some before it has the clock worked out again and the play applied again from the
// start to the same recorded moment.
func (r *Replay) add(obs []timeline.Observation) {
	atEnd, at := r.atEnd(), r.timeOf(r.pos)
	n := len(r.rec)
	sort.SliceStable(obs, func(i, j int) bool { return obs[i].Received.Before(obs[j].Received) })
	r.rec = append(r.rec, obs...)
	r.marks = nil // made again when asked for
	if n > 0 && obs[0].Received.Before(r.rec[n-1].Received) {
		sort.SliceStable(r.rec, func(i, j int) bool { return r.rec[i].Received.Before(r.rec[j].Received) })
		r.retime()
		r.restart()
		r.seek(r.clockOf(at))
	} else {
		r.extendClock(n)
	}
	if atEnd {
		r.paused = false
	}
}

// extendClock works out the replay clock of the observations from the from-th on, those before
// it timed already: what retime does for them.
func (r *Replay) extendClock(from int) {
	for i := from; i < len(r.rec); i++ {
		if i == 0 {
			r.clock = append(r.clock[:0], 0)
			continue
		}
		gap := r.rec[i].Received.Sub(r.rec[i-1].Received)
		if r.idleLimit > 0 && gap > r.idleLimit {
			r.cuts = append(r.cuts, IdleCut{From: r.clock[i-1], To: addSat(r.clock[i-1], r.idleLimit), Gap: gap})
			gap = r.idleLimit
		}
		r.clock = append(r.clock[:i], addSat(r.clock[i-1], gap))
	}
}
