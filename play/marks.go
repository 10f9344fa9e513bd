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
	out := map[string][]time.Time{}
	seen := map[markKey]bool{}
	note := func(k markKey, t time.Time) {
		if seen[k] {
			return
		}
		seen[k] = true
		for _, key := range []string{k.uid, ""} {
			if ts := out[key]; len(ts) == 0 || !ts[len(ts)-1].Equal(t) {
				out[key] = append(ts, t)
			}
		}
	}
	lastPod := map[string]*timeline.Pod{}
	lastRuns := map[string]map[string]timeline.Seq[*timeline.Run]{}
	b := timeline.NewBuilder()
	for i := 0; i < len(rec); {
		t := rec[i].Received
		for i < len(rec) && rec[i].Received.Equal(t) {
			b.Apply(rec[i])
			i++
		}
		s := b.Snapshot()
		for _, p := range s.Pods.Items() {
			old := lastPod[p.UID]
			if old == p {
				continue
			}
			var oldRow timeline.Seq[timeline.Milestone]
			if old != nil {
				oldRow = old.Milestones
			}
			for _, m := range p.Milestones.ChangedSince(oldRow) {
				k := markKey{uid: p.UID, kind: m.Kind, reason: m.Reason}
				if m.Kind == timeline.MReady || m.Kind == timeline.MNotReady {
					k.at = m.At
				}
				note(k, t)
			}
			runs := lastRuns[p.UID]
			if runs == nil {
				runs = map[string]timeline.Seq[*timeline.Run]{}
				lastRuns[p.UID] = runs
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
						note(markKey{uid: p.UID, lane: c.Name, kind: m.Kind, attempt: m.Attempt}, t)
					}
				}
				runs[c.Name] = c.Runs
			}
			lastPod[p.UID] = p
		}
		for _, j := range s.Jobs {
			for _, m := range j.Milestones {
				note(markKey{uid: j.UID, lane: "job", kind: m.Kind, reason: m.Reason}, t)
			}
		}
	}
	return out
}
