package play

import (
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// markKey identifies a milestone across snapshots: a lane, kind and attempt (and the reason of
// a condition or phase), of a pod or job.
type markKey struct {
	uid, lane string
	kind      timeline.MilestoneKind
	attempt   int32
	reason    string
	at        time.Time // a pod row's ready or not-ready: one per change
}

// Marks plays the observations (in receive order) once and notes, per pod or job UID, the
// receive times at which one of its milestones first appeared; "" holds them all. Stepping to
// those times shows one more milestone each time, which stepping to the milestones' own times
// would not: a milestone is usually known only some time after it happened. Only what changed
// between two snapshots is read.
func Marks(rec []timeline.Observation) map[string][]time.Time {
	mk := marker{
		out:      map[string][]time.Time{},
		seen:     map[markKey]bool{},
		lastPod:  map[string]*timeline.Pod{},
		lastRuns: map[string]map[string]timeline.Seq[*timeline.Run]{},
	}
	b := timeline.NewBuilder()
	for i := 0; i < len(rec); {
		t := rec[i].Received
		for i < len(rec) && rec[i].Received.Equal(t) {
			b.Apply(rec[i])
			i++
		}
		mk.snapshot(b.Snapshot(), t)
	}
	return mk.out
}

// marker is what Marks keeps between two snapshots: the times noted, the milestones seen, and
// each pod (and its containers' runs) as the last snapshot had it.
type marker struct {
	out      map[string][]time.Time
	seen     map[markKey]bool
	lastPod  map[string]*timeline.Pod
	lastRuns map[string]map[string]timeline.Seq[*timeline.Run] // by pod UID, then container
}

// note notes t for k's pod or job, and for all, unless k was seen before or t is already the
// last time noted.
func (mk *marker) note(k markKey, t time.Time) {
	if mk.seen[k] {
		return
	}
	mk.seen[k] = true
	for _, key := range []string{k.uid, ""} {
		if ts := mk.out[key]; len(ts) == 0 || !ts[len(ts)-1].Equal(t) {
			mk.out[key] = append(ts, t)
		}
	}
}

// snapshot notes the milestones of s, received at t, reading only the pods that changed.
func (mk *marker) snapshot(s timeline.Snapshot, t time.Time) {
	for _, p := range s.Pods.Items() {
		old := mk.lastPod[p.UID]
		if old == p {
			continue
		}
		mk.podRow(p, old, t)
		mk.runs(p, t)
		mk.lastPod[p.UID] = p
	}
	for _, j := range s.Jobs {
		for _, m := range j.Milestones {
			mk.note(markKey{uid: j.UID, lane: "job", kind: m.Kind, reason: m.Reason}, t)
		}
	}
}

// podRow notes the milestones of p's own row that old (nil: none) did not have.
func (mk *marker) podRow(p, old *timeline.Pod, t time.Time) {
	var oldRow timeline.Seq[timeline.Milestone]
	if old != nil {
		oldRow = old.Milestones
	}
	for _, m := range p.Milestones.ChangedSince(oldRow) {
		k := markKey{uid: p.UID, kind: m.Kind, reason: m.Reason}
		if m.Kind == timeline.MReady || m.Kind == timeline.MNotReady {
			k.at = m.At
		}
		mk.note(k, t)
	}
}

// runs notes the milestones of the runs of p's containers that changed since the last snapshot.
func (mk *marker) runs(p *timeline.Pod, t time.Time) {
	runs := mk.lastRuns[p.UID]
	if runs == nil {
		runs = map[string]timeline.Seq[*timeline.Run]{}
		mk.lastRuns[p.UID] = runs
	}
	for ci := range p.Containers {
		c := &p.Containers[ci]
		was := runs[c.Name]
		for ri, rp := range c.Runs.ChangedSince(was) { // the blocks of runs seen are skipped whole
			r := *rp
			if ri < was.Len() && was.At(ri) == r {
				continue
			}
			for _, m := range r.Milestones {
				mk.note(markKey{uid: p.UID, lane: c.Name, kind: m.Kind, attempt: m.Attempt}, t)
			}
		}
		runs[c.Name] = c.Runs
	}
}
