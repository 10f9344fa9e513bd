package play

import (
	"context"
	"errors"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// An Input is one thing a source read, in the order it was received: something to translate
// into an observation (Item, which only its source knows how to read, with the kind of change
// it was), or a note about the watch itself (Note, its text).
type Input struct {
	Time time.Time
	Type timeline.WatchType
	Item any
	Note string
	// Listed marks when what the source has delivered is all that was there when it began (a
	// live watch's first lists are in): a frame comes then, Frame.Listed from then on.
	Listed bool
	// Translated says the source translated the input as it read it (a recording's reader, on
	// its decoding workers): Obs is its observation when IsObs, and Observe need only return it.
	Translated, IsObs bool
	Obs               timeline.Observation
}

// A Source delivers inputs in the order they were received. Next blocks until the next one; it
// returns io.EOF after the last one, or the context's error. Observe translates an input Next
// returned into an observation (ok false when it is none), on the goroutine that applies it:
// the observation may live in memory the source reuses at its next call, and the engine applies
// it before it asks for another. A live watch, a recording and a test's list are Sources; package
// feed makes one of what package watch reads.
type Source interface {
	Next(ctx context.Context) (Input, error)
	Observer
}

// An Observer translates an input into an observation, ok false when it is none.
type Observer interface {
	Observe(in Input) (o timeline.Observation, ok bool)
}

// A transient error is one a source recovers from on its own (a watch that failed and
// retries): a live run shows it and goes on.
type transient interface{ Transient() bool }

// isTransient reports whether err says it is transient.
func isTransient(err error) bool {
	var t transient
	return errors.As(err, &t) && t.Transient()
}

// A staleSource knows how long its server has not answered, once that is long enough that
// what is shown is stale; zero otherwise (feed's of a live watch).
type staleSource interface {
	Stale() time.Duration
}
