package timeline

import "time"

// The rules of a run's own milestones beyond its status (baseRun): what its Events say of its
// start and exit, its Created and BackOff Events, the order the kubelet does things in after a
// back-off, how the kubelet stopped it, and the waits before it.

// runBounds appends the run's start and exit to ms: from its status (sr), tightened by its
// Events, with the exit the next run implies when the status shows none (implied); or, when the
// status never showed the run, its start from a Started Event alone.
func (d *deriver) runBounds(ms []Milestone, ls *laneState, a int32, sr *runMilestones, prevExit *Milestone, created time.Time,
	occs func(reason string) []eventOcc) (_ []Milestone, implied bool) {
	if sr == nil {
		return d.appendEventStart(ms, ls.spec.Name, a, prevExit, created, occs), false
	}
	d.boundExitByNext(ls, a, sr)
	d.runEvidence(sr, occs("Created"), occs("Started"), prevExit)
	ms = sr.appendTo(ms)
	if sr.exit == nil {
		if e := d.impliedExit(ls, a, sr.start); e != nil {
			afterAll(e, ms)
			return append(ms, *e), true
		}
	}
	return ms, false
}

// appendEventStart: an Event can arrive before the status it explains: a Started Event for a run
// the status does not show yet places that run's start on its own, after the pod was made, after
// the run before it ended, and after its Created Event.
func (d *deriver) appendEventStart(ms []Milestone, name string, a int32, prevExit *Milestone, created time.Time,
	occs func(reason string) []eventOcc) []Milestone {
	st := occs("Started")
	if len(st) == 0 {
		return ms
	}
	m := d.eventMilestone(startKind(a), name, a, st[0])
	m.Earliest = created
	if prevExit != nil {
		m.Earliest = prevExit.Earliest
	}
	if cr := occs("Created"); len(cr) > 0 {
		m.Earliest = cr[0].when.lo
	}
	m.Earliest = earlier(m.Earliest, m.Latest)
	return append(ms, m)
}

// boundExitByNext: the kubelet creates the next run only after this one exited, so the next
// run's Created Event bounds the exit above.
func (d *deriver) boundExitByNext(ls *laneState, a int32, sr *runMilestones) {
	next := ls.cache.occsOf("Created", ls.occs["Created"], a+1)
	if len(next) == 0 || sr.exit == nil {
		return
	}
	e := sr.exit
	if iv := d.bound(interval{e.Earliest, e.Latest}, time.Time{}, next[0].when.hi); !iv.hi.Equal(e.Latest) {
		e.Latest, e.At = iv.hi, iv.mid()
		e.Evidence = append(e.Evidence, Evidence{What: "before the next run's Event Created", NameTime: next[0].nameTime,
			API: next[0].api, Precision: next[0].apiPrec, Note: "the kubelet creates a container again only after it exited"})
	}
}

// appendCreated appends a milestone for each Created Event of the run: created before it
// started, though a whole-second Event placed when it arrived may read later.
func (d *deriver) appendCreated(ms []Milestone, name string, a int32, created []eventOcc) []Milestone {
	start := findMilestone(ms, startKind(a), a)
	for _, oc := range created {
		m := d.eventMilestone(MCreated, name, a, oc)
		if start != nil && !start.Latest.Before(m.Earliest) {
			iv := d.bound(interval{m.Earliest, m.Latest}, time.Time{}, start.Latest)
			m.Latest, m.At = iv.hi, iv.clamp(earlier(m.At, start.At))
		}
		ms = append(ms, m)
	}
	return ms
}

// orderAfterBackOff: the run before exited, the kubelet backed off, then this one was created,
// started and (maybe) exited: in that order, when whole seconds cannot tell them apart; and
// started no sooner than its start.
func orderAfterBackOff(ms []Milestone, a int32, prevExit *Milestone, backOffs []eventOcc) {
	var floor time.Time
	if prevExit != nil {
		floor = prevExit.At
	}
	for _, oc := range backOffs {
		floor = later(floor, oc.at)
	}
	if floor.IsZero() {
		return
	}
	var chain []*Milestone
	for _, k := range []MilestoneKind{MCreated, startKind(a), MExit} {
		if m := findMilestone(ms, k, a); m != nil {
			chain = append(chain, m)
		}
	}
	inOrderAfter(floor, chain...)
	if s, st := findMilestone(ms, startKind(a), a), findMilestone(ms, MStarted, a); s != nil && st != nil && st.At.Before(s.At) {
		st.At = interval{st.Earliest, st.Latest}.clamp(s.At)
	}
}

// appendBackOffs appends a milestone for each BackOff Event of the run, with its count.
func (d *deriver) appendBackOffs(ms []Milestone, name string, a int32, backOffs []eventOcc) []Milestone {
	for _, oc := range backOffs {
		m := d.eventMilestone(MBackOff, name, a, oc)
		m.Count = oc.count
		ms = append(ms, m)
	}
	return ms
}

// runStop appends how the run the status showed stopped, when the kubelet stopped it (its
// Killing Events before the exit, a failed preStop hook, the kubelet's own log of it), and keeps
// an implied exit after the kill and the SIGTERM after the start.
func (d *deriver) runStop(ps *podState, ls *laneState, a int32, in *instance, ms []Milestone, implied bool,
	occs func(reason string) []eventOcc) []Milestone {
	var stop *KubeletObservation
	if in != nil && in.id != "" {
		stop = ls.stops[in.id]
	}
	ms = d.stopOf(ps, *ls.spec, a, ms, killsBefore(occs("Killing"), findMilestone(ms, MExit, a)), occs("FailedPreStopHook"), stop)
	if implied {
		afterKill(findMilestone(ms, MExit, a), findMilestone(ms, MSigterm, a))
	}
	sigtermAfterStart(ms, a)
	return ms
}

// appendWaits appends a milestone for each wait before the run that is not an ordinary one
// (creating the container, initialising the pod): the lane's segments show those.
func (d *deriver) appendWaits(ms []Milestone, name string, waits []waitChange, created time.Time) []Milestone {
	for _, w := range waits {
		if w.reason == "PodInitializing" || w.reason == "ContainerCreating" || w.reason == "" {
			continue
		}
		m := d.observedMilestone(MWaiting, w.seen, "state.waiting.reason", created)
		m.Container, m.Attempt, m.Reason, m.Message = name, w.attempt, w.reason, w.message
		ms = append(ms, m)
	}
	return ms
}
