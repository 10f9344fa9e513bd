package play

import (
	"slices"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Retention: a run that watches a scope for hours (the view's table, the agent) lets go of a pod
// it has seen final for keep or more (--keep-finished): the engine forgets its timeline, and
// keeps its UID as a tombstone, so that what the API still says of it (a relist, a late update,
// its late Events) does not bring it back as a new pod. The agent and a live scope's run share
// this one copy; each says when "now" is (the agent its clock, the view the latest receive
// time).
type retention struct {
	keep  time.Duration
	kept  map[string]*finalPod // the pods seen final and not yet forgotten, by UID
	queue []string             // their UIDs, in the order they were seen final
	tombs map[string]tombstone // the pods forgotten, by UID
	dead  []string             // the UIDs of the tombs of deleted pods, in the order buried
	live  int                  // tombs of pods the API has not deleted
	seen  timeline.Seq[*timeline.Pod]
}

// finalPod is a pod seen final: since when, and whether the API has deleted it.
type finalPod struct {
	at      time.Time
	deleted bool
}

// tombstone is what is kept of a pod forgotten: whether the API had deleted it, and when.
type tombstone struct {
	deleted bool
	at      time.Time
}

// tombstoneGrace is how long, at least, a deleted pod's UID is kept once it is forgotten: its
// late Events, and a watch relisted from before its deletion, may still bring it back.
const tombstoneGrace = 10 * time.Minute

// Retain has the engine let go of the pods final for keep or more, when Sweep says: their
// timelines go, their UIDs are kept (until the API deletes the pod, or tombstoneGrace after a
// deleted one's), and what comes about them later is not applied. The snapshot counts those the
// API still has in Forgotten. Zero lets go at the first Sweep after a pod is final.
func (e *Engine) Retain(keep time.Duration) {
	e.ret = &retention{keep: keep, kept: map[string]*finalPod{}, tombs: map[string]tombstone{}}
}

// Final reports whether a pod's timeline will not change: the pod was deleted and is gone, or
// its phase is terminal and no container of it still runs (a container that never ran, as an
// app behind a failed init container, has nothing to wait for). A pod's brief tells as well.
func Final(p *timeline.Pod) bool {
	if p.Deleted {
		return true
	}
	if p.Phase != "Succeeded" && p.Phase != "Failed" {
		return false
	}
	for i := range p.Containers {
		switch laneState(&p.Containers[i]) {
		case timeline.StateRunning, timeline.StateStarted, timeline.StateReady, timeline.StateTerminating:
			return false
		}
	}
	return true
}

// laneState is the state a container's lane is in now: its last run's last change.
func laneState(c *timeline.Container) timeline.LaneState {
	if c.Runs.Len() == 0 {
		return timeline.StatePending
	}
	r := c.Runs.At(c.Runs.Len() - 1)
	if len(r.Changes) == 0 {
		return timeline.StatePending
	}
	return r.Changes[len(r.Changes)-1].State
}

// Finished notes p, a pod of a snapshot of this engine's, as seen at now: if it is final (Final)
// it is kept from now for Retain's keep. first says it is final and was not before. Without
// Retain it only tells whether p is final, first each time.
func (e *Engine) Finished(p *timeline.Pod, now time.Time) (first bool) {
	if !Final(p) {
		return false
	}
	r := e.ret
	if r == nil {
		return true
	}
	if f := r.kept[p.UID]; f != nil {
		f.deleted = p.Deleted
		return false
	}
	r.kept[p.UID] = &finalPod{at: now, deleted: p.Deleted}
	r.queue = append(r.queue, p.UID)
	return true
}

// Done reports whether the pod with this UID was seen final (Finished) and is kept or forgotten.
func (e *Engine) Done(uid string) bool {
	if e.ret == nil {
		return false
	}
	_, kept := e.ret.kept[uid]
	_, gone := e.ret.tombs[uid]
	return kept || gone
}

// FinishedIn notes the pods of s that changed since the last FinishedIn (Finished, at now):
// what a run that does not look at each pod itself calls on each snapshot. It costs what
// changed. Without Retain it does nothing.
func (e *Engine) FinishedIn(s timeline.Snapshot, now time.Time) {
	r := e.ret
	if r == nil {
		return
	}
	for _, pp := range s.Pods.ChangedSince(r.seen) {
		e.Finished(*pp, now)
	}
	r.seen = s.Pods
}

// Sweep lets go of the pods final for keep or more at now, but those it is asked to keep (a pod
// a user has open), which are kept keep more; and of the tombstones of deleted pods
// tombstoneGrace (or keep, if longer) after. It returns the UIDs let go; the next snapshot is
// without them. It costs what it lets go of, not the scope. Without Retain it does nothing.
func (e *Engine) Sweep(now time.Time, except ...string) []string {
	r := e.ret
	if r == nil {
		return nil
	}
	uids := r.expire(now, except)
	r.bury(uids, now)
	e.Forget(uids...)
	return uids
}

// expire takes off the queue the pods final for keep or more at now and returns their UIDs,
// but for those in except, which go to the queue's end as if seen final now.
func (r *retention) expire(now time.Time, except []string) []string {
	n := 0
	for n < len(r.queue) && now.Sub(r.kept[r.queue[n]].at) >= r.keep {
		n++
	}
	if n == 0 {
		return nil
	}
	var uids, again []string
	for _, uid := range r.queue[:n] {
		if slices.Contains(except, uid) {
			r.kept[uid].at = now
			again = append(again, uid)
		} else {
			uids = append(uids, uid)
		}
	}
	r.queue = append(append(r.queue[:0], r.queue[n:]...), again...)
	return uids
}

// bury keeps a tombstone for each pod forgotten, and lets go of the deleted pods' tombstones
// old enough that nothing about them can come.
func (r *retention) bury(uids []string, now time.Time) {
	for _, uid := range uids {
		f := r.kept[uid]
		delete(r.kept, uid)
		r.tombs[uid] = tombstone{deleted: f.deleted, at: now}
		if f.deleted {
			r.dead = append(r.dead, uid)
		} else {
			r.live++
		}
	}
	n := 0
	for ; n < len(r.dead); n++ {
		tb, ok := r.tombs[r.dead[n]]
		if ok && now.Sub(tb.at) < max(r.keep, tombstoneGrace) {
			break
		}
		delete(r.tombs, r.dead[n])
	}
	r.dead = append(r.dead[:0], r.dead[n:]...)
}

// admits reports whether o is to be applied: not when it is about a pod forgotten. The pod's
// deletion ends its tombstone, since the API will not bring it back; changed says the count of
// forgotten pods did.
func (r *retention) admits(o timeline.Observation) (ok, changed bool) {
	if r == nil || len(r.tombs) == 0 {
		return true, false
	}
	switch {
	case o.Pod != nil:
		tb, gone := r.tombs[o.Pod.UID]
		if !gone {
			return true, false
		}
		if o.Type == timeline.Deleted && !tb.deleted {
			delete(r.tombs, o.Pod.UID)
			r.live--
			return false, true
		}
		return false, false
	case o.Event != nil && o.Event.InvolvedKind == "Pod":
		_, gone := r.tombs[o.Event.InvolvedUID]
		return !gone, false
	}
	return true, false
}

// forgotten is how many pods forgotten the API still has.
func (r *retention) forgotten() int {
	if r == nil {
		return 0
	}
	return r.live
}
