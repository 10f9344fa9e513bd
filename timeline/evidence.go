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
// crash loop's last run, derived again, changes a milestone or two).
func keptMilestones(ms []Milestone, prev *Run) []Milestone {
	out := slices.Clone(ms)
	var shared [64]bool // of the first 64 milestones (a run has a handful): evidence is prev's
	n := 0
	for i := range out {
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
		return out
	}
	all := make([]Evidence, 0, n)
	for i := range out {
		if ev := out[i].Evidence; len(ev) > 0 && (i >= len(shared) || !shared[i]) {
			k := len(all)
			all = append(all, ev...)
			// Capped: what the final pass adds to a copy of it goes to a new list.
			out[i].Evidence = all[k:len(all):len(all)]
		}
	}
	return out
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
