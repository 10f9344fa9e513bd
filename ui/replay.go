package ui

import (
	"fmt"
	"sort"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// speeds are the replay speeds the speed key cycles through, as multiples of real time;
// speedMax (zero) applies the rest of the recording at once.
var speeds = []float64{1, 2, 10, speedMax}

// speedMax is the max speed.
const speedMax = 0

func speedLabel(speed float64) string {
	if speed == speedMax {
		return "max"
	}
	return fmt.Sprintf("%g×", speed)
}

// nextSpeed is the speed after cur in the cycle: the next faster one, max after the fastest,
// and 1× after max.
func nextSpeed(cur float64) float64 {
	if cur == speedMax {
		return speeds[0]
	}
	for _, s := range speeds {
		if s > cur {
			return s
		}
	}
	return speedMax
}

// replay is the state of a replay: the recording, how much of it the builder has seen, and the
// virtual clock.
type replay struct {
	rec      []timeline.Observation // sorted by Received
	applied  int                    // rec[:applied] are in the builder
	playhead time.Time
	speed    float64 // a multiple of real time, or speedMax
	paused   bool
	marks    *markCache // shared by copies of the model: computed once
}

// start and end are the times of the first and last observation.
func (r *replay) start() time.Time {
	if len(r.rec) == 0 {
		return time.Time{}
	}
	return r.rec[0].Received
}

func (r *replay) end() time.Time {
	if len(r.rec) == 0 {
		return time.Time{}
	}
	return r.rec[len(r.rec)-1].Received
}

// atEnd reports whether the whole recording has been played.
func (r *replay) atEnd() bool {
	return r.applied == len(r.rec) && !r.playhead.Before(r.end())
}

// restart goes back to the first observation with a fresh builder.
func (m *Model) restart() {
	m.builder = timeline.NewBuilder()
	m.rp.applied = 0
	m.rp.playhead = m.rp.start()
	m.applyUntil(m.rp.playhead, true)
}

// seek moves the playhead to t: forward by applying the observations received by then, back
// by rebuilding from the start (the builder is deterministic and cheap).
func (m *Model) seek(t time.Time) {
	if end := m.rp.end(); t.After(end) {
		t = end
	}
	if t.Before(m.rp.playhead) {
		m.builder = timeline.NewBuilder()
		m.rp.applied = 0
	}
	m.rp.playhead = t
	m.applyUntil(t, m.rp.applied == 0)
}

// applyUntil applies the observations received by t and, if any were (or force), takes a new
// snapshot; now becomes t.
func (m *Model) applyUntil(t time.Time, force bool) {
	n := m.rp.applied
	for m.rp.applied < len(m.rp.rec) && !m.rp.rec[m.rp.applied].Received.After(t) {
		m.builder.Apply(m.rp.rec[m.rp.applied])
		m.rp.applied++
	}
	if force || m.rp.applied != n {
		m.snap = m.builder.Snapshot()
		m.syncSelection()
	}
	m.now = t
}

// advance moves the playhead one tick at the current speed, pausing at the end.
func (m *Model) advance() {
	if m.rp.paused || len(m.rp.rec) == 0 {
		return
	}
	if m.rp.speed == speedMax {
		m.seek(m.rp.end())
	} else {
		step := time.Duration(float64(m.tick) * m.rp.speed)
		m.seek(m.rp.playhead.Add(step))
	}
	if m.rp.atEnd() {
		m.rp.paused = true
	}
}

// togglePause plays or pauses; at the end of the recording it plays it again from the start.
func (m *Model) togglePause() {
	if m.rp.atEnd() {
		m.restart()
		m.rp.paused = false
		return
	}
	m.rp.paused = !m.rp.paused
}

// seekEnd applies the whole recording and pauses.
func (m *Model) seekEnd() {
	m.seek(m.rp.end())
	m.rp.paused = true
}

// stepNext pauses and moves the playhead to the next moment a milestone of the selected pod
// (or its job) became known, or to the end.
func (m *Model) stepNext() {
	m.rp.paused = true
	for _, t := range m.marksForSelection() {
		if t.After(m.rp.playhead) {
			m.seek(t)
			return
		}
	}
	m.seekEnd()
}

// stepPrev pauses and moves the playhead back to the previous such moment, or to the start.
func (m *Model) stepPrev() {
	m.rp.paused = true
	marks := m.marksForSelection()
	for i := len(marks) - 1; i >= 0; i-- {
		if marks[i].Before(m.rp.playhead) {
			m.seek(marks[i])
			return
		}
	}
	m.restart()
}

// markCache holds, per pod or job UID, the receive times at which one of its milestones first
// appeared while playing the recording; "" holds them all.
type markCache struct {
	byUID map[string][]time.Time
}

// marksForSelection are the step marks of the selected pod and its job, or of everything when
// no pod is selected yet.
func (m *Model) marksForSelection() []time.Time {
	if m.rp.marks.byUID == nil {
		m.rp.marks.byUID = buildMarks(m.rp.rec)
	}
	f := m.frame()
	p := f.pod()
	if p == nil {
		return m.rp.marks.byUID[""]
	}
	ts := append([]time.Time(nil), m.rp.marks.byUID[p.UID]...)
	if j := f.jobOf(p); j != nil {
		ts = append(ts, m.rp.marks.byUID[j.UID]...)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	return ts
}

// buildMarks plays the recording once, taking a snapshot after each distinct receive time, and
// notes when each milestone (a lane, kind and attempt) first appears. Stepping to those times
// shows one more milestone each time, which stepping to the milestones' own times would not:
// a milestone is usually known only some time after it happened.
func buildMarks(rec []timeline.Observation) map[string][]time.Time {
	out := map[string][]time.Time{}
	seen := map[string]bool{}
	note := func(uid string, t time.Time, m timeline.Milestone, lane string) {
		k := fmt.Sprintf("%s|%s|%s|%d", uid, lane, m.Kind, m.Attempt)
		if m.Kind == timeline.MCondition || m.Kind == timeline.MPhase {
			k += "|" + m.Reason
		}
		if seen[k] {
			return
		}
		seen[k] = true
		for _, key := range []string{uid, ""} {
			if ts := out[key]; len(ts) == 0 || !ts[len(ts)-1].Equal(t) {
				out[key] = append(ts, t)
			}
		}
	}
	b := timeline.NewBuilder()
	for i := 0; i < len(rec); {
		t := rec[i].Received
		for i < len(rec) && rec[i].Received.Equal(t) {
			b.Apply(rec[i])
			i++
		}
		s := b.Snapshot()
		for _, p := range s.Pods {
			for _, r := range p.Rows() {
				note(p.UID, t, *r.Milestone, r.Lane)
			}
		}
		for _, j := range s.Jobs {
			for _, m := range j.Milestones {
				note(j.UID, t, m, "job")
			}
		}
	}
	return out
}
