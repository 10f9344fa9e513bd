package timeline

import (
	"sort"
	"time"
)

// laneCache is what was derived of a lane last time: the runs before the final (cross-lane)
// pass, and the index that files an Event occurrence under the run it belongs to.
type laneCache struct {
	attempts []int32     // the instances' attempts, in order
	ends     []time.Time // ends[i]: the latest exit bound among instances[:i+1]; zero: one has not exited
	base     []*Run      // by attempt, before the final pass
}

// attemptAt is the run an Event occurrence at t belongs to: the first whose exit is unknown or
// not certainly before t; after the last run's exit, the next attempt.
func (lc *laneCache) attemptAt(t time.Time) int32 {
	i := lc.windowOf(t)
	if i < len(lc.attempts) {
		return lc.attempts[i]
	}
	if n := len(lc.attempts); n > 0 {
		return lc.attempts[n-1] + 1
	}
	return 0
}

// windowOf is the index of the instance whose window holds t, or len(attempts) after them all.
func (lc *laneCache) windowOf(t time.Time) int {
	return sort.Search(len(lc.ends), func(i int) bool { return lc.ends[i].IsZero() || !t.After(lc.ends[i]) })
}

// occsOf are the occurrences of list (in time order) that belong to attempt a.
func (lc *laneCache) occsOf(list []eventOcc, a int32) []eventOcc {
	if len(list) == 0 {
		return nil
	}
	i := sort.Search(len(lc.attempts), func(i int) bool { return lc.attempts[i] >= a })
	var lo, hi int // list[lo:hi] is the window
	switch {
	case i < len(lc.attempts) && lc.attempts[i] == a:
		if i > 0 {
			lo = upperBound(list, lc.ends[i-1])
		}
		hi = upperBound(list, lc.ends[i])
	case i == len(lc.attempts) && (i == 0 || a == lc.attempts[i-1]+1):
		if i > 0 {
			lo = upperBound(list, lc.ends[i-1])
		}
		hi = len(list)
	default:
		return nil // an attempt between two known runs: no Event is filed under it
	}
	return list[lo:hi]
}

// upperBound is the index of the first occurrence after t; zero t is after everything.
func upperBound(list []eventOcc, t time.Time) int {
	if t.IsZero() {
		return len(list)
	}
	return sort.Search(len(list), func(i int) bool { return list[i].at.After(t) })
}

// deriveLane brings the lane's base runs up to date: those from the first dirty attempt on are
// derived again, the others kept. created is the pod's creation, the floor of the lane.
func (d *deriver) deriveLane(ls *laneState, created time.Time) []*Run {
	lc := &ls.cache
	from := ls.dirtyFrom
	if from == noDirty {
		return lc.base
	}
	ls.dirtyFrom = noDirty
	// The exits, which decide where Events are filed: from the first instance touched on.
	first := sort.Search(len(ls.instances), func(i int) bool { return ls.instances[i].attempt >= from })
	lc.attempts, lc.ends = lc.attempts[:first], lc.ends[:first]
	statusRuns := make([]*runMilestones, len(ls.instances)-first)
	for i := first; i < len(ls.instances); i++ {
		in := ls.instances[i]
		r := d.run(ls, in)
		statusRuns[i-first] = r
		var end time.Time
		if r.exit != nil {
			end = r.exit.Latest
			if i > 0 && (lc.ends[i-1].IsZero() || lc.ends[i-1].After(end)) {
				end = lc.ends[i-1]
			}
		}
		lc.attempts, lc.ends = append(lc.attempts, in.attempt), append(lc.ends, end)
	}
	// The attempts from `from` on that anything belongs to.
	set := map[int32]bool{}
	for _, a := range lc.attempts[first:] {
		set[a] = true
	}
	for i := len(ls.waits) - 1; i >= 0 && ls.waits[i].attempt >= from; i-- {
		set[ls.waits[i].attempt] = true
	}
	if next, ok := lc.next(); ok && next >= from && lc.hasOccsAfterLast(ls) {
		set[next] = true
	}
	attempts := make([]int32, 0, len(set))
	for a := range set {
		attempts = append(attempts, a)
	}
	sort.Slice(attempts, func(i, j int) bool { return attempts[i] < attempts[j] })

	keep := sort.Search(len(lc.base), func(i int) bool { return lc.base[i].Attempt >= from })
	base := append(lc.base[:keep:keep], make([]*Run, 0, len(attempts))...)
	var lastExit *Milestone // of the last instance, for a run known only from its Started Event
	if first > 0 {
		lastExit = lc.exitOf(first - 1)
	}
	for _, a := range attempts {
		var sr *runMilestones
		if i := sort.Search(len(lc.attempts), func(i int) bool { return lc.attempts[i] >= a }); i >= first &&
			i < len(lc.attempts) && lc.attempts[i] == a {
			sr = statusRuns[i-first]
		}
		r := d.baseRun(ls, a, sr, lastExit, created)
		if sr != nil && sr.exit != nil && a == lc.attempts[len(lc.attempts)-1] {
			lastExit = sr.exit
		}
		if len(r.Milestones) > 0 || len(r.Changes) > 0 {
			base = append(base, r)
		}
	}
	lc.base = base
	return base
}

// exitOf is the exit milestone of instance i as derived, from the base runs, or nil.
func (lc *laneCache) exitOf(i int) *Milestone {
	a := lc.attempts[i]
	for j := len(lc.base) - 1; j >= 0; j-- {
		if lc.base[j].Attempt == a {
			return lc.base[j].find(MExit)
		}
	}
	return nil
}

// next is the attempt after the last run, if that run has exited (or there is none): Events
// after its exit belong to it.
func (lc *laneCache) next() (int32, bool) {
	n := len(lc.attempts)
	switch {
	case n == 0:
		return 0, true
	case lc.ends[n-1].IsZero():
		return 0, false
	}
	return lc.attempts[n-1] + 1, true
}

// hasOccsAfterLast reports whether an Event occurrence of the lane lies after the last run's
// exit: it belongs to the next attempt.
func (lc *laneCache) hasOccsAfterLast(ls *laneState) bool {
	n := len(lc.ends)
	if n > 0 && lc.ends[n-1].IsZero() {
		return false
	}
	for _, list := range ls.occs {
		if len(list) == 0 {
			continue
		}
		if n == 0 || list[len(list)-1].at.After(lc.ends[n-1]) {
			return true
		}
	}
	return false
}
