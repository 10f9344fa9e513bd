package timeline

import (
	"slices"
	"strconv"
	"time"
)

// deriver turns a podState's facts into a Pod. It notes when a receive-time bound had to be
// dropped because it contradicted an API time (the two clocks disagree).
type deriver struct {
	scratch    []Milestone     // a run's milestones while they are gathered
	changes    []StateChange   // a run's state changes while they are gathered
	statusRuns []runMilestones // a lane's runs' status-based milestones while it is derived
	gaps       []Gap           // a pod's gaps while they are gathered
	unknown    []UnknownGap    // and those whose ends are not sane (see saneGap)
	texts      gapTexts        // the gaps' names and reasons put together so far
	row        []Milestone     // a pod row's milestones while they are gathered
	passLanes  []passLane      // a pod's lanes for the final pass while it is derived
	lanes      []*passLane     // pointers to them
	attempts   []int32         // a lane's attempts derived again, while it is derived
	// The evidence of the lane being derived: its milestones' evidence is made here, and copied
	// out only into a run that is new (keptMilestones). A crash loop's last runs are derived at
	// every frame, and most come out the same as before.
	ev    []Evidence
	skew  bool
	final bool     // deriving for Final, after which no run grows: none gets room to grow into
	notes []string // problems with the data itself, each said once
	noted map[string]bool
}

// note says something is wrong with the data, once.
func (d *deriver) note(s string) {
	if d.noted == nil {
		d.noted = map[string]bool{}
	}
	if !d.noted[s] {
		d.noted[s] = true
		d.notes = append(d.notes, s)
	}
}

// bound tightens iv by [lo, hi], noting clock skew when the bound would empty it.
func (d *deriver) bound(iv interval, lo, hi time.Time) interval {
	j, ok := iv.tighten(lo, hi)
	if !ok {
		d.skew = true
	}
	return j
}

// pod derives the pod's timeline from its facts, again only where they changed: the lanes'
// runs from the first one touched on, the pod row from the first new condition on, and what
// needs several lanes (the final pass) and the gaps when a lane changed, or the pod row where it
// bounds them (lanesAsBefore).
func (d *deriver) pod(ps *podState) *Pod {
	out := podOf(ps)
	d.notePod(ps)
	out.Milestones = d.podRow(ps)
	var end time.Time
	if ps.deleted != nil {
		end = ps.deleted.at
	}
	gapGrace := graceOf(ps, interval{hi: ps.lastSeen})
	if prev := ps.out; prev != nil && len(prev.UnknownGaps) == 0 && d.lanesAsBefore(ps, prev, out.Milestones) &&
		gapGrace == ps.gapGrace {
		// No lane changed, nor what the final pass and the gaps read of the pod: they would come
		// out as they did (an update that changes nothing the lanes show, or news of the pod row
		// that bounds no lane). A gap known stays so: the pod's life only grows (saneGap); one
		// unknown may not, and they are worked out again.
		out.Containers = make([]Container, len(ps.laneOrder))
		for i, ls := range ps.laneOrder {
			out.Containers[i] = d.container(ps, ls, prev.Containers[i].Runs, out.Created, end)
		}
		out.Gaps, out.UnknownGaps = prev.Gaps, prev.UnknownGaps
		out.memo = newFactsMemo(ps)
		return out
	}
	d.podLanes(ps, out, end)
	d.podGaps(ps, out, gapGrace)
	ps.passGrace, ps.gapGrace = seconds(ps.last.GracePeriod), gapGrace
	ps.passRow = rowBoundsOf(out.Milestones, ps.rows.deleting)
	out.memo = newFactsMemo(ps)
	return out
}

// podOf is the pod as its last observation says, before its rows are derived.
func podOf(ps *podState) *Pod {
	p := ps.last
	out := &Pod{
		Namespace: p.Namespace, Name: p.Name, UID: p.UID, Node: p.Node,
		Created: ps.created(), Phase: p.Phase, Status: p.Status,
		Deleted: ps.deleted != nil, LastSeen: ps.lastSeen,
		Statuses: ps.statuses.view(), Events: ps.events.view(),
		Requests: p.Requests, Limits: p.Limits,
	}
	if p.OwnerKind != "" {
		owner := OwnerRef{Kind: p.OwnerKind, Name: p.OwnerName, UID: p.OwnerUID}
		if last := ps.out; last != nil && last.Owner != nil && *last.Owner == owner {
			out.Owner = last.Owner // the last snapshot's, as it nearly always is
		} else {
			made := owner // made only here: taking owner's address would make it at every derivation
			out.Owner = &made
		}
	}
	return out
}

// notePod notes what was odd in the pod's facts: times out of its life, more containers than
// have lanes, a receive clock that went back.
func (d *deriver) notePod(ps *podState) {
	name := ps.last.Name
	for i, text := range oddTimeNotes {
		if ps.odd&(1<<i) != 0 {
			d.note("pod " + name + ": " + text)
		}
	}
	if ps.tooMany {
		limit := strconv.Itoa(MaxContainersPerPod)
		d.note("pod " + name + " has more than " + limit + " containers: those past the first " + limit + " have no lane")
	}
	if ps.clockBack {
		d.note("pod " + name + ": an observation was received before the one before it (the receive clock went back): " +
			"the one before bounds nothing it showed")
	}
}

// podLanes derives the pod's lanes (each brought up to date, then the final pass across them and
// the pod row) into out.Containers.
func (d *deriver) podLanes(ps *podState, out *Pod, end time.Time) {
	// The lanes as the final pass sees them, in the deriver's scratch: nothing keeps them.
	n := len(ps.laneOrder)
	d.passLanes = slices.Grow(d.passLanes[:0], n)[:n]
	d.lanes = slices.Grow(d.lanes[:0], n)[:n]
	lanes := d.lanes
	for i, ls := range ps.laneOrder {
		d.passLanes[i] = passLane{ls: ls, runs: d.deriveLane(ps, ls)}
		lanes[i] = &d.passLanes[i]
	}
	d.crossLane(ps, lanes, ps.rows.deleting)
	d.boundStartedByInitialized(lanes, out.Milestones)
	d.boundReadyByPod(lanes, out.Milestones)
	out.Containers = make([]Container, len(lanes))
	for i, l := range lanes {
		out.Containers[i] = d.container(ps, l.ls, l.result(out.Created), out.Created, end)
	}
}

// podGaps works out the pod's named gaps, and those unknown (noted), into out.
func (d *deriver) podGaps(ps *podState, out *Pod, gapGrace time.Duration) {
	d.gaps, d.unknown = namedGaps(out, ps.rows.deleting, func(name string) ContainerObservation {
		if ls := ps.lanes[name]; ls != nil {
			return *ls.spec
		}
		return ContainerObservation{}
	}, gapGrace, life{ps.created(), ps.latestSeen}, d.gaps, d.unknown, &d.texts)
	// The gaps are those of the pod's last snapshot more often than not (they rest on its first
	// and last runs): that snapshot's list is shared then.
	if ps.out != nil && slices.Equal(ps.out.Gaps, d.gaps) {
		out.Gaps = ps.out.Gaps
	} else if len(d.gaps) > 0 {
		out.Gaps = slices.Clone(d.gaps)
	}
	if len(d.unknown) > 0 {
		out.UnknownGaps = slices.Clone(d.unknown)
		for _, g := range d.unknown {
			d.note("pod " + ps.last.Name + ": gap " + strconv.Quote(g.Name) + " is unknown: " + g.Why)
		}
	}
}

// container is a lane as the pod's derivation hands it out, with its runs.
func (d *deriver) container(ps *podState, ls *laneState, runs Seq[*Run], created, end time.Time) Container {
	if ls.oddCount&countBelowZero != 0 {
		d.note("pod " + ps.last.Name + " container " + ls.spec.Name + ": a restart count below zero was read as zero")
	}
	if ls.oddCount&countAboveMax != 0 {
		limit := strconv.Itoa(MaxRestartCount)
		d.note("pod " + ps.last.Name + " container " + ls.spec.Name + ": a restart count above " + limit + " was read as " + limit)
	}
	if ls.dup {
		d.note("pod " + ps.last.Name + " has more than one container named " + strconv.Quote(ls.spec.Name) +
			": each has a lane of its own; what names a container by name alone (a log, a gap, an assertion) is about the first")
	}
	c := Container{Name: ls.spec.Name, Kind: ls.spec.Kind, State: ls.stateText(), Runs: runs, Since: created, End: end}
	if ls.status != nil {
		c.RestartCount = ls.status.RestartCount
	}
	return c
}

// conditionMilestone places a condition transition: its lastTransitionTime (whole seconds),
// no later than the observation that first showed it. Like a deletion, a condition is written
// by whoever sets it as it changes and reaches a watcher within milliseconds, so it is placed
// when it arrived, within its second.
func (d *deriver) conditionMilestone(kind MilestoneKind, c *conditionChange) Milestone {
	m, ev := d.conditionAt(kind, c)
	m.Evidence = []Evidence{ev}
	return m
}

// rowCondition is conditionMilestone with its evidence in the deriver's scratch, for the pod row.
func (d *deriver) rowCondition(kind MilestoneKind, c *conditionChange) Milestone {
	m, ev := d.conditionAt(kind, c)
	m.Evidence = d.evidence(1, ev)
	return m
}

// conditionAt is conditionMilestone without its evidence, and the evidence.
// A condition without a lastTransitionTime (or with one that is no time of the pod, see
// outOfLife) is placed when it was seen.
func (d *deriver) conditionAt(kind MilestoneKind, c *conditionChange) (Milestone, Evidence) {
	if c.LastTransition.IsZero() {
		m, ev := observedAt(kind, c.seen, conditionWhat(c.Type, c.Status), time.Time{})
		m.Source = SourceStatus
		return m, ev
	}
	iv := d.bound(wholeSecond(c.LastTransition), time.Time{}, c.at)
	return Milestone{Kind: kind, At: iv.clamp(c.at), Earliest: iv.lo, Latest: iv.hi, Source: SourceStatus},
		Evidence{What: conditionWhat(c.Type, c.Status), API: c.LastTransition, Precision: "1s", Received: c.at}
}

// conditionWhat is the evidence's name of a condition's lastTransitionTime: a constant for the
// conditions the pod row shows, whose milestones are made again whenever the row is derived.
func conditionWhat(typ, status string) string {
	switch {
	case typ == "Ready" && status == "True":
		return "condition Ready=True lastTransitionTime"
	case typ == "Ready" && status == "False":
		return "condition Ready=False lastTransitionTime"
	case status == "True":
		switch typ {
		case "PodScheduled":
			return "condition PodScheduled=True lastTransitionTime"
		case "Initialized":
			return "condition Initialized=True lastTransitionTime"
		case "ContainersReady":
			return "condition ContainersReady=True lastTransitionTime"
		}
	}
	return "condition " + typ + "=" + status + " lastTransitionTime"
}

// observedMilestone is a change with no time field: first seen at s.at, not yet at s.prev.
// It is placed when it was seen. floor bounds it when it was in the first observation.
func observedMilestone(kind MilestoneKind, s seen, what string, floor time.Time) Milestone {
	m, ev := observedAt(kind, s, what, floor)
	m.Evidence = []Evidence{ev}
	return m
}

// observedAt is observedMilestone without its evidence, and the evidence.
func observedAt(kind MilestoneKind, s seen, what string, floor time.Time) (Milestone, Evidence) {
	lo := s.prev
	if lo.IsZero() {
		lo = floor
	}
	return Milestone{Kind: kind, At: s.at, Earliest: earlier(lo, s.at), Latest: s.at, Source: SourceObserved},
		Evidence{What: what, Received: s.at, Note: s.note}
}
