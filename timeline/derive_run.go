package timeline

import (
	"strings"
	"time"
)

// runMilestones are one run's status-based milestones, kept by pointer so that the Events of the
// run can tighten them before they are copied into the run.
type runMilestones struct {
	start, exit    *Milestone
	started, flag  []*Milestone
	startedWithRun bool // started has no probe to wait for: it is placed at the start
}

func (r *runMilestones) all() []Milestone {
	var out []Milestone
	for _, m := range append([]*Milestone{r.start, r.exit}, append(r.started, r.flag...)...) {
		if m != nil {
			out = append(out, *m)
		}
	}
	return out
}

func startKind(attempt int32) MilestoneKind {
	if attempt == 0 {
		return MStart
	}
	return MRestart
}

// baseRun derives everything that belongs to attempt a of the lane but what needs other lanes:
// the run's status-based milestones sr (nil if the status never showed the run), the Events filed
// under it, and the waits before it. lastExit is the exit of the last run the status showed,
// which bounds a run known only from its Started Event.
func (d *deriver) baseRun(ls *laneState, a int32, sr *runMilestones, lastExit *Milestone, created time.Time) *Run {
	spec := ls.spec
	lc := &ls.cache
	occs := func(reason string) []eventOcc { return lc.occsOf(ls.occs[reason], a) }
	var ms []Milestone
	if sr == nil {
		// An Event can arrive before the status it explains: a Started Event for a run the status
		// does not show yet places that run's start on its own.
		if st := occs("Started"); len(st) > 0 {
			m := eventMilestone(startKind(a), spec.Name, a, st[0])
			m.Earliest = created // after the pod was made, after the run before it ended
			if lastExit != nil {
				m.Earliest = lastExit.Earliest
			}
			if cr := occs("Created"); len(cr) > 0 {
				m.Earliest = cr[0].when.lo
			}
			m.Earliest = earlier(m.Earliest, m.Latest)
			ms = append(ms, m)
		}
	} else {
		r := sr
		if cr := occs("Created"); len(cr) > 0 && r.start != nil {
			r.start.Earliest = d.bound(interval{r.start.Earliest, r.start.Latest}, cr[0].when.lo, time.Time{}).lo
			r.start.At = interval{r.start.Earliest, r.start.Latest}.clamp(r.start.At)
			r.start.Evidence = append(r.start.Evidence, Evidence{What: "after Event Created", NameTime: timePtr(cr[0].nameTime), API: timePtr(cr[0].api), Precision: cr[0].apiPrec})
			for _, m := range append(r.started, r.flag...) {
				m.Earliest = earlier(later(m.Earliest, r.start.Earliest), m.Latest)
			}
		}
		if st := occs("Started"); len(st) > 0 && r.start != nil {
			iv := interval{r.start.Earliest, r.start.Latest}
			r.start.At = iv.clamp(st[0].at)
			r.start.Evidence = append(r.start.Evidence, Evidence{What: "Event Started (emitted just after the start)", NameTime: timePtr(st[0].nameTime), API: timePtr(st[0].api), Precision: st[0].apiPrec, Received: timePtr(st[0].received)})
		}
		if r.startedWithRun && len(r.started) > 0 {
			m := r.started[0]
			m.At = interval{m.Earliest, m.Latest}.clamp(r.start.At)
		}
		ms = append(ms, r.all()...)
	}
	for _, oc := range occs("Created") {
		ms = append(ms, eventMilestone(MCreated, spec.Name, a, oc))
	}
	ms = append(ms, collapseProbeFailures(spec.Name, a, occs("Unhealthy"))...)
	for _, oc := range occs("BackOff") {
		m := eventMilestone(MBackOff, spec.Name, a, oc)
		m.Count = oc.count
		ms = append(ms, m)
	}
	if spec.Kind != KindSidecar && sr != nil {
		if kill := occs("Killing"); len(kill) > 0 {
			// The run's own exit, not a copy: directSigterm moves it after the SIGTERM.
			exit := findMilestone(ms, MExit, a)
			ms = append(ms, d.directSigterm(spec, a, kill[0], exit))
		}
	}
	for _, w := range ls.waits {
		if w.attempt != a || w.reason == "PodInitializing" || w.reason == "ContainerCreating" || w.reason == "" {
			continue // ordinary waits: the lane's segments show them
		}
		m := observedMilestone(MWaiting, w.seen, "state.waiting.reason", time.Time{})
		m.Container, m.Attempt, m.Reason, m.Message = spec.Name, w.attempt, w.reason, w.message
		ms = append(ms, m)
	}
	return newRun(a, ms, ls.waits, created)
}

// run derives a run's start, exit, started and ready milestones from the status.
func (d *deriver) run(ls *laneState, in *instance) *runMilestones {
	spec := ls.spec
	field := "status." + statusField(spec.Kind) + "[" + spec.Name + "]"
	r := &runMilestones{}
	if !in.startedAt.IsZero() {
		iv := wholeSecond(in.startedAt)
		var recv time.Time
		if in.run != nil {
			recv = in.run.at
			iv = d.bound(iv, time.Time{}, recv)
		}
		r.start = &Milestone{Kind: startKind(in.attempt), Container: spec.Name, Attempt: in.attempt,
			At: iv.mid(), Earliest: iv.lo, Latest: iv.hi, Source: SourceStatus,
			Evidence: []Evidence{{What: field + ".state.running.startedAt", API: timePtr(in.startedAt), Precision: "1s", Received: timePtr(recv)}}}
	}
	if t := in.term; t != nil {
		var iv interval
		ev := Evidence{What: field + ".state.terminated.finishedAt", Received: timePtr(in.termSeen.at)}
		if !t.FinishedAt.IsZero() {
			iv = d.bound(wholeSecond(t.FinishedAt), time.Time{}, in.termSeen.at)
			ev.API, ev.Precision = timePtr(t.FinishedAt), "1s"
		} else {
			iv = interval{in.termSeen.prev, in.termSeen.at}
			ev.Note = "no finishedAt: placed when seen"
		}
		if r.start != nil {
			iv = d.bound(iv, r.start.Earliest, time.Time{})
		}
		code := t.ExitCode
		r.exit = &Milestone{Kind: MExit, Container: spec.Name, Attempt: in.attempt, At: iv.mid(), Earliest: iv.lo,
			Latest: iv.hi, Source: SourceStatus, Reason: t.Reason, Message: t.Message, ExitCode: &code,
			Signal: signalName(t.Signal, t.ExitCode), Evidence: []Evidence{ev}}
	}
	floor := time.Time{}
	if r.start != nil {
		floor = r.start.Earliest
	}
	for _, f := range in.started {
		if !f.value || !(spec.HasStartupProbe || spec.Kind == KindSidecar) {
			continue
		}
		m := d.flagMilestone(MStarted, f, in, field+".started", floor)
		m.Container, m.Attempt = spec.Name, in.attempt
		if spec.HasStartupProbe {
			// It passed after the last startup probe failure the kubelet reported.
			if lo, ok := lastStartupFailureBefore(ls.occs["Unhealthy"], m.Latest); ok {
				m.Earliest = later(m.Earliest, lo)
			}
		} else if r.start != nil && in.run != nil && f.seen.at.Equal(in.run.at) {
			r.startedWithRun = true // no startup probe: started as soon as it ran
			m.Evidence[0].Note = "no startup probe: started when it ran"
		}
		r.started = append(r.started, &m)
	}
	for _, f := range in.ready {
		kind := MReady
		if !f.value {
			kind = MNotReady
		}
		m := d.flagMilestone(kind, f, in, field+".ready", floor)
		m.Container, m.Attempt = spec.Name, in.attempt
		r.flag = append(r.flag, &m)
	}
	return r
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
		s.prev = time.Time{}
	}
	m := observedMilestone(kind, s, what, floor)
	m.Earliest = earlier(later(m.Earliest, floor), m.Latest)
	return m
}

// directSigterm is the SIGTERM of an app or init container: the kubelet records its Killing
// Event, runs the preStop hook if there is one, then has the runtime signal the container.
func (d *deriver) directSigterm(spec ContainerObservation, attempt int32, oc eventOcc, exit *Milestone) Milestone {
	m := eventMilestone(MSigterm, spec.Name, attempt, oc)
	iv := interval{oc.when.lo, time.Time{}}
	if !spec.HasPreStop {
		iv.hi = oc.when.hi.Add(signalAllowance)
	} else {
		m.Evidence = append(m.Evidence, Evidence{What: "preStop hook", Note: "SIGTERM follows the preStop hook"})
	}
	if exit != nil {
		iv = d.bound(iv, time.Time{}, exit.Latest)
	}
	m.Earliest, m.Latest, m.At = iv.lo, iv.hi, iv.clamp(oc.at)
	exitAfter(exit, &m)
	return m
}

// eventMilestone places a milestone on one Event occurrence.
func eventMilestone(kind MilestoneKind, container string, attempt int32, oc eventOcc) Milestone {
	return Milestone{Kind: kind, Container: container, Attempt: attempt, At: oc.at, Earliest: oc.when.lo,
		Latest: oc.when.hi, Source: SourceEvent, Message: oc.message, Evidence: []Evidence{oc.evidence(oc.ev.Reason)}}
}

// collapseProbeFailures makes one milestone of a run's repeated failures of one probe.
func collapseProbeFailures(container string, a int32, occs []eventOcc) []Milestone {
	var out []Milestone
	index := map[string]int{}
	for _, oc := range occs {
		key := probeName(oc.message)
		if i, ok := index[key]; ok {
			out[i].Count++
			out[i].Evidence = append(out[i].Evidence[:1], oc.evidence(oc.ev.Reason))
			continue
		}
		m := eventMilestone(MProbeFailed, container, a, oc)
		m.Reason, m.Count = key, 1
		index[key] = len(out)
		out = append(out, m)
	}
	return out
}

func probeName(msg string) string {
	for _, p := range []string{"Startup", "Readiness", "Liveness"} {
		if strings.HasPrefix(msg, p+" probe") {
			return p
		}
	}
	return "Probe"
}
