package timeline

import (
	"sort"
	"time"
)

// deriver turns a podState's facts into a Pod. It notes when a receive-time bound had to be
// dropped because it contradicted an API time (the two clocks disagree).
type deriver struct{ skew bool }

// bound tightens iv by [lo, hi], noting clock skew when the bound would empty it.
func (d *deriver) bound(iv interval, lo, hi time.Time) interval {
	j, ok := iv.tighten(lo, hi)
	if !ok {
		d.skew = true
	}
	return j
}

func (d *deriver) pod(ps *podState, evs []*eventState) Pod {
	p := ps.last
	out := Pod{
		Namespace: p.Namespace, Name: p.Name, UID: p.UID, Node: p.Node,
		Created: p.Created, Phase: p.Phase, Status: p.Status,
		Deleted: ps.deleted != nil, LastSeen: ps.lastSeen,
		Statuses: append([]StatusChange(nil), ps.statuses...),
	}
	if p.OwnerKind != "" {
		out.Owner = p.OwnerKind + "/" + p.OwnerName
	}
	ce := byContainer(evs)
	out.Milestones = d.podMilestones(ps, ce[""])
	lanes := ps.orderedLanes()
	for _, ls := range lanes {
		out.Containers = append(out.Containers, d.container(ls, ce[ls.spec.Name], p.Created))
	}
	d.crossLane(ps, &out, ce)
	for i := range out.Containers {
		c := &out.Containers[i]
		sortMilestones(c.Milestones)
		c.Segments = segments(ps, lanes[i], c.Milestones)
	}
	placeMilestones(&out)
	out.Gaps = namedGaps(&out)
	out.Findings = findings(&out, ps)
	return out
}

// podMilestones are the pod row's milestones: created, scheduled, initialized, ready and
// not-ready, deletion requested, terminal phase and deletion from the API.
func (d *deriver) podMilestones(ps *podState, ce containerEvents) []Milestone {
	p := ps.last
	var ms []Milestone
	created := d.bound(wholeSecond(p.Created), time.Time{}, ps.firstSeen)
	ms = append(ms, Milestone{Kind: MCreated, At: p.Created, Earliest: created.lo, Latest: created.hi,
		Source: SourceStatus, Evidence: []Evidence{{What: "metadata.creationTimestamp", API: timePtr(p.Created), Precision: "1s"}}})

	if occs := ce["Scheduled"]; len(occs) > 0 {
		oc := occs[0]
		ms = append(ms, Milestone{Kind: MScheduled, At: oc.at, Earliest: oc.when.lo, Latest: oc.when.hi,
			Source: SourceEvent, Message: oc.ev.Message, Evidence: []Evidence{oc.evidence(oc.ev)}})
	} else if c := ps.firstCondition("PodScheduled", "True"); c != nil {
		ms = append(ms, d.conditionMilestone(MScheduled, c))
	}
	if c := ps.firstCondition("Initialized", "True"); c != nil {
		ms = append(ms, d.conditionMilestone(MInitialized, c))
	}
	everReady := false
	for i := range ps.conditions {
		c := &ps.conditions[i]
		if c.Type != "Ready" {
			continue
		}
		switch {
		case c.Status == "True":
			everReady = true
			ms = append(ms, d.conditionMilestone(MReady, c))
		case everReady:
			m := d.conditionMilestone(MNotReady, c)
			m.Reason = c.Reason
			ms = append(ms, m)
		}
	}
	if s := ps.deletion; s != nil {
		req := ps.deletionAt.Add(-time.Duration(ps.deletionGrace) * time.Second)
		iv := d.bound(wholeSecond(req), time.Time{}, s.at)
		ms = append(ms, Milestone{Kind: MDeleting, At: iv.clamp(s.at), Earliest: iv.lo, Latest: iv.hi, Source: SourceStatus,
			Message: "grace period " + (time.Duration(ps.deletionGrace) * time.Second).String(),
			Evidence: []Evidence{{What: "metadata.deletionTimestamp − deletionGracePeriodSeconds", API: timePtr(req),
				Precision: "1s", Received: timePtr(s.at)}}})
	}
	for _, ph := range ps.phases {
		if ph.phase == "Succeeded" || ph.phase == "Failed" {
			ms = append(ms, observedMilestone(MPhase, ph.seen, "status.phase", ps.firstSeen))
			ms[len(ms)-1].Reason = ph.phase
		}
	}
	if s := ps.deleted; s != nil {
		ms = append(ms, observedMilestone(MDeleted, *s, "watch event DELETED", ps.firstSeen))
	}
	return ms
}

// conditionMilestone places a condition transition: its lastTransitionTime (whole seconds),
// no later than the observation that first showed it. Like a deletion, a condition is written
// by whoever sets it as it changes and reaches a watcher within milliseconds, so it is placed
// when it arrived, within its second.
func (d *deriver) conditionMilestone(kind MilestoneKind, c *conditionChange) Milestone {
	iv := d.bound(wholeSecond(c.LastTransition), time.Time{}, c.at)
	return Milestone{Kind: kind, At: iv.clamp(c.at), Earliest: iv.lo, Latest: iv.hi, Source: SourceStatus,
		Evidence: []Evidence{{What: "condition " + c.Type + "=" + c.Status + " lastTransitionTime",
			API: timePtr(c.LastTransition), Precision: "1s", Received: timePtr(c.at)}}}
}

// observedMilestone is a change with no time field: first seen at s.at, not yet at s.prev.
// It is placed when it was seen. floor bounds it when it was in the first observation.
func observedMilestone(kind MilestoneKind, s seen, what string, floor time.Time) Milestone {
	lo := s.prev
	if lo.IsZero() {
		lo = floor
	}
	ev := Evidence{What: what, Received: timePtr(s.at)}
	if !s.prev.IsZero() {
		ev.Note = "not yet in the observation received " + s.prev.UTC().Format("15:04:05.000")
	}
	return Milestone{Kind: kind, At: s.at, Earliest: earlier(lo, s.at), Latest: s.at, Source: SourceObserved,
		Evidence: []Evidence{ev}}
}

func (ps *podState) firstCondition(typ, status string) *conditionChange {
	for i := range ps.conditions {
		if c := &ps.conditions[i]; c.Type == typ && c.Status == status {
			return c
		}
	}
	return nil
}

// kindRank orders milestones that share a time in the order they happen.
var kindRank = map[MilestoneKind]int{
	MCreated: 0, MScheduled: 1, MWaiting: 2, MStart: 3, MRestart: 3, MStarted: 4, MInitialized: 5,
	MReady: 6, MContainersReady: 6, MProbeFailed: 7, MNotReady: 8, MBackOff: 8, MDeleting: 9,
	MSigterm: 10, MExit: 11, MPhase: 12, MCondition: 12, MDeleted: 13,
}

func sortMilestones(ms []Milestone) {
	sort.SliceStable(ms, func(i, j int) bool { return Before(&ms[i], &ms[j]) })
}

// Before orders milestones by time; at the same time an inferred one goes after the facts it
// was inferred from, and then kinds go in the order they happen. Each milestone's Gap is from
// the one before it in this order, so views list them in it.
func Before(a, b *Milestone) bool {
	if !a.At.Equal(b.At) {
		return a.At.Before(b.At)
	}
	if ai, bi := a.Source == SourceInferred, b.Source == SourceInferred; ai != bi {
		return bi
	}
	return kindRank[a.Kind] < kindRank[b.Kind]
}

// placeMilestones sets every milestone's offset from the pod's creation and its gap from the
// previous milestone of the pod, in time order across all lanes.
func placeMilestones(p *Pod) {
	sortMilestones(p.Milestones)
	var all []*Milestone
	for i := range p.Milestones {
		all = append(all, &p.Milestones[i])
	}
	for ci := range p.Containers {
		for i := range p.Containers[ci].Milestones {
			all = append(all, &p.Containers[ci].Milestones[i])
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return Before(all[i], all[j]) })
	for i, m := range all {
		m.Offset = offsetFrom(p.Created, m)
		if i > 0 {
			g := spanBetween(all[i-1], m, false)
			m.Gap = &g
		}
	}
}
