package timeline

import "sort"

// What an observation marks for derivation again. A lane's runs are derived again from the first
// attempt marked on (laneState.dirtyFrom); each mark says which runs the news can change, and
// no more, for a crash loop's runs are derived at nearly every frame: marking the run before
// the last when nothing of it changed had it derived again twice a cycle, to come out the same.

// touch marks the runs from attempt a on for derivation again. An a out of the attempts' range
// (a log's attempt is what its source said) marks the first or the last.
func (ls *laneState) touch(a int32) {
	ls.dirtyFrom = min(ls.dirtyFrom, min(max(a, 0), maxAttempt))
}

// touchSeen marks what a run's news changes: a start seen first moves the window of the run
// before it (see touchStart); an end alone changes only this run and those after it.
func (ls *laneState) touchSeen(in *instance, ran, ended bool) {
	switch {
	case ran:
		ls.touchStart(in)
	case ended:
		ls.touch(in.attempt)
	}
}

// touchStart marks what a run's start, seen first, changes: the run and those after it, and
// the run before it, which files Started Events until this one may have begun (and, had the
// status not shown it end, ends before it). When its last derivation had the status's exit
// (exitHi), it is derived again only if its window for Started Events, or the next attempt's
// for Created, now holds other Events than it did (deriveLane checks, see windowsMoved).
func (ls *laneState) touchStart(in *instance) {
	prev := ls.attemptBefore(in)
	if w := ls.cache.window(prev); ls.recheck == noDirty && w.known && !ls.cache.exitHi[w.i].IsZero() {
		ls.recheck = prev
		ls.touch(in.attempt)
		return
	}
	ls.touch(prev)
}

// attemptBefore is the attempt of the run before in: in.attempt-1, unless the counts skipped
// some (a watch that began late, a count out of range); then the last run known before it.
func (ls *laneState) attemptBefore(in *instance) int32 {
	i := sort.Search(len(ls.instances), func(i int) bool { return ls.instances[i].attempt >= in.attempt })
	if i > 0 {
		return ls.instances[i-1].attempt
	}
	return in.attempt - 1
}

// boundsRunBefore reports whether an Event of the reason, one that comes before a run begins
// and filed under attempt a, can change the run before a. Only Created does: the kubelet creates
// a container again only after the last one exited, so the first Created of a run bounds the
// end of the one before it (or implies it, where the status never showed it). A Created that
// comes after every other one, and no sooner than the latest the status lets that run have
// ended (as last derived), changes neither.
func (ls *laneState) boundsRunBefore(reason string, a int32, oc *eventOcc, last bool) bool {
	if reason != "Created" {
		return false
	}
	w := ls.cache.window(a - 1)
	if !last || !w.known {
		return true
	}
	hi := ls.cache.exitHi[w.i] // zero: the status showed no end
	return hi.IsZero() || oc.when.hi.Before(hi)
}

// windowsMoved reports whether the Events run a reads from other runs' windows, as the windows
// are now, are others than before, which they were as the windows were (see touchStart): its
// Started Events, and the next attempt's Created, which bound its exit.
func (ls *laneState) windowsMoved(a int32, started, created []eventOcc) bool {
	moved := func(now, before []eventOcc) bool {
		return len(now) != len(before) || len(now) > 0 && &now[0] != &before[0]
	}
	lc := &ls.cache
	return moved(lc.occsIn(lc.window(a), "Started", ls.occs["Started"]), started) ||
		moved(lc.occsIn(lc.window(a+1), "Created", ls.occs["Created"]), created)
}
