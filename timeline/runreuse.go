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
		x.Earliest == y.Earliest && x.Latest == y.Latest && x.Source == y.Source && sameReport(x, y) &&
		(x.Gap == nil) == (y.Gap == nil) && (x.Gap == nil || *x.Gap == *y.Gap) &&
		(x.Evidence == nil) == (y.Evidence == nil) && slices.Equal(x.Evidence, y.Evidence)
}

// sameReport reports whether two milestones say the same of what happened: reason, message,
// exit code, signal, count and why.
func sameReport(x, y *Milestone) bool {
	return x.Reason == y.Reason && x.Message == y.Message && (x.ExitCode == nil) == (y.ExitCode == nil) &&
		deref(x.ExitCode) == deref(y.ExitCode) && x.Signal == y.Signal && x.Count == y.Count && x.Why == y.Why
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

// keptRun is run a as the lane keeps it, from its milestones ms (the deriver's scratch) and
// state changes (d.changes) derived again, and its log lr: old itself when it came out the same
// (snapshots that hold it need not change), else a new Run whose milestones are copied into old's
// storage room when they only grew (grownMilestones), or into a slice with room to grow. The
// run's storage is returned with it.
func (d *deriver) keptRun(a int32, ms []Milestone, lr *logRun, old *Run, room []Milestone) (*Run, []Milestone) {
	if old != nil && old.Attempt == a && sameRun(old, ms, d.changes, lr) {
		return old, room
	}
	var kept []Milestone
	if old != nil && old.Attempt == a {
		kept = grownMilestones(ms, old, room)
	}
	if kept == nil {
		// Room to grow into for a run that is new or longer than it was: it is likely to grow
		// again (a crash loop's last run does at nearly every frame, by one to three milestones).
		n := 0
		if !d.final && (old == nil || old.Attempt != a || len(ms) > len(old.Milestones)) {
			n = milestoneRoom
		}
		kept = keptMilestones(ms, old, n)
	}
	// Changes never nil, as newRun makes them (slices.Clone would keep a nil scratch's nil).
	return &Run{Attempt: a, Milestones: kept[:len(kept):len(kept)], Changes: append(make([]StateChange, 0, len(d.changes)), d.changes...),
		Log: runLog(lr)}, kept
}
