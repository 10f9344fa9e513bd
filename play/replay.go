package play

import (
	"context"
	"sort"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// ReplayState is where a replay is.
type ReplayState struct {
	Pos, Total time.Duration // the playhead from the first observation, and the whole
	Speed      float64       // a multiple of real time; SpeedMax plays everything at once
	Paused     bool
	AtEnd      bool // everything has been played
	Empty      bool // the recording has no observation
}

// SpeedMax is the speed that applies the rest of the recording at once.
const SpeedMax = 0

// Speeds are the speeds CycleSpeed goes through.
var Speeds = []float64{1, 2, 10, SpeedMax}

// NextSpeed is the speed after cur in the cycle: the next faster one, max after the fastest,
// and 1× after max.
func NextSpeed(cur float64) float64 {
	if cur == SpeedMax {
		return Speeds[0]
	}
	for _, s := range Speeds {
		if s > cur {
			return s
		}
	}
	return SpeedMax
}

// Replay plays a recording in the view: a virtual clock that moves at a speed, pauses, steps
// from one milestone to the next and back, and seeks. It runs in its own goroutine (Run), owns
// the engine, and hands out a frame whenever what it shows changed; the view sends it commands,
// which never block.
type Replay struct {
	rec    []timeline.Observation // by receive time
	cmds   chan func()
	frames chan Frame

	// Owned by Run's goroutine.
	e        *Engine
	applied  int
	playhead time.Time
	speed    float64
	paused   bool
	marks    map[string][]time.Time
	tick     time.Duration
}

// NewReplay prepares a replay of the observations at speed, paused or not; tick is how often
// the clock moves (zero: DefaultFrame).
func NewReplay(obs []timeline.Observation, speed float64, paused bool, tick time.Duration) *Replay {
	rec := append([]timeline.Observation(nil), obs...)
	sort.SliceStable(rec, func(i, j int) bool { return rec[i].Received.Before(rec[j].Received) })
	if tick <= 0 {
		tick = DefaultFrame
	}
	r := &Replay{rec: rec, cmds: make(chan func(), 64), frames: make(chan Frame, 1),
		speed: max(speed, 0), paused: paused, tick: tick}
	r.restart()
	r.publish()
	return r
}

// Frames delivers the frames; only the latest is kept if the reader is slow.
func (r *Replay) Frames() <-chan Frame { return r.frames }

// Run moves the clock until ctx ends.
func (r *Replay) Run(ctx context.Context) {
	t := time.NewTicker(r.tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case f := <-r.cmds:
			f()
			r.publish()
		case <-t.C:
			if r.advance() {
				r.publish()
			}
		}
	}
}

func (r *Replay) do(f func()) {
	select {
	case r.cmds <- f:
	default: // a flood of keys: drop the rest
	}
}

// TogglePause plays or pauses; at the end of the recording it plays it again from the start.
func (r *Replay) TogglePause() {
	r.do(func() {
		if r.atEnd() {
			r.restart()
			r.paused = false
			return
		}
		r.paused = !r.paused
	})
}

// SetSpeed sets the speed (SpeedMax: everything at once).
func (r *Replay) SetSpeed(s float64) { r.do(func() { r.speed = max(s, 0) }) }

// CycleSpeed goes to the next speed of Speeds.
func (r *Replay) CycleSpeed() { r.do(func() { r.speed = NextSpeed(r.speed) }) }

// SeekEnd applies the whole recording and pauses.
func (r *Replay) SeekEnd() {
	r.do(func() {
		r.seek(r.end())
		r.paused = true
	})
}

// Restart goes back to the start, playing.
func (r *Replay) Restart() {
	r.do(func() {
		r.restart()
		r.paused = false
	})
}

// Step pauses and moves the playhead to the next (dir > 0) or previous moment a milestone of the
// given pods or jobs (by UID; none: of anything) became known, or to the end or the start.
func (r *Replay) Step(dir int, uids ...string) {
	r.do(func() {
		r.paused = true
		marks := r.marksOf(uids)
		if dir > 0 {
			for _, t := range marks {
				if t.After(r.playhead) {
					r.seek(t)
					return
				}
			}
			r.seek(r.end())
			return
		}
		for i := len(marks) - 1; i >= 0; i-- {
			if marks[i].Before(r.playhead) {
				r.seek(marks[i])
				return
			}
		}
		r.restart()
	})
}

func (r *Replay) start() time.Time {
	if len(r.rec) == 0 {
		return time.Time{}
	}
	return r.rec[0].Received
}

func (r *Replay) end() time.Time {
	if len(r.rec) == 0 {
		return time.Time{}
	}
	return r.rec[len(r.rec)-1].Received
}

func (r *Replay) atEnd() bool { return r.applied == len(r.rec) && !r.playhead.Before(r.end()) }

// restart goes back to the first observation with a fresh engine.
func (r *Replay) restart() {
	r.e, r.applied = NewEngine(nil), 0
	r.playhead = r.start()
	r.applyUntil(r.playhead)
}

// seek moves the playhead to t: forward by applying what was received by then, back by playing
// again from the start (the engine is deterministic and costs what it applies).
func (r *Replay) seek(t time.Time) {
	if end := r.end(); t.After(end) {
		t = end
	}
	if t.Before(r.playhead) {
		r.e, r.applied = NewEngine(nil), 0
	}
	r.playhead = t
	r.applyUntil(t)
}

func (r *Replay) applyUntil(t time.Time) {
	for r.applied < len(r.rec) && !r.rec[r.applied].Received.After(t) {
		r.e.Apply(r.rec[r.applied])
		r.applied++
	}
}

// advance moves the playhead one tick at the speed, pausing at the end; it reports whether
// anything moved.
func (r *Replay) advance() bool {
	if r.paused || len(r.rec) == 0 {
		return false
	}
	if r.speed == SpeedMax {
		r.seek(r.end())
	} else {
		r.seek(r.playhead.Add(time.Duration(float64(r.tick) * r.speed)))
	}
	if r.atEnd() {
		r.paused = true
	}
	return true
}

// publish hands out the frame now, replacing one the view has not taken yet.
func (r *Replay) publish() {
	f := Frame{Snapshot: r.e.Snapshot(), Now: r.playhead, Replay: &ReplayState{
		Pos: r.playhead.Sub(r.start()), Total: r.end().Sub(r.start()), Speed: r.speed,
		Paused: r.paused, AtEnd: r.atEnd(), Empty: len(r.rec) == 0,
	}}
	select {
	case <-r.frames:
	default:
	}
	r.frames <- f
}

// marksOf are the step marks of the given UIDs (all of them when none), in order.
func (r *Replay) marksOf(uids []string) []time.Time {
	if r.marks == nil {
		r.marks = Marks(r.rec)
	}
	if len(uids) == 0 {
		return r.marks[""]
	}
	var ts []time.Time
	for _, u := range uids {
		ts = append(ts, r.marks[u]...)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	return ts
}
