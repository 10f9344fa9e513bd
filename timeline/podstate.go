package timeline

import "time"

// podState is what the Builder keeps of one pod: the facts each observation added, each with the
// receive time it was first seen at and the receive time of the observation before.
type podState struct {
	first, last   *PodObservation
	firstSeen     time.Time
	lastSeen      time.Time
	deleted       *seen // the DELETED watch event
	deletion      *seen // the first observation with a deletionTimestamp
	deletionAt    time.Time
	deletionGrace int64
	statuses      []StatusChange
	conditions    []conditionChange
	phases        []phaseChange
	lanes         map[string]*laneState
	laneOrder     []string
}

// seen is when a fact was first seen: in the observation received at at, and not in the one
// received at prev (zero when it was in the first observation).
type seen struct{ at, prev time.Time }

type conditionChange struct {
	Condition
	seen
}

type phaseChange struct {
	phase string
	seen
}

func newPodState() *podState { return &podState{lanes: map[string]*laneState{}} }

func (ps *podState) observe(r time.Time, t WatchType, p *PodObservation) {
	if ps.first == nil {
		ps.first, ps.firstSeen = p, r
	}
	prev := ps.lastSeen
	s := seen{r, prev}
	ps.last, ps.lastSeen = p, r

	if t == Deleted && ps.deleted == nil {
		ps.deleted = &s
	}
	if p.Deletion != nil && ps.deletion == nil {
		ps.deletion = &s
		ps.deletionAt = *p.Deletion
		if p.DeletionGrace != nil {
			ps.deletionGrace = *p.DeletionGrace
		}
	}
	if n := len(ps.statuses); n == 0 || ps.statuses[n-1].Status != p.Status {
		ps.statuses = append(ps.statuses, StatusChange{At: r, Status: p.Status, Phase: p.Phase})
	}
	if n := len(ps.phases); n == 0 || ps.phases[n-1].phase != p.Phase {
		ps.phases = append(ps.phases, phaseChange{p.Phase, s})
	}
	for _, c := range p.Conditions {
		if !ps.hasCondition(c) {
			ps.conditions = append(ps.conditions, conditionChange{c, s})
		}
	}
	for i := range p.Containers {
		c := &p.Containers[i]
		ls, ok := ps.lanes[c.Name]
		if !ok {
			ls = &laneState{}
			ps.lanes[c.Name] = ls
			ps.laneOrder = append(ps.laneOrder, c.Name)
		}
		ls.observe(c, s)
	}
}

// hasCondition reports whether this transition (type, status and transition time) is known.
func (ps *podState) hasCondition(c Condition) bool {
	for i := len(ps.conditions) - 1; i >= 0; i-- {
		k := ps.conditions[i]
		if k.Type == c.Type {
			return k.Status == c.Status && k.LastTransition.Equal(c.LastTransition)
		}
	}
	return false
}

// orderedLanes lists the lanes in the pod's container order (init and sidecars, app, ephemeral).
func (ps *podState) orderedLanes() []*laneState {
	out := make([]*laneState, 0, len(ps.laneOrder))
	for _, name := range ps.laneOrder {
		out = append(out, ps.lanes[name])
	}
	return out
}
