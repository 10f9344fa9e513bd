package timeline

import (
	"slices"
	"time"
)

// A milestone's evidence: made in the deriver's scratch while a lane is derived, and copied
// into a run only when the run is new.

// eventMilestone places a milestone on one Event occurrence.
func eventMilestone(kind MilestoneKind, container string, attempt int32, oc eventOcc) Milestone {
	m := eventAt(kind, container, attempt, oc)
	m.Evidence = []Evidence{oc.evidence(oc.ev.Reason)}
	return m
}

// eventAt is eventMilestone without its evidence.
func eventAt(kind MilestoneKind, container string, attempt int32, oc eventOcc) Milestone {
	return Milestone{Kind: kind, Container: container, Attempt: attempt, At: oc.at, Earliest: oc.when.lo,
		Latest: oc.when.hi, Source: SourceEvent, Message: oc.message}
}

// eventMilestone is eventMilestone with its evidence in the lane's scratch (see deriver.ev).
func (d *deriver) eventMilestone(kind MilestoneKind, container string, attempt int32, oc eventOcc) Milestone {
	m := eventAt(kind, container, attempt, oc)
	m.Evidence = d.evidence(1, oc.evidence(oc.ev.Reason))
	return m
}

// observedMilestone is observedMilestone with its evidence in the lane's scratch.
func (d *deriver) observedMilestone(kind MilestoneKind, s seen, what string, floor time.Time) Milestone {
	m, ev := observedAt(kind, s, what, floor)
	m.Evidence = d.evidence(1, ev)
	return m
}

// evidence is e as a milestone's only evidence so far, with room for as many as room in all,
// in the lane's scratch. What is appended past the room is allocated, as append does.
func (d *deriver) evidence(room int, e Evidence) []Evidence {
	i := len(d.ev)
	d.ev = append(d.ev, e)
	for range room - 1 {
		d.ev = append(d.ev, Evidence{})
	}
	return d.ev[i : i+1 : i+room]
}

// keptMilestones is a copy of a run's milestones to keep, their evidence copied out of the
// deriver's scratch into one list of its own; where a milestone's evidence is what prev (the
// run as derived last time, or nil) holds for its milestone of that kind, prev's is shared (a
// crash loop's last run, derived again, changes a milestone or two). The copy has room for
// that many more after its end, which grownMilestones may fill.
func keptMilestones(ms []Milestone, prev *Run, room int) []Milestone {
	out := make([]Milestone, len(ms), len(ms)+room)
	copy(out, ms)
	ownEvidence(out, 0, prev)
	return out
}

// milestoneRoom is how many milestones a run that is new or grew gets room for: a crash loop's
// last run gets its milestones one or three at a time (the back-off before it; the wait;
// created; start, started and ready; the exit), each a new version of the run. Two: room for
// six took 19% more memory for a 1,000-pod Job (whose runs grow once, then change) for 3% more
// speed in the loop; three or four, no faster in the loop than two.
const milestoneRoom = 2

// grownMilestones is the milestones ms of a run whose version before, old, holds the first of
// them unchanged, written into room: old's milestones with room after them, which only the
// builder holds. The new milestones go into the room after old's, which no snapshot sees (a run
// hands out its milestones capped at their length), and old's are shared. It is nil if ms does
// not begin with old's or does not fit: the run is copied then.
func grownMilestones(ms []Milestone, old *Run, room []Milestone) []Milestone {
	n := len(old.Milestones)
	if n == 0 || len(ms) <= n || len(ms) > cap(room) || len(room) != n || &room[0] != &old.Milestones[0] {
		return nil
	}
	for i := range n {
		if !sameMilestone(&old.Milestones[i], &ms[i]) {
			return nil
		}
	}
	out := append(room, ms[n:]...)
	ownEvidence(out, n, old)
	return out
}

// ownEvidence copies the evidence of out[from:] out of the deriver's scratch into one list, or
// shares prev's where it is the same.
func ownEvidence(out []Milestone, from int, prev *Run) {
	var shared [64]bool // of the first 64 milestones (a run has a handful): evidence is prev's
	n := 0
	for i := from; i < len(out); i++ {
		ev := out[i].Evidence
		if len(ev) == 0 {
			continue
		}
		if p := prevEvidence(prev, i, out[i].Kind); i < len(shared) && len(p) > 0 && slices.Equal(p, ev) {
			out[i].Evidence, shared[i] = p, true // capped, as below
			continue
		}
		n += len(ev)
	}
	if n == 0 {
		return
	}
	all := make([]Evidence, 0, n)
	for i := from; i < len(out); i++ {
		if ev := out[i].Evidence; len(ev) > 0 && (i >= len(shared) || !shared[i]) {
			k := len(all)
			all = append(all, ev...)
			// Capped: what the final pass adds to a copy of it goes to a new list.
			out[i].Evidence = all[k:len(all):len(all)]
		}
	}
}

// prevEvidence is the evidence of prev's milestone of that kind, the one at index i if it is of
// that kind (as it nearly always is), else the first; nil if prev has none.
func prevEvidence(prev *Run, i int, kind MilestoneKind) []Evidence {
	if prev == nil {
		return nil
	}
	if i < len(prev.Milestones) && prev.Milestones[i].Kind == kind {
		return prev.Milestones[i].Evidence
	}
	if m := prev.find(kind); m != nil {
		return m.Evidence
	}
	return nil
}
