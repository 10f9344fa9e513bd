package timeline

import (
	"slices"
	"time"
)

// podRowCache is the pod row as derived last time, and how many conditions it has taken in.
type podRowCache struct {
	list     seqBuilder[Milestone]
	conds    int
	ready    readyState
	deleting *Milestone // the deletion request's milestone, if any (a copy)
}

// podRow brings the pod row up to date: a new Ready condition is added to it; any other change
// (deletion, phase, a first condition of another type, the Scheduled Event) derives it again.
func (d *deriver) podRow(ps *podState) Seq[Milestone] {
	rc := &ps.rows
	if ps.rowDirty {
		ps.rowDirty = false
		clear(d.ev) // the row's evidence is made in the scratch, as a lane's is
		d.ev = d.ev[:0]
		ms, ready := d.podMilestones(ps, d.row[:0])
		d.row = ms[:0] // the list below copies them
		sortMilestones(ms)
		for i := range ms {
			ms[i].Offset = offsetFrom(ps.created(), &ms[i])
		}
		keepRow(&rc.list, ms)
		rc.deleting = nil
		for i := range rc.list.len() {
			if m := rc.list.at(i); m.Kind == MDeleting {
				del := *m
				rc.deleting = &del
			}
		}
		rc.conds, rc.ready = ps.conditions.len(), ready
		return rc.list.view()
	}
	for i := rc.conds; i < ps.conditions.len(); i++ {
		c := ps.conditions.at(i)
		if m, ok := d.readyMilestone(c, &rc.ready); ok {
			m.Offset = offsetFrom(ps.created(), &m)
			j := rc.list.len()
			for j > 0 && Before(&m, rc.list.at(j-1)) {
				j--
			}
			m.Evidence = slices.Clip(slices.Clone(m.Evidence)) // out of the scratch
			rc.list.insert(j, m)
		}
	}
	rc.conds = ps.conditions.len()
	return rc.list.view()
}

// keepRow makes list hold ms, a pod row derived again with its evidence in the deriver's
// scratch: the milestones it holds the same are kept, and those after them are added past its
// end, which no snapshot sees, their evidence copied out of the scratch. A row is derived again
// as the pod's conditions and Events come, and mostly grows at its end: it had been copied whole,
// with new evidence for each milestone, each time (5,282 times in the live path of a 1,000-pod
// Job).
func keepRow(list *seqBuilder[Milestone], ms []Milestone) {
	n, k := list.len(), 0
	for k < n && k < len(ms) && sameMilestone(list.at(k), &ms[k]) {
		k++
	}
	if k < n {
		ownEvidence(ms, 0, nil)
		list.reset(ms)
		return
	}
	ownEvidence(ms, k, nil)
	for ; k < len(ms); k++ {
		list.insert(k, ms[k])
	}
}

// readyMilestone is the pod row's milestone for a Ready condition change: ready, or not-ready
// once it has been ready or when readiness gates hold it. st carries what came before.
func (d *deriver) readyMilestone(c *conditionChange, st *readyState) (Milestone, bool) {
	if c.Type != "Ready" {
		return Milestone{}, false
	}
	heldBy := st.heldBy
	st.heldBy = ""
	switch {
	case c.Status == "True":
		st.ever = true
		m := d.rowCondition(MReady, c)
		if heldBy != "" {
			m.Why = gatesReadyWhy(heldBy)
		}
		return m, true
	case c.Reason == reasonGatesNotReady:
		st.heldBy = c.Message
		return d.gatesHeldMilestone(c), true
	case st.ever:
		m := d.rowCondition(MNotReady, c)
		m.Reason = c.Reason
		return m, true
	}
	return Milestone{}, false
}

// podMilestones are the pod row's milestones: created, scheduled, initialized, containers ready, ready and
// not-ready, disruption, deletion requested, terminal phase and deletion from the API.
func (d *deriver) podMilestones(ps *podState, ms []Milestone) (_ []Milestone, ready readyState) {
	ms = d.appendPodCreated(ps, ms)
	ms = d.appendScheduled(ps, ms)
	if c := ps.firstCondition("Initialized", "True"); c != nil {
		m := d.rowCondition(MInitialized, c)
		if f := ps.appFirst; f != nil {
			d.boundAbove(&m, f, "before "+f.ev.Container+"'s first Event "+f.ev.Reason,
				"the kubelet creates the app containers once the pod is initialized")
		}
		ms = append(ms, m)
	}
	if c := ps.firstCondition("ContainersReady", "True"); c != nil {
		ms = append(ms, d.rowCondition(MContainersReady, c))
	}
	for i := range ps.conditions.len() {
		if m, ok := d.readyMilestone(ps.conditions.at(i), &ready); ok {
			ms = append(ms, m)
		}
	}
	dc := ps.firstCondition("DisruptionTarget", "True")
	if dc != nil {
		// Why the pod is to go, as the API server, the scheduler or the pod garbage collector said.
		m := d.rowCondition(MDisruption, dc)
		m.Reason, m.Message = dc.Reason, dc.Message
		ms = append(ms, m)
	}
	if s := ps.deletion; s != nil {
		del := d.deletingMilestone(ps, s)
		if dc != nil {
			d.disruptionBeforeDeletion(&ms[len(ms)-1], dc, &del, s)
		}
		ms = append(ms, del)
	}
	for _, ph := range ps.phases {
		if ph.phase == "Succeeded" || ph.phase == "Failed" {
			ms = append(ms, d.observedMilestone(MPhase, ph.seen, "status.phase", ps.firstSeen))
			ms[len(ms)-1].Reason = ph.phase
		}
	}
	if s := ps.deleted; s != nil {
		ms = append(ms, d.observedMilestone(MDeleted, *s, "watch event DELETED", ps.firstSeen))
	}
	return ms, ready
}

// appendPodCreated appends the pod's creation, from its creationTimestamp: none when that is
// not usable (noted), and its offsets count from when it was first seen.
func (d *deriver) appendPodCreated(ps *podState, ms []Milestone) []Milestone {
	p := ps.last
	if c := ps.created(); !c.Equal(p.Created) {
		d.note("pod " + p.Name + " has no usable creationTimestamp: its offsets count from when it was first seen")
		return ms
	}
	created := d.bound(wholeSecond(p.Created), time.Time{}, ps.firstSeen)
	return append(ms, Milestone{Kind: MCreated, At: p.Created, Earliest: created.lo, Latest: created.hi,
		Source: SourceStatus, Evidence: d.evidence(1, Evidence{What: "metadata.creationTimestamp", API: p.Created, Precision: "1s"})})
}

// appendScheduled appends when the pod was scheduled: its Scheduled Event, else its PodScheduled
// condition.
func (d *deriver) appendScheduled(ps *podState, ms []Milestone) []Milestone {
	if occs := ps.scheduled; len(occs) > 0 {
		oc := occs[0]
		return append(ms, Milestone{Kind: MScheduled, At: oc.at, Earliest: oc.when.lo, Latest: oc.when.hi,
			Source: SourceEvent, Message: oc.message, Evidence: d.evidence(1, oc.evidence(oc.ev.Reason))})
	}
	if c := ps.firstCondition("PodScheduled", "True"); c != nil {
		return append(ms, d.rowCondition(MScheduled, c))
	}
	return ms
}

// deletingMilestone is the deletion request, first seen as s: its deletionTimestamp less the
// grace period, placed when seen if that is out of the pod's life, reaching back to when the pod
// was last seen without it if no grace was left, and before the first Killing Event.
func (d *deriver) deletingMilestone(ps *podState, s *seen) Milestone {
	req := ps.deletionAt.Add(-seconds(ps.deletionGrace))
	iv := d.bound(wholeSecond(req), time.Time{}, s.at)
	switch {
	case outOfLife(req, ps.created(), s.at):
		iv = interval{s.prev, s.at} // placed when seen
		d.note("pod " + ps.last.Name + ": " + oddDeletionNote)
	case ps.deletionGrace == 0:
		iv.lo = noGraceLeft(s, ps.created())
	}
	m := Milestone{Kind: MDeleting, At: iv.clamp(s.at), Earliest: iv.lo, Latest: iv.hi, Source: SourceStatus,
		Message: "grace period " + seconds(ps.deletionGrace).String(),
		Evidence: d.evidence(1, Evidence{What: "metadata.deletionTimestamp − deletionGracePeriodSeconds", API: req,
			Precision: "1s", Received: s.at})}
	if k := ps.stopKill; k != nil && !k.when.hi.Before(iv.lo) {
		d.boundAbove(&m, k, "before the first Killing Event ("+k.ev.Container+")",
			"the kubelet stops the containers because the deletion was requested")
	}
	return m
}

// boundAbove bounds m above by an Event that certainly came after it, when that tightens it.
func (d *deriver) boundAbove(m *Milestone, oc *eventOcc, what, note string) {
	if !oc.when.hi.Before(m.Latest) {
		return
	}
	iv := d.bound(interval{m.Earliest, m.Latest}, time.Time{}, oc.when.hi)
	m.Latest, m.At = iv.hi, iv.clamp(m.At)
	m.Evidence = append(m.Evidence, Evidence{What: what, NameTime: oc.nameTime, API: oc.api,
		Precision: oc.apiPrec, Received: oc.received, Note: note})
}
