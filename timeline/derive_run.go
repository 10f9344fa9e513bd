package timeline

import (
	"slices"
	"strings"
	"time"
)

// runMilestones are one run's status-based milestones, kept by pointer so that the Events of the
// run can tighten them before they are copied into the run.
type runMilestones struct {
	start, exit    *Milestone
	started, flag  []*Milestone
	startedWithRun bool // started has no probe to wait for: it is placed at the start
	// Where the pointers above point: kept by the deriver and used again for the next lane, since
	// the milestones are copied into the run (their evidence is not: it is made anew each time).
	startM, exitM Milestone
	flags         []Milestone
}

// reset empties r for another run, keeping its storage.
func (r *runMilestones) reset() {
	*r = runMilestones{started: r.started[:0], flag: r.flag[:0], flags: r.flags[:0]}
}

// appendTo appends the run's milestones to ms.
func (r *runMilestones) appendTo(ms []Milestone) []Milestone {
	for _, m := range [2]*Milestone{r.start, r.exit} {
		if m != nil {
			ms = append(ms, *m)
		}
	}
	for _, m := range r.started {
		ms = append(ms, *m)
	}
	for _, m := range r.flag {
		ms = append(ms, *m)
	}
	return ms
}

func startKind(attempt int32) MilestoneKind {
	if attempt == 0 {
		return MStart
	}
	return MRestart
}

// baseRun derives everything that belongs to attempt a of the lane but what needs other lanes:
// the run's status-based milestones sr (nil if the status never showed the run), the Events filed
// under it, the waits before it, and how it stopped if the kubelet stopped it on its own (a
// probe) or it is not a sidecar. prevExit is the exit of the run before, which the run follows.
//
// old is the run as derived last time (nil if none) and room its milestones' storage (see
// laneCache.room); the run's storage is returned with it (keptRun).
func (d *deriver) baseRun(ps *podState, ls *laneState, a int32, in *instance, sr *runMilestones, prevExit *Milestone, old *Run,
	room []Milestone) (*Run, []Milestone) {
	spec := *ls.spec
	created := ps.created()
	w := ls.cache.window(a)
	occs := func(reason string) []eventOcc { return ls.cache.occsIn(w, reason, ls.occs[reason]) }
	ms := d.scratch[:0] // built here, then copied to a slice of its size
	ms, implied := d.runBounds(ms, ls, a, sr, prevExit, created, occs)
	ms = d.appendCreated(ms, spec.Name, a, occs("Created"))
	orderAfterBackOff(ms, a, prevExit, occs("BackOff"))
	ms = d.appendProbeFailures(ms, spec.Name, a, occs("Unhealthy"))
	ms = d.appendBackOffs(ms, spec.Name, a, occs("BackOff"))
	backOffsBetween(ms, a, prevExit)
	if sr != nil {
		ms = d.runStop(ps, ls, a, in, ms, implied, occs)
	}
	lr := ls.logOf(in, a)
	ms = d.logEvidence(spec, a, ms, lr)
	explainRun(spec, a, ms, occs("Pulled"), old)
	waits := ls.waitsOf(a)
	ms = d.appendWaits(ms, spec.Name, waits, created)
	aliveBeforeExit(ms, a)
	d.scratch = ms[:0]
	placeMilestones(ms, created)
	d.changes = appendChanges(d.changes[:0], a, ms, waits)
	return d.keptRun(a, ms, lr, old, room)
}

// runEvidence tightens a run's status-based start with its Events, and keeps the run after the
// one before it: a restart follows the exit it restarts after, by bounds and by estimate.
func (d *deriver) runEvidence(r *runMilestones, created, started []eventOcc, prevExit *Milestone) {
	if r.start == nil {
		return
	}
	s := r.start
	if len(created) > 0 {
		s.Earliest = d.bound(interval{s.Earliest, s.Latest}, created[0].when.lo, time.Time{}).lo
		s.At = interval{s.Earliest, s.Latest}.clamp(s.At)
		s.Evidence = append(s.Evidence, Evidence{What: "after Event Created", NameTime: created[0].nameTime, API: created[0].api, Precision: created[0].apiPrec})
	}
	if prevExit != nil {
		s.Earliest = d.bound(interval{s.Earliest, s.Latest}, prevExit.Earliest, time.Time{}).lo
		s.At = interval{s.Earliest, s.Latest}.clamp(s.At)
		if !s.At.After(prevExit.At) && s.Latest.After(prevExit.At) {
			s.At = interval{prevExit.At, s.Latest}.mid()
		}
	}
	if len(started) > 0 {
		// The kubelet records Started once the runtime's StartContainer has returned, which is
		// after the runtime stamped startedAt: the Event bounds the start above as well.
		iv := d.bound(interval{s.Earliest, s.Latest}, time.Time{}, started[0].when.hi)
		s.Earliest, s.Latest = iv.lo, iv.hi
		s.At = iv.clamp(started[0].at)
		s.Evidence = append(s.Evidence, Evidence{What: "Event Started (emitted just after the start)", NameTime: started[0].nameTime, API: started[0].api, Precision: started[0].apiPrec, Received: started[0].received})
	}
	for _, list := range [...][]*Milestone{r.started, r.flag} {
		for _, m := range list {
			m.Earliest = earlier(later(m.Earliest, s.Earliest), m.Latest)
			m.At = interval{m.Earliest, m.Latest}.clamp(m.At)
		}
	}
	if r.startedWithRun && len(r.started) > 0 {
		m := r.started[0]
		m.At = interval{m.Earliest, m.Latest}.clamp(s.At)
	}
	if e := r.exit; e != nil && !e.At.After(s.At) {
		if e.Latest.After(s.At) {
			e.At = interval{s.At, e.Latest}.mid() // a short run: its exit reads after its start
		}
		inOrder(s, e)
	}
}

// run derives a run's start, exit, started and ready milestones from the status.
func (d *deriver) run(r *runMilestones, ps *podState, ls *laneState, in *instance) {
	r.reset()
	// Sized once, so that the pointers into it stay where the milestones are.
	r.flags = slices.Grow(r.flags, len(in.started)+len(in.ready))
	startedAt, finishedAt := d.runTimes(ps, ls.spec, in)
	d.statusStart(r, ps, ls, in, startedAt)
	if in.term != nil {
		d.statusExit(r, ls, in, finishedAt)
	}
	floor := ps.created()
	if r.start != nil {
		floor = r.start.Earliest
	}
	d.startedFlags(r, ls, in, floor)
	for _, f := range in.ready {
		kind := MReady
		if !f.value {
			kind = MNotReady
		}
		m := d.flagMilestone(kind, f, in, ls.what.ready, floor)
		m.Container, m.Attempt = ls.spec.Name, in.attempt
		r.flags = append(r.flags, m)
		r.flag = append(r.flag, &r.flags[len(r.flags)-1])
	}
}

// statusStart is the run's start from its startedAt (whole seconds, which containerd may note
// late), no later than the status that gave it; or, known to run but not since when, between the
// observation before and the one that showed it.
func (d *deriver) statusStart(r *runMilestones, ps *podState, ls *laneState, in *instance, startedAt time.Time) {
	spec := ls.spec
	if !startedAt.IsZero() {
		iv := wholeSecond(startedAt)
		iv.lo = iv.lo.Add(-startedLate) // containerd may note the start after the process began
		var recv time.Time
		if in.run != nil {
			recv = in.run.at
			iv = d.bound(iv, time.Time{}, recv)
		}
		// Room for the Events runEvidence adds (Created, Started), so that adding them does not copy it.
		ev := d.evidence(3, Evidence{What: ls.what.startedAt, API: startedAt, Precision: "1s", Received: recv})
		r.startM = Milestone{Kind: startKind(in.attempt), Container: spec.Name, Attempt: in.attempt,
			At: iv.mid(), Earliest: iv.lo, Latest: iv.hi, Source: SourceStatus, Evidence: ev}
		r.start = &r.startM
	} else if in.run != nil {
		r.startM = d.observedMilestone(startKind(in.attempt), *in.run, ls.what.startedAt, ps.created())
		r.startM.Container, r.startM.Attempt = spec.Name, in.attempt
		r.start = &r.startM
	}
}

// statusExit is the run's exit from its terminated state: its finishedAt (whole seconds) no
// later than the status that showed it, or without one placed when seen; after the start.
func (d *deriver) statusExit(r *runMilestones, ls *laneState, in *instance, finishedAt time.Time) {
	t := in.term
	var iv interval
	ev := Evidence{What: ls.what.finishedAt, Received: in.termSeen.at}
	if !finishedAt.IsZero() {
		iv = d.bound(wholeSecond(finishedAt), time.Time{}, in.termSeen.at)
		ev.API, ev.Precision = finishedAt, "1s"
	} else {
		iv = interval{in.termSeen.prev, in.termSeen.at}
		ev.Note = "no finishedAt: placed when seen"
	}
	if r.start != nil {
		iv = d.bound(iv, r.start.Earliest, time.Time{})
	}
	code := t.ExitCode
	r.exitM = Milestone{Kind: MExit, Container: ls.spec.Name, Attempt: in.attempt, At: iv.mid(), Earliest: iv.lo,
		Latest: iv.hi, Source: SourceStatus, Reason: t.Reason, Message: t.Message, ExitCode: &code,
		Signal: signalName(t.Signal, t.ExitCode), Evidence: d.evidence(1, ev)}
	r.exit = &r.exitM
}

// startedFlags are the run's started changes to true, for a container with a startup probe or a
// sidecar: after the last startup probe failure the kubelet reported before it, or, with no
// startup probe, at the start when it came with the run (when the status that showed it came,
// with a postStart hook, which the kubelet runs to its end first).
func (d *deriver) startedFlags(r *runMilestones, ls *laneState, in *instance, floor time.Time) {
	spec := ls.spec
	for _, f := range in.started {
		if !f.value || !(spec.HasStartupProbe || spec.Kind == KindSidecar) {
			continue
		}
		m := d.flagMilestone(MStarted, f, in, ls.what.started, floor)
		m.Container, m.Attempt = spec.Name, in.attempt
		if spec.HasStartupProbe {
			// It passed after the last startup probe failure the kubelet reported.
			if lo, ok := lastStartupFailureBefore(ls.occs["Unhealthy"], m.Latest); ok {
				m.Earliest = later(m.Earliest, lo)
			}
		} else if r.start != nil && in.run != nil && f.seen.at.Equal(in.run.at) {
			if spec.HasPostStart {
				// The kubelet counts it started only once its postStart hook returned, and reports
				// it running only after that: late in its interval, not at the start.
				m.Evidence[0].Note = "postStart hook: started once the hook returned, reported after it"
			} else {
				r.startedWithRun = true // no startup probe: started as soon as it ran
				m.Evidence[0].Note = "no startup probe: started when it ran"
			}
		}
		r.flags = append(r.flags, m)
		r.started = append(r.started, &r.flags[len(r.flags)-1])
	}
}

// runTimes are the run's startedAt and finishedAt as far as they are times of it: a time before
// the pod was made, or long after the status that gave it was received, is none (said once, and
// left out).
func (d *deriver) runTimes(ps *podState, spec *ContainerObservation, in *instance) (startedAt, finishedAt time.Time) {
	floor := ps.created()
	startedAt = in.startedAt
	if in.term != nil {
		finishedAt = in.term.FinishedAt
	}
	if absurd(startedAt, floor) || absurd(finishedAt, floor) {
		d.note("pod " + ps.last.Name + " container " + spec.Name + ": a start or finish time before the pod was created was left out")
		if absurd(startedAt, floor) {
			startedAt = time.Time{}
		}
		if absurd(finishedAt, floor) {
			finishedAt = time.Time{}
		}
	}
	lateStart := in.run != nil && tooLate(startedAt, in.run.at)
	if lateFinish := in.termSeen != nil && tooLate(finishedAt, in.termSeen.at); lateStart || lateFinish {
		d.note("pod " + ps.last.Name + " container " + spec.Name + ": a start or finish time more than a day after its status was received was left out")
		if lateStart {
			startedAt = time.Time{}
		}
		if lateFinish {
			finishedAt = time.Time{}
		}
	}
	return startedAt, finishedAt
}

// lastStartupFailureBefore is the latest start of the interval of a startup probe failure that
// began before t. The list is in time order and no occurrence's interval begins after it.
func lastStartupFailureBefore(list []eventOcc, t time.Time) (time.Time, bool) {
	var best time.Time
	found := false
	for i := upperBound(list, t.Add(second)) - 1; i >= 0; i-- {
		oc := list[i]
		if found && oc.at.Before(best) {
			break // nothing earlier can begin later than best
		}
		if strings.HasPrefix(oc.message, "Startup probe") && oc.when.lo.Before(t) && (!found || oc.when.lo.After(best)) {
			best, found = oc.when.lo, true
		}
	}
	return best, found
}

// flagMilestone places a change of a status flag (started, ready), which has no time field: it
// was first seen at f.at, after f.prev, and not before the run began. When the change came in
// the same observation as the run itself, the previous observation says nothing: the kubelet
// reports a container's state up to a second late.
func (d *deriver) flagMilestone(kind MilestoneKind, f flagChange, in *instance, what string, floor time.Time) Milestone {
	s := f.seen
	if in.run != nil && !s.at.After(in.run.at) {
		s.prev, s.note = time.Time{}, ""
	}
	if !s.prev.IsZero() {
		// The observation before may not show the change yet: the kubelet reports it late.
		s.prev = s.prev.Add(-statusLag)
		s.note = strings.TrimPrefix(s.note+"; the kubelet may report it up to 1s late", "; ")
	}
	m := d.observedMilestone(kind, s, what, floor)
	m.Earliest = earlier(later(m.Earliest, floor), m.Latest)
	return m
}

// appendProbeFailures appends a milestone for each failure of a probe the kubelet reported: each
// update of an Unhealthy Event that raised its count is a failure of its own, placed by the
// lastTimestamp it brought and the time it was received (see eventState.observe), with the
// Event's count then.
func (d *deriver) appendProbeFailures(ms []Milestone, container string, a int32, occs []eventOcc) []Milestone {
	for _, oc := range occs {
		m := d.eventMilestone(MProbeFailed, container, a, oc)
		m.Reason, m.Count = probeName(oc.message), oc.count
		ms = append(ms, m)
	}
	return ms
}

func probeName(msg string) string {
	for _, p := range []string{"Startup", "Readiness", "Liveness"} {
		if strings.HasPrefix(msg, p+" probe") {
			return p
		}
	}
	return "Probe"
}
