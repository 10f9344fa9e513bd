// Package play owns the one timeline.Builder of a run. Whatever the run is (a live watch, a
// recording, a replay in the view, plain or JSON output, a test), it reads a Source, applies
// what it reads, paces a replay, checks record's --until, and hands out immutable snapshots at
// most once per frame. Nothing else holds a Builder. It knows the timeline and its Source
// contract only: no client, no file format, no terminal.
package play

import (
	"slices"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
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
	// Silent is how long the API server has not answered, live, once that is long enough that
	// what the view shows meanwhile is stale (the source says). Zero while it answers.
	Silent time.Duration
	// Listed says the source has delivered all that was there when it began (Input.Listed).
	Listed bool
	// Ended says the source is over; Err is why, if not at its end.
	Ended bool
	Err   error
}

// Engine is the builder of a run and what goes into it: each input is applied if it is an
// observation, and a snapshot is taken only when asked for and only if something changed since
// the last one. Notes about the watch are not observations: the engine adds their text to the
// snapshot's notes, after the builder's. One goroutine owns it.
type Engine struct {
	b      *timeline.Builder
	items  int
	dirty  bool
	snap   timeline.Snapshot
	now    time.Time
	notes  []string // the watch notes' text, in order
	listed bool     // an Input.Listed came
	ret    *retention
}

// NewEngine returns an engine with an empty timeline.
func NewEngine() *Engine {
	e := &Engine{b: timeline.NewBuilder()}
	e.snap = e.b.Snapshot()
	return e
}

// Add applies one input: its observation (src's translation of it), or its note.
func (e *Engine) Add(src Observer, in Input) {
	if in.Listed {
		e.listed, e.dirty = true, true // a frame, though nothing else changed (an empty scope)
		e.now = later(e.now, in.Time)
		return
	}
	e.items++
	if in.Note != "" {
		e.notes = append(e.notes, in.Note)
		e.dirty = true
		return
	}
	o, ok := src.Observe(in)
	if !ok {
		return
	}
	admit, changed := e.ret.admits(o)
	e.dirty = e.dirty || changed
	if admit {
		e.Apply(o)
	}
}

// Apply applies one observation. One that changes nothing (an Event's deletion, an update of a
// hidden pod) moves the clock but asks for no frame: the view's own clock moves its ages.
func (e *Engine) Apply(o timeline.Observation) {
	if e.b.Apply(o) {
		e.dirty = true
	}
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
		e.adjust()
	}
	return e.snap
}

// adjust adds to the builder's snapshot what the engine keeps: the watch notes after the
// builder's, and the count of the pods forgotten (Retain).
func (e *Engine) adjust() {
	if len(e.notes) > 0 {
		e.snap.Notes = append(slices.Clip(e.snap.Notes), e.notes...)
	}
	e.snap.Forgotten = e.ret.forgotten()
}

// Final is the last snapshot, for a run that has read all it will: the engine takes nothing
// after it, and lets go of the facts behind the timeline (timeline.Builder.Final).
func (e *Engine) Final() timeline.Snapshot {
	if !e.dirty {
		e.b.Final() // the snapshot is the last one; only the facts go
		return e.snap
	}
	e.snap, e.dirty = e.b.Final(), false
	e.adjust()
	return e.snap
}

// Stream is Final for output that writes the end pod by pod (timeline.Stream), with the watch
// notes as Final lists them: the engine takes nothing after it.
func (e *Engine) Stream() *timeline.Stream {
	e.dirty = false
	return e.b.Stream(e.notes...)
}

// Brief puts the run's builder in brief mode (timeline.Builder.Brief): a pod is kept whole
// only if keep says so.
func (e *Engine) Brief(keep func(*timeline.Pod) bool) { e.b.Brief(keep) }

// Hide has the run's builder keep the pods hide picks as a count only (timeline.Builder.Hide).
func (e *Engine) Hide(hide func(*timeline.PodObservation) bool) { e.b.Hide(hide) }

// Refresh has these pods derived again at the next snapshot ("" is none).
func (e *Engine) Refresh(uids ...string) {
	for _, uid := range uids {
		if uid != "" {
			e.b.Refresh(uid)
			e.dirty = true
		}
	}
}

// Items counts the inputs added, observations or not.
func (e *Engine) Items() int { return e.items }

// Listed reports whether the source said all that was there when it began is in.
func (e *Engine) Listed() bool { return e.listed }

// later is the later of a and b.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Now is the receive time of the latest observation applied.
func (e *Engine) Now() time.Time { return e.now }
