package timeline

import "time"

// podState is what the Builder keeps of one pod: the facts each observation added, each with the
// receive time it was first seen at and the receive time of the observation before, and what was
// derived from them last time, so that only what changed is derived again.
type podState struct {
	key string
	// last is the last observation's own members, in lastObs: its conditions and containers
	// are read as it is filed (of the conditions, Ready's status is kept in readyNow), and
	// holding them and the observation until the pod's next update kept ~1 KB a pod that
	// nothing read (2 MB of the heap at the end of reading a 2,200-pod Job, where the replay's
	// memory limit leaves it little room).
	last          *PodObservation
	lastObs       PodObservation
	readyNow      string // the Status of the last observation's Ready condition; "" without one
	gatesHeld     string // the readiness gates whose condition the last observation had not True
	firstSeen     time.Time
	lastSeen      time.Time // the receive time of the last observation of the pod
	latestSeen    time.Time // the latest receive time of an observation of it (the clock can go back)
	clockBack     bool      // an observation was received before the one before it
	odd           oddTimes  // which sources gave a time out of the pod's life (left out)
	deleted       *seen     // the DELETED watch event
	deletion      *seen     // the first observation with a deletionTimestamp
	deletionAt    time.Time
	deletionGrace int64
	statuses      cowList[StatusChange]
	conditions    seqBuilder[conditionChange] // Ready's changes, and the first True of three others
	firstTrue     uint8                       // which of those three were True (firstTrueBit)
	phases        []phaseChange
	lanes         map[string]*laneState // by container name (see laneOf)
	obsN          int                   // counts the observations of the pod, for laneOf
	tooMany       bool                  // it showed more than MaxContainersPerPod containers
	laneOrder     []*laneState
	// scheduled are the pod's Scheduled Events, in time order: of the Events about the pod itself
	// (no container), the only ones its timeline reads beyond the events list (the pod row's
	// scheduled milestone).
	scheduled []eventOcc
	events    seqBuilder[Event] // every occurrence, for the events list
	// The involved object of the last Event listed, and its "Kind/name" as the list shows it.
	evKind, evName, evObject string

	// The first Event of an app container (the kubelet creates apps once the pod is initialized)
	// and the first Killing of a stopping pod (after the deletion request): they bound the pod row.
	appFirst, stopKill *eventOcc

	dirty    bool         // something changed since out was derived
	touched  *[]*podState // the Builder's list of the pods that changed: see touch
	index    int          // the pod's place in the Builder's podList, as of the last snapshot
	arrival  int          // how many pods the Builder had seen before this one
	rowDirty bool         // a pod-row fact other than a new condition changed
	rows     podRowCache
	out      *Pod
	// The grace periods and the pod row's bounds that out's cross-lane pass and gaps were
	// derived with (see lanesAsBefore).
	passGrace, gapGrace time.Duration
	passRow             rowBounds
}

// seen is when a fact was first seen: in the observation received at at, and not in the one
// received at prev (zero when it was in the first observation). note says so, for evidence; it
// is written once, not each time a milestone is derived from it.
type seen struct {
	at, prev time.Time
	note     string
}

func newSeen(at, prev time.Time) seen {
	if prev.After(at) {
		// The receive clock went back (a recording's times are what it says): the observation
		// before bounds nothing, and the fact is placed as if it were in the first.
		prev = time.Time{}
	}
	s := seen{at: at, prev: prev}
	if !prev.IsZero() {
		s.note = notYetIn(prev)
	}
	return s
}

// notYetIn is "not yet in the observation received " and prev's UTC clock to the millisecond
// (prev.UTC().Format("15:04:05.000")), made in one allocation: every pod update makes one.
func notYetIn(prev time.Time) string {
	const head = "not yet in the observation received "
	var b [len(head) + len("15:04:05.000")]byte
	n := copy(b[:], head)
	h, m, sec := prev.UTC().Clock()
	for _, v := range [...]int{h, m, sec} {
		b[n], b[n+1], b[n+2] = byte('0'+v/10), byte('0'+v%10), ':'
		n += 3
	}
	ms := prev.Nanosecond() / 1e6
	b[n-1], b[n], b[n+1], b[n+2] = '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10)
	return string(b[:])
}

type conditionChange struct {
	Condition
	seen
}

type phaseChange struct {
	phase string
	seen
}

func newPodState(key string, touched *[]*podState) *podState {
	return &podState{key: key, lanes: map[string]*laneState{}, dirty: true, rowDirty: true, touched: touched}
}

// touch marks the pod for derivation at the next snapshot. A new pod is not listed: its place in
// the list is new, and the snapshot derives the pods from there on.
func (ps *podState) touch() {
	if !ps.dirty {
		ps.dirty = true
		if ps.touched != nil {
			*ps.touched = append(*ps.touched, ps)
		}
	}
}

// observe takes in the pod p as a watch event of type t received at r: the pod's own facts,
// then each container's in its lane.
func (ps *podState) observe(r time.Time, t WatchType, p *PodObservation, names laneNames) {
	ps.touch()
	if ps.last == nil {
		ps.firstSeen = r
	}
	prev := ps.lastSeen
	s := newSeen(r, prev)
	if ps.last != nil && !ps.last.Created.Equal(p.Created) {
		// Not something the API does; but if it happens, every run is placed and bounded anew
		// from the new creation (a start before it is left out).
		ps.rowDirty = true
		for _, ls := range ps.lanes {
			ls.touch(0)
		}
	}
	ps.readyNow = readyStatus(p.Conditions)
	ps.lastObs = *p
	ps.lastObs.Conditions, ps.lastObs.Containers = nil, nil
	ps.last, ps.lastSeen, ps.latestSeen = &ps.lastObs, r, later(ps.latestSeen, r)
	ps.clockBack = ps.clockBack || r.Before(prev)
	ps.observeDeletion(t, p, s)
	ps.observeStatus(r, p, s)
	ps.gatesHeld = gatesNotTrue(p)
	for _, c := range p.Conditions {
		if c.Type == "Ready" && c.Reason == reasonGatesNotReady && ps.gatesHeld != "" {
			c.Message = gatesHeldText(ps.gatesHeld) // which, from the spec, as the pod row says it
		}
		ps.observeCondition(c, r, s)
	}
	ps.obsN++
	containers := p.Containers
	if len(containers) > MaxContainersPerPod {
		containers, ps.tooMany = containers[:MaxContainersPerPod], true
	}
	for i := range containers {
		c := &containers[i]
		ls := ps.laneOf(c)
		if !ls.shown {
			ls.shown = true
			ps.laneOrder = append(ps.laneOrder, ls)
		}
		ls.observe(c, s, names)
	}
}

// observeDeletion keeps when the pod was first seen deleted from the API (t), and first seen
// with a deletion requested, with its time and grace period: how every run stops depends on it.
func (ps *podState) observeDeletion(t WatchType, p *PodObservation, s seen) {
	if t == Deleted && ps.deleted == nil {
		seen := s // copies made only here: taking s's address would copy it at every update
		ps.deleted, ps.rowDirty = &seen, true
	}
	if p.Deletion != nil && ps.deletion == nil {
		seen := s
		ps.deletion, ps.rowDirty = &seen, true
		ps.deletionAt = *p.Deletion
		if p.DeletionGrace != nil {
			ps.deletionGrace = *p.DeletionGrace
		}
		for _, ls := range ps.laneOrder {
			ls.touch(0) // how a run stops depends on how the pod does
		}
	}
}

// observeStatus keeps a change of the pod's STATUS, received at r, and of its phase.
func (ps *podState) observeStatus(r time.Time, p *PodObservation, s seen) {
	if n := ps.statuses.len(); n == 0 || ps.statuses.at(n-1).Status != p.Status {
		ps.statuses.insert(n, StatusChange{At: ps.statusAt(r), Status: p.Status, Phase: p.Phase})
	}
	if n := len(ps.phases); n == 0 || ps.phases[n-1].phase != p.Phase {
		ps.phases = append(ps.phases, phaseChange{p.Phase, s})
		// The row shows the terminal phases only: a change to Pending or Running leaves it as it
		// was, and is not a reason to derive it again whole.
		ps.rowDirty = ps.rowDirty || p.Phase == "Succeeded" || p.Phase == "Failed"
	}
}

// observeCondition keeps what the pod row shows of a condition received at r: every Ready
// change, and when PodScheduled, Initialized, ContainersReady and DisruptionTarget first became
// True; that is all
// that is kept of the conditions. (A crash loop flips ContainersReady and
// PodReadyToStartContainers in every cycle. The findings read the Ready condition's status as it
// is now, from readyNow.)
func (ps *podState) observeCondition(c Condition, r time.Time, s seen) {
	if outOfLife(c.LastTransition, ps.created(), r) {
		c.LastTransition, ps.odd = time.Time{}, ps.odd|oddConditionTime // placed when seen
	}
	switch c.Type {
	case "Ready":
		if !hasConditionChange(&ps.conditions, c) || heldByGatesAnew(&ps.conditions, c) {
			ps.conditions.insert(ps.conditions.len(), conditionChange{c, s})
		}
	case "PodScheduled", "Initialized", "ContainersReady", "DisruptionTarget":
		if bit := firstTrueBit(c.Type); c.Status == "True" && ps.firstTrue&bit == 0 {
			ps.firstTrue |= bit
			ps.conditions.insert(ps.conditions.len(), conditionChange{c, s})
			ps.rowDirty = true
		}
	}
}

// statusAt is where a STATUS change received at r goes, after the changes before it: at r. The
// receive clock can go back (a recording's times are what it says), and the list stays in time
// order: a change is placed no earlier than the one before it, unless that one lies more than
// MaxClockSkew after r while r is a time of the pod: then the times after r were the absurd
// ones (a line stamped 9999), and they are brought back to r rather than all that follow up to
// them.
func (ps *podState) statusAt(r time.Time) time.Time {
	n := ps.statuses.len()
	if n == 0 || !r.Before(ps.statuses.at(n-1).At) {
		return r
	}
	if last := ps.statuses.at(n - 1).At; !tooLate(last, r) || tooEarly(r, ps.created()) {
		return last
	}
	for i := n - 1; i >= 0 && ps.statuses.at(i).At.After(r); i-- {
		c := *ps.statuses.at(i)
		c.At = r
		ps.statuses.set(i, c)
	}
	return r
}

// hasConditionChange reports whether this transition (type, status and transition time) is the
// latest known of its type.
func hasConditionChange(list *seqBuilder[conditionChange], c Condition) bool {
	for i := list.len() - 1; i >= 0; i-- {
		if l := list.at(i); l.Type == c.Type {
			return l.Status == c.Status && l.LastTransition.Equal(c.LastTransition)
		}
	}
	return false
}

// addOcc files an occurrence of one of the pod's Events: under its container's lane, or the pod
// row's own Events, and in the events list.
func (ps *podState) addOcc(oc eventOcc) {
	ps.touch()
	if t := oc.eventTime(); ps.last != nil && outOfLife(t, ps.created(), oc.received) {
		oc.occurrence = oc.untimed()
		ps.odd |= oddEventTime
	}
	e := oc.ev
	if e.InvolvedKind != ps.evKind || e.InvolvedName != ps.evName {
		// Nearly all of a pod's Events are about the pod: its "Pod/name" is made once.
		ps.evKind, ps.evName, ps.evObject = e.InvolvedKind, e.InvolvedName, e.InvolvedKind+"/"+e.InvolvedName
	}
	addEvent(&ps.events, oc.listEventOf(ps.evObject))
	if c := oc.ev.Container; c != "" {
		// A lane made here is of a container the pod has not shown yet: kept for when it does.
		ls := ps.eventLane(c, oc.ev.ContainerKind)
		ls.addOcc(oc)
		ps.boundsRow(&oc)
		return
	}
	if oc.ev.Reason == "Scheduled" {
		ps.scheduled = insertOcc(ps.scheduled, oc)
		ps.rowDirty = true
	}
}

// firstTrueBit is the bit of podState.firstTrue that says a condition of the type was True.
func firstTrueBit(typ string) uint8 {
	switch typ {
	case "PodScheduled":
		return 1
	case "Initialized":
		return 2
	case "DisruptionTarget":
		return 8
	}
	return 4 // ContainersReady
}

func (ps *podState) firstCondition(typ, status string) *conditionChange {
	for i := range ps.conditions.len() {
		if c := ps.conditions.at(i); c.Type == typ && c.Status == status {
			return c
		}
	}
	return nil
}

// readyStatus is the Status of the first Ready condition of cs, or "" without one.
func readyStatus(cs []Condition) string {
	for i := range cs {
		if cs[i].Type == "Ready" {
			return cs[i].Status
		}
	}
	return ""
}

// boundsRow keeps the Events that bound the pod row: the first of an app container (before
// which the pod was initialized) and the first Killing of a stopping pod (after its deletion
// was requested).
func (ps *podState) boundsRow(oc *eventOcc) {
	reason := oc.ev.Reason
	switch {
	case oc.ev.ContainerKind == KindApp && (startsRun(reason) || reason == "Started") && oc.count == 1:
		if ps.appFirst == nil || oc.when.hi.Before(ps.appFirst.when.hi) {
			c := *oc // a copy only of one kept (the argument stays on the stack)
			ps.appFirst, ps.rowDirty = &c, true
		}
	case reason == "Killing" && !killedAlone(*oc):
		if ps.stopKill == nil || oc.when.hi.Before(ps.stopKill.when.hi) {
			c := *oc
			ps.stopKill, ps.rowDirty = &c, true
		}
	}
}

// created is when the pod was made, the origin of its offsets: its creationTimestamp, unless
// that is missing, before any cluster ran, or later than the pod was first seen (a clock that
// is off by more than a minute, or a bogus object); then when it was first seen.
func (ps *podState) created() time.Time {
	if c := ps.last.Created; !c.IsZero() && !c.Before(earliestCreation) && !c.After(ps.firstSeen.Add(time.Minute)) {
		return c
	}
	return ps.firstSeen
}
