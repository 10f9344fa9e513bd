package play

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// ReplayState is where a replay is.
type ReplayState struct {
	// Pos is the playhead from the first observation, and Total the whole, on the replay clock:
	// the recording's time with every pause longer than IdleLimit cut to IdleLimit.
	Pos, Total time.Duration
	Speed      float64 // a multiple of real time; SpeedMax plays everything at once
	Paused     bool
	AtEnd      bool // everything has been played
	Empty      bool // the recording has no observation
	// IdleLimit is the longest a pause between two observations plays for, at 1× (zero: every
	// pause plays as recorded). Like asciinema's idle time limit, it also keeps an item stamped
	// years away from the others from stretching the clock.
	IdleLimit time.Duration
	// Idle is the latest pause cut to IdleLimit that the playhead has reached (From <= Pos); the
	// zero value when none. The view says so, e.g. "… 2m30s idle, skipped", while it plays.
	Idle IdleCut
}

// IdleCut is a pause of a recording that a replay shortened to its idle limit.
type IdleCut struct {
	From, To time.Duration // where it plays on the replay clock: To-From is the idle limit
	Gap      time.Duration // how long the recording paused there
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
	e       *Engine
	applied int
	// clock[i] is when rec[i] plays on the replay clock, from the first: recorded time with each
	// pause longer than idleLimit cut to it. cuts are those pauses, in order.
	clock     []time.Duration
	cuts      []IdleCut
	idleLimit time.Duration
	pos       time.Duration // the playhead on the replay clock
	speed     float64
	paused    bool
	marks     map[string][]time.Time
	tick      time.Duration
}

// NewReplay prepares a replay of the observations at speed, paused or not; tick is how often
// the clock moves (zero: DefaultFrame). Every pause plays as recorded until SetIdleLimit.
func NewReplay(obs []timeline.Observation, speed float64, paused bool, tick time.Duration) *Replay {
	rec := append([]timeline.Observation(nil), obs...)
	sort.SliceStable(rec, func(i, j int) bool { return rec[i].Received.Before(rec[j].Received) })
	if tick <= 0 {
		tick = DefaultFrame
	}
	r := &Replay{rec: rec, cmds: make(chan func(), 64), frames: make(chan Frame, 1),
		speed: max(speed, 0), paused: paused, tick: tick}
	r.retime()
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

// SetIdleLimit makes every pause of the recording longer than d play for d at 1× (d/2 at 2×);
// zero plays every pause as recorded. The playhead stays at the same recorded moment.
func (r *Replay) SetIdleLimit(d time.Duration) {
	r.do(func() {
		at := r.timeOf(r.pos)
		r.idleLimit = max(d, 0)
		r.retime()
		r.e, r.applied = NewEngine(), 0
		r.pos = r.clockOf(at)
		r.applyUntil(r.pos)
	})
}

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
				if c := r.clockOf(t); c > r.pos {
					r.seek(c)
					return
				}
			}
			r.seek(r.end())
			return
		}
		for i := len(marks) - 1; i >= 0; i-- {
			if c := r.clockOf(marks[i]); c < r.pos {
				r.seek(c)
				return
			}
		}
		r.restart()
	})
}

// retime works out the replay clock of every observation, and the pauses cut.
func (r *Replay) retime() {
	r.clock, r.cuts = make([]time.Duration, len(r.rec)), nil
	for i := 1; i < len(r.rec); i++ {
		gap := r.rec[i].Received.Sub(r.rec[i-1].Received) // saturates; never negative, as sorted
		if r.idleLimit > 0 && gap > r.idleLimit {
			r.cuts = append(r.cuts, IdleCut{From: r.clock[i-1], To: addSat(r.clock[i-1], r.idleLimit), Gap: gap})
			gap = r.idleLimit
		}
		r.clock[i] = addSat(r.clock[i-1], gap)
	}
}

// addSat is a+b for non-negative durations, at most the largest duration.
func addSat(a, b time.Duration) time.Duration {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// end is the last observation's time on the replay clock.
func (r *Replay) end() time.Duration {
	if len(r.clock) == 0 {
		return 0
	}
	return r.clock[len(r.clock)-1]
}

// timeOf is the recorded moment the replay clock shows at c: the receive time of the last
// observation played by then, plus the time since, which a cut pause holds under the limit.
func (r *Replay) timeOf(c time.Duration) time.Time {
	if len(r.rec) == 0 {
		return time.Time{}
	}
	i := max(sort.Search(len(r.clock), func(i int) bool { return r.clock[i] > c })-1, 0)
	return r.rec[i].Received.Add(c - r.clock[i])
}

// clockOf is where the recorded moment t plays on the replay clock: the inverse of timeOf, and
// exactly the clock of an observation received at t.
func (r *Replay) clockOf(t time.Time) time.Duration {
	i := sort.Search(len(r.rec), func(i int) bool { return r.rec[i].Received.After(t) }) - 1
	if i < 0 {
		return 0
	}
	c := addSat(r.clock[i], t.Sub(r.rec[i].Received))
	if i+1 < len(r.clock) && c > r.clock[i+1] {
		c = r.clock[i+1]
	}
	return min(c, r.end())
}

// idleAt is the latest cut pause that starts at or before c.
func (r *Replay) idleAt(c time.Duration) IdleCut {
	i := sort.Search(len(r.cuts), func(i int) bool { return r.cuts[i].From > c })
	if i == 0 {
		return IdleCut{}
	}
	return r.cuts[i-1]
}

func (r *Replay) atEnd() bool { return r.applied == len(r.rec) && r.pos >= r.end() }

// restart goes back to the first observation with a fresh engine.
func (r *Replay) restart() {
	r.e, r.applied = NewEngine(), 0
	r.pos = 0
	r.applyUntil(r.pos)
}

// seek moves the playhead to c on the replay clock: forward by applying what was received by
// then, back by playing again from the start (the engine is deterministic and costs what it
// applies).
func (r *Replay) seek(c time.Duration) {
	c = min(c, r.end())
	if c < r.pos {
		r.e, r.applied = NewEngine(), 0
	}
	r.pos = c
	r.applyUntil(c)
}

func (r *Replay) applyUntil(c time.Duration) {
	for r.applied < len(r.rec) && r.clock[r.applied] <= c {
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
		r.seek(addSat(r.pos, time.Duration(float64(r.tick)*r.speed)))
	}
	if r.atEnd() {
		r.paused = true
	}
	return true
}

// publish hands out the frame now, replacing one the view has not taken yet.
func (r *Replay) publish() {
	f := Frame{Snapshot: r.e.Snapshot(), Now: r.timeOf(r.pos), Replay: &ReplayState{
		Pos: r.pos, Total: r.end(), Speed: r.speed,
		Paused: r.paused, AtEnd: r.atEnd(), Empty: len(r.rec) == 0,
		IdleLimit: r.idleLimit, Idle: r.idleAt(r.pos),
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
