// Package play owns the one timeline.Builder of a run. Whatever the run is (a live watch, a
// recording, a replay in the view, plain or JSON output, a test), it reads a watch.Source,
// records what it reads, applies it, paces a replay, checks record's --until, and hands out
// immutable snapshots at most once per frame. Nothing else holds a Builder.
package play

import (
	"slices"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// DefaultFrame is how often a player hands out a snapshot, at most: 30 frames a second, live
// and in recorded time.
const DefaultFrame = time.Second / 30

// Frame is what a player hands out: an immutable snapshot and where the play is.
type Frame struct {
	Snapshot timeline.Snapshot
	// Now is the receive time of the latest observation live, the playhead in a replay.
	Now time.Time
	// Replay is where a replay is; nil live.
	Replay *ReplayState
	// WatchErr is the last watch error, nil once observations flow again.
	WatchErr error
	// Silent is how long the API server has not answered, live, once that is at least
	// watch.StaleAfter: what the view shows meanwhile is stale. Zero while it answers.
	Silent time.Duration
	// Ended says the source is over; Err is why, if not at its end.
	Ended bool
	Err   error
}

// Engine is the builder of a run and what goes into it: each item is recorded (when there is
// a recorder), translated and applied, and a snapshot is taken only when asked for and only
// if something changed since the last one. Notes about the watch (watch.Note) are not
// observations: the engine adds their text to the snapshot's notes, after the builder's. One
// goroutine owns it.
type Engine struct {
	b     *timeline.Builder
	tr    watch.Translator
	rec   *watch.Recorder
	items int
	dirty bool
	snap  timeline.Snapshot
	now   time.Time
	notes []string // the watch notes' text, in order
}

// NewEngine returns an engine that records to rec (nil: does not record).
func NewEngine(rec *watch.Recorder) *Engine {
	e := &Engine{b: timeline.NewBuilder(), rec: rec}
	e.snap = e.b.Snapshot()
	return e
}

// Add records one item and applies it if it is an observation.
func (e *Engine) Add(it watch.Item) error {
	o, ok := e.tr.Observe(it) // not for a Note; applied before the next is translated
	return e.AddObserved(it, o, ok)
}

// AddObserved is Add of an item already translated: o is its observation when ok (what
// watch.Observe returns for it).
func (e *Engine) AddObserved(it watch.Item, o timeline.Observation, ok bool) error {
	if e.rec != nil {
		if err := e.rec.Write(it); err != nil {
			return err
		}
	}
	e.items++
	if n, note := it.Object.(*watch.Note); note {
		e.notes = append(e.notes, n.Text())
		e.dirty = true
		return nil
	}
	if ok {
		e.Apply(o)
	}
	return nil
}

// Apply applies one observation.
func (e *Engine) Apply(o timeline.Observation) {
	e.b.Apply(o)
	e.dirty = true
	if o.Received.After(e.now) {
		e.now = o.Received
	}
}

// Changed reports whether anything was applied since the last Snapshot.
func (e *Engine) Changed() bool { return e.dirty }

// Snapshot is the timeline now: a new snapshot if anything changed, else the last one.
func (e *Engine) Snapshot() timeline.Snapshot {
	if e.dirty {
		e.snap, e.dirty = e.b.Snapshot(), false
		if len(e.notes) > 0 {
			e.snap.Notes = append(slices.Clip(e.snap.Notes), e.notes...)
		}
	}
	return e.snap
}

// Final is the last snapshot, for a run that has read all it will: the engine takes nothing
// after it, and lets go of the facts behind the timeline (timeline.Builder.Final).
func (e *Engine) Final() timeline.Snapshot {
	if !e.dirty {
		e.b.Final() // the snapshot is the last one; only the facts go
		return e.snap
	}
	e.snap, e.dirty = e.b.Final(), false
	if len(e.notes) > 0 {
		e.snap.Notes = append(slices.Clip(e.snap.Notes), e.notes...)
	}
	return e.snap
}

// Stream is Final for output that writes the end pod by pod (timeline.Stream), with the watch
// notes as Final lists them: the engine takes nothing after it.
func (e *Engine) Stream() *timeline.Stream {
	e.dirty = false
	return e.b.Stream(e.notes...)
}

// Items counts the items added (recorded), observations or not.
func (e *Engine) Items() int { return e.items }

// Now is the receive time of the latest observation applied.
func (e *Engine) Now() time.Time { return e.now }
