package timeline

import (
	"slices"
	"sort"
	"time"
)

// laneCache is what was derived of a lane last time: the runs before the final (cross-lane)
// pass, and the index that files an Event occurrence under the run it belongs to.
type laneCache struct {
	attempts []int32 // the instances' attempts, in order
	// Per instance, as far as the status says (zero: unknown): when it started, at the earliest
	// and latest, and when it exited at the latest.
	startLo, startHi, exitHi []time.Time
	// The windows Events are filed in, by the kind of Event: before[i] is the last moment an
	// Event that comes before a start can belong to instances[:i+1], and so on; zero is no end.
	before, after, during []time.Time
	// beforeCreated bounds the windows of the Events that come before a run's Created (see
	// windows); it is before, or earlier.
	beforeCreated []time.Time
	base          []*Run // by attempt, before the final pass
	old           []*Run // while base is derived again: its runs from then on, as they were
	// room is, by index of base, the storage of each run's milestones, with room after them (a
	// run's own list is capped at its length, so only the builder can write there): the next
	// version of a run that only adds milestones at its end writes them there rather than
	// copying the run. A crash loop's last runs grow a milestone or three at a time.
	room, oldRoom [][]Milestone
	version       int // counts the times base was derived again
	// changed is the first index of base derived again since the final pass last read it, plus
	// one (zero: all of it, as at first).
	changed int
}

// An Event belongs to a run in one of three ways. Some come before a run begins (the kubelet
// pulls and creates the container, or backs off before it): they belong to the first run not
// certainly started before them (and, but for Created, not certainly created before them).
// Started comes just after the start: it belongs to the last run that may have started by then.
// The others come while a run runs (a probe fails, the kubelet kills it): they belong to the
// first run not certainly over before them.
func startsRun(reason string) bool {
	switch reason {
	case "Pulling", "Pulled", "Created", "BackOff":
		return true
	}
	return false
}

// bounds are the window bounds for an Event of the reason.
func (lc *laneCache) bounds(reason string) []time.Time {
	switch {
	case reason == "Created":
		return lc.before
	case startsRun(reason):
		return lc.beforeCreated
	case reason == "Started":
		return lc.after
	}
	return lc.during
}

// windows computes the window bounds from instance i on (those before it stay). created are the
// lane's Created occurrences.
func (lc *laneCache) windows(i int, created []eventOcc) {
	lc.before, lc.after, lc.during = lc.before[:i], lc.after[:i], lc.during[:i]
	lc.beforeCreated = lc.beforeCreated[:i]
	for ; i < len(lc.attempts); i++ {
		before, during := lc.startHi[i], lc.exitHi[i]
		if during.IsZero() && i+1 < len(lc.attempts) {
			// The status never showed it end, but the next run began: it had ended by then (a
			// container restarts only after it exited). Else every Event of a probe failing or
			// a kill in the runs after it would be filed under it.
			during = lc.startHi[i+1]
		}
		after := during // the last run: until it is over
		if i+1 < len(lc.attempts) {
			after = time.Time{}
			if lo := lc.startLo[i+1]; !lo.IsZero() {
				after = lo.Add(-time.Nanosecond) // until the next run may have started
			}
		}
		if i > 0 {
			before, after, during = laterBound(lc.before[i-1], before), laterBound(lc.after[i-1], after), laterBound(lc.during[i-1], during)
		}
		lc.before, lc.after, lc.during = append(lc.before, before), append(lc.after, after), append(lc.during, during)
		// The kubelet pulls the image, or backs off, before it creates the container: an Event of
		// those certainly after a Created filed under this run belongs to a later one (a run that
		// crashed within the second it started leaves the status no tighter bound).
		lo := 0
		if i > 0 {
			lo = upperBoundOf(created, lc.before[i-1], true)
		}
		if lo < upperBoundOf(created, before, true) {
			before = earlierBound(before, created[lo].when.hi)
		}
		if i > 0 {
			before = laterBound(lc.beforeCreated[i-1], before)
		}
		lc.beforeCreated = append(lc.beforeCreated, before)
	}
}

// attemptAt is the run an occurrence of the reason at t belongs to; after the last run, the next
// attempt.
func (lc *laneCache) attemptAt(reason string, t time.Time) int32 {
	b := lc.bounds(reason)
	i := sort.Search(len(b), func(i int) bool { return b[i].IsZero() || !t.After(b[i]) })
	if i < len(lc.attempts) {
		return lc.attempts[i]
	}
	if n := len(lc.attempts); n > 0 {
		return nextAttempt(lc.attempts[n-1])
	}
	return 0
}

// occsOf are the occurrences of one reason (in time order) that belong to attempt a.
func (lc *laneCache) occsOf(reason string, list []eventOcc, a int32) []eventOcc {
	return lc.occsIn(lc.window(a), reason, list)
}

// occWindow is where an attempt stands among the instances, for filing Events under it: at
// instance i (known), just after the last one (next), or between two known runs (neither).
type occWindow struct {
	i           int
	known, next bool
}

func (lc *laneCache) window(a int32) occWindow {
	i := sort.Search(len(lc.attempts), func(i int) bool { return lc.attempts[i] >= a })
	return occWindow{i: i, known: i < len(lc.attempts) && lc.attempts[i] == a,
		next: i == len(lc.attempts) && (i == 0 || a == nextAttempt(lc.attempts[i-1]))}
}

// occsIn are the occurrences of one reason (in time order) filed in window w.
func (lc *laneCache) occsIn(w occWindow, reason string, list []eventOcc) []eventOcc {
	if len(list) == 0 || !w.known && !w.next {
		return nil // none, or an attempt between two known runs: no Event is filed under it
	}
	b, starts := lc.bounds(reason), startsRun(reason)
	lo, hi := 0, len(list) // list[lo:hi] is the window
	if w.i > 0 {
		lo = upperBoundOf(list, b[w.i-1], starts)
	}
	if w.known {
		hi = upperBoundOf(list, b[w.i], starts)
	}
	return list[lo:hi]
}

// upperBound is the index of the first occurrence (by occKey) after t; zero t is after everything.
func upperBound(list []eventOcc, t time.Time) int {
	if len(list) == 0 {
		return 0
	}
	return upperBoundOf(list, t, startsRun(list[0].ev.Reason))
}

// upperBoundOf is upperBound for a list of one reason, which startsRun says of.
func upperBoundOf(list []eventOcc, t time.Time, starts bool) int {
	if t.IsZero() {
		return len(list)
	}
	return searchFromEnd(len(list), func(i int) bool { return occKeyAs(&list[i], starts).After(t) })
}

// searchFromEnd is sort.Search for an index that is most often at or near n: the windows
// derived again are a lane's last, and Events arrive in order. It gallops back from the end, so
// an index k from the end costs about 2·log2(k+1) calls, the start no more than twice sort.Search.
func searchFromEnd(n int, after func(int) bool) int {
	hi, step := n, 1 // every index from hi on is after
	for hi > 0 {
		lo := max(hi-step, 0)
		if !after(lo) {
			// lo is not after: the answer is in (lo, hi].
			return lo + 1 + sort.Search(hi-lo-1, func(i int) bool { return after(lo + 1 + i) })
		}
		hi, step = lo, step*2
	}
	return 0
}

// deriveLane brings the lane's base runs up to date: those from the first dirty attempt on are
// derived again, the others kept. The pod's facts say how runs stop (deletion, grace).
func (d *deriver) deriveLane(ps *podState, ls *laneState) []*Run {
	lc := &ls.cache
	from := ls.dirtyFrom
	if from == noDirty {
		return lc.base
	}
	ls.dirtyFrom = noDirty
	recheck := ls.recheck // derived again only if the Events it reads move (see touchStart)
	ls.recheck = noDirty
	lc.version++
	clear(d.ev) // what the lane derived last made there is kept in copies, if at all
	d.ev = d.ev[:0]
	// What recheck's window filed, and the next attempt's Created, as the windows were.
	var started, created []eventOcc
	if recheck < from {
		started = lc.occsIn(lc.window(recheck), "Started", ls.occs["Started"])
		created = lc.occsIn(lc.window(recheck+1), "Created", ls.occs["Created"])
	}
	first, statusRuns := d.statusRunsFrom(ps, ls, from)
	lc.windows(max(first-1, 0), ls.occs["Created"])
	if recheck < from && ls.windowsMoved(recheck, started, created) {
		ls.dirtyFrom = recheck
		return d.deriveLane(ps, ls) // from that run on, the windows as they are now
	}
	return d.baseRunsFrom(ps, ls, from, first, statusRuns)
}

// statusRunsFrom derives the status-based milestones of the instances from attempt from on
// (from the first, index first, touched), into the deriver's storage, and files their starts
// and exits in the lane's cache, which decide where Events are filed.
func (d *deriver) statusRunsFrom(ps *podState, ls *laneState, from int32) (first int, statusRuns []runMilestones) {
	lc := &ls.cache
	first = sort.Search(len(ls.instances), func(i int) bool { return ls.instances[i].attempt >= from })
	lc.attempts = lc.attempts[:first]
	lc.startLo, lc.startHi, lc.exitHi = lc.startLo[:first], lc.startHi[:first], lc.exitHi[:first]
	if n := len(ls.instances) - first; n > len(d.statusRuns) {
		d.statusRuns = append(d.statusRuns, make([]runMilestones, n-len(d.statusRuns))...)
	}
	statusRuns = d.statusRuns[:len(ls.instances)-first]
	for i := first; i < len(ls.instances); i++ {
		in := ls.instances[i]
		r := &statusRuns[i-first]
		d.run(r, ps, ls, in)
		var lo, hi, end time.Time
		if r.start != nil {
			lo, hi = r.start.Earliest, r.start.Latest
		}
		if r.exit != nil {
			end = r.exit.Latest
		}
		lc.attempts = append(lc.attempts, in.attempt)
		lc.startLo, lc.startHi, lc.exitHi = append(lc.startLo, lo), append(lc.startHi, hi), append(lc.exitHi, end)
	}
	return first, statusRuns
}

// attemptsFrom are the attempts from `from` on that anything belongs to (an instance, from
// index first on, a wait, the Events after the last run), sorted, in the deriver's storage.
func (d *deriver) attemptsFrom(ls *laneState, from int32, first int) []int32 {
	lc := &ls.cache
	attempts := append(d.attempts[:0], lc.attempts[first:]...)
	attempts = ls.appendWaitAttempts(attempts, from)
	if next, ok := lc.next(); ok && next >= from && lc.hasOccsAfterLast(ls) {
		attempts = append(attempts, next)
	}
	slices.Sort(attempts)
	attempts = slices.Compact(attempts)
	d.attempts = attempts[:0] // only baseRunsFrom's loop reads them
	return attempts
}

// baseRunsFrom derives the base runs from attempt `from` on again (baseRun), each after the
// exit of the run before, keeping those before it, and is the lane's base runs.
func (d *deriver) baseRunsFrom(ps *podState, ls *laneState, from int32, first int, statusRuns []runMilestones) []*Run {
	lc := &ls.cache
	attempts := d.attemptsFrom(ls, from, first)
	// The runs before `from` stay. No snapshot holds this slice (result copies it), so it is
	// extended in place.
	keep := sort.Search(len(lc.base), func(i int) bool { return lc.base[i].Attempt >= from })
	if lc.changed > 0 {
		lc.changed = min(lc.changed, keep+1)
	}
	base, room := lc.base[:keep], lc.room[:keep]
	// The runs derived last time from `from` on: one derived again the same is kept.
	lc.old = append(lc.old[:0], lc.base[keep:]...)
	lc.oldRoom = append(lc.oldRoom[:0], lc.room[keep:]...)
	oi := 0
	var prevExit *Milestone // of the run before, which bounds the next one's start
	if first > 0 {
		prevExit = lc.exitOf(first - 1)
	}
	for _, a := range attempts {
		sr, in := ls.statusRunOf(a, first, statusRuns)
		for oi < len(lc.old) && lc.old[oi].Attempt < a {
			oi++
		}
		var old *Run
		var oldRoom []Milestone
		if oi < len(lc.old) {
			old, oldRoom = lc.old[oi], lc.oldRoom[oi]
		}
		r, rr := d.baseRun(ps, ls, a, in, sr, prevExit, old, oldRoom)
		if e := r.find(MExit); e != nil {
			prevExit = e
		}
		if len(r.Milestones) > 0 || len(r.Changes) > 0 {
			base, room = append(base, r), append(room, rr)
		}
	}
	clear(lc.old)
	clear(lc.oldRoom)
	lc.base, lc.room = base, room
	return base
}

// statusRunOf is attempt a's status-based milestones among statusRuns (the instances' from index
// first on) and its instance; nil, nil when the status did not show it there.
func (ls *laneState) statusRunOf(a int32, first int, statusRuns []runMilestones) (*runMilestones, *instance) {
	lc := &ls.cache
	if i := sort.Search(len(lc.attempts), func(i int) bool { return lc.attempts[i] >= a }); i >= first &&
		i < len(lc.attempts) && lc.attempts[i] == a {
		return &statusRuns[i-first], ls.instances[i]
	}
	return nil, nil
}

// earlierBound is the earlier of two upper bounds, where zero is no bound.
func earlierBound(a, b time.Time) time.Time {
	if a.IsZero() {
		return b
	}
	if b.IsZero() {
		return a
	}
	return earlier(a, b)
}

// laterBound is the later of two upper bounds, where zero is no bound (the later of all).
func laterBound(a, b time.Time) time.Time {
	if a.IsZero() || b.IsZero() {
		return time.Time{}
	}
	return later(a, b)
}

// exitOf is the last exit milestone, as derived, of the base runs up to instance i's, or nil:
// the one deriveLane's loop carries to the run after instance i (a run without an exit, as a
// run a count skipped past, passes on the one before it).
func (lc *laneCache) exitOf(i int) *Milestone {
	a := lc.attempts[i]
	for j := len(lc.base) - 1; j >= 0; j-- {
		if r := lc.base[j]; r.Attempt <= a {
			if e := r.find(MExit); e != nil {
				return e
			}
		}
	}
	return nil
}

// next is the attempt after the last run, if Events can belong to it: the last run has started
// (or there is none).
func (lc *laneCache) next() (int32, bool) {
	n := len(lc.attempts)
	switch {
	case n == 0:
		return 0, true
	case lc.before[n-1].IsZero() && lc.during[n-1].IsZero():
		return 0, false
	}
	return nextAttempt(lc.attempts[n-1]), true
}

// hasOccsAfterLast reports whether an Event occurrence of the lane lies after the last run's
// window for its kind: it belongs to the next attempt.
func (lc *laneCache) hasOccsAfterLast(ls *laneState) bool {
	n := len(lc.attempts)
	for reason, list := range ls.occs {
		if len(list) == 0 {
			continue
		}
		if n == 0 {
			return true
		}
		if b := lc.bounds(reason)[n-1]; !b.IsZero() && occKey(&list[len(list)-1]).After(b) {
			return true
		}
	}
	return false
}
