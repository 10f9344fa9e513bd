package timeline

import (
	"slices"
	"time"
)

// sameRun reports whether run r, derived before, is what deriving it again made: the same
// milestones (in order, with their offsets), state changes and log. Such a run is kept rather
// than replaced, so that what a snapshot holds changes only where the timeline did.
func sameRun(r *Run, ms []Milestone, changes []StateChange, lr *logRun) bool {
	if len(r.Milestones) != len(ms) || (r.Milestones == nil) != (ms == nil) || !slices.Equal(r.Changes, changes) ||
		!sameLog(r.Log, lr) {
		return false
	}
	for i := range ms {
		if !sameMilestone(&r.Milestones[i], &ms[i]) {
			return false
		}
	}
	return true
}

// sameMilestone reports whether two milestones are equal in every field (times to the
// location, so that equal ones also print alike).
func sameMilestone(x, y *Milestone) bool { return x.Offset == y.Offset && sameButOffset(x, y) }

// sameButOffset is sameMilestone but for the offsets, which follow from the times and the pod's
// creation.
func sameButOffset(x, y *Milestone) bool {
	return x.Kind == y.Kind && x.Container == y.Container && x.Attempt == y.Attempt && x.At == y.At &&
		x.Earliest == y.Earliest && x.Latest == y.Latest && x.Source == y.Source && x.Reason == y.Reason &&
		x.Message == y.Message && (x.ExitCode == nil) == (y.ExitCode == nil) && deref(x.ExitCode) == deref(y.ExitCode) &&
		x.Signal == y.Signal && x.Count == y.Count && x.Why == y.Why &&
		(x.Gap == nil) == (y.Gap == nil) && (x.Gap == nil || *x.Gap == *y.Gap) &&
		(x.Evidence == nil) == (y.Evidence == nil) && slices.Equal(x.Evidence, y.Evidence)
}

// sameLog reports whether what a run's log said (as runLog would put it) is unchanged: a log
// only grows, so the same count of lines and the same first and last stamps are the same log.
func sameLog(l *RunLog, lr *logRun) bool {
	if lr == nil || lr.lines == 0 {
		return l == nil
	}
	first := lr.first
	if !lr.fromStart {
		first = time.Time{}
	}
	return l != nil && l.Lines == lr.lines && l.Last == lr.last && l.First == first && l.PerSecond.Len() == lr.perSecond.len()
}
