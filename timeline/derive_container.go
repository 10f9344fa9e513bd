package timeline

import (
	"fmt"
	"strings"
	"time"
)

// container derives one lane's milestones from its runs and its Events; what needs other lanes
// (a sidecar's SIGTERM, the bound a next container puts on started) comes later, in crossLane.
// created is the pod's creation, the floor of anything in the lane.
func (d *deriver) container(ls *laneState, ce containerEvents, created time.Time) Container {
	spec := ls.spec
	c := Container{Name: spec.Name, Kind: spec.Kind, State: stateText(ls.status)}
	if ls.status != nil {
		c.RestartCount = ls.status.RestartCount
	}
	runs := map[int32]*runMilestones{}
	var order []int32
	for _, in := range ls.instances {
		r := d.run(ls, in, ce)
		runs[in.attempt] = r
		order = append(order, in.attempt)
	}
	attemptAt := func(t time.Time) int32 {
		for _, a := range order {
			if r := runs[a]; r.exit == nil || !t.After(r.exit.Latest) {
				return a
			}
		}
		if len(order) == 0 {
			return 0
		}
		return order[len(order)-1] + 1
	}
	// An Event can arrive before the status it explains: a Started Event for a run the status
	// does not show yet places that run's start on its own.
	for _, oc := range ce["Started"] {
		a := attemptAt(oc.at)
		if _, ok := runs[a]; !ok {
			m := eventMilestone(startKind(a), spec.Name, a, oc)
			m.Earliest = created // after the pod was made, after the run before it ended
			if n := len(order); n > 0 && runs[order[n-1]].exit != nil {
				m.Earliest = runs[order[n-1]].exit.Earliest
			}
			if cr := firstIn(ce["Created"], a, attemptAt); cr != nil {
				m.Earliest = cr.when.lo
			}
			m.Earliest = earlier(m.Earliest, m.Latest)
			runs[a] = &runMilestones{start: &m}
			c.Milestones = append(c.Milestones, m)
		}
	}
	for _, a := range order {
		r := runs[a]
		if cr := firstIn(ce["Created"], a, attemptAt); cr != nil && r.start != nil {
			r.start.Earliest = d.bound(interval{r.start.Earliest, r.start.Latest}, cr.when.lo, time.Time{}).lo
			r.start.At = interval{r.start.Earliest, r.start.Latest}.clamp(r.start.At)
			r.start.Evidence = append(r.start.Evidence, Evidence{What: "after Event Created", NameTime: timePtr(cr.nameTime), API: timePtr(cr.api), Precision: cr.apiPrec})
			for _, m := range append(r.started, r.flag...) {
				m.Earliest = earlier(later(m.Earliest, r.start.Earliest), m.Latest)
			}
		}
		if st := firstIn(ce["Started"], a, attemptAt); st != nil && r.start != nil {
			iv := interval{r.start.Earliest, r.start.Latest}
			r.start.At = iv.clamp(st.at)
			r.start.Evidence = append(r.start.Evidence, Evidence{What: "Event Started (emitted just after the start)", NameTime: timePtr(st.nameTime), API: timePtr(st.api), Precision: st.apiPrec, Received: timePtr(st.received)})
		}
		if r.startedWithRun && len(r.started) > 0 {
			m := r.started[0]
			m.At = interval{m.Earliest, m.Latest}.clamp(r.start.At)
		}
		c.Milestones = append(c.Milestones, r.all()...)
	}
	for _, oc := range ce["Created"] {
		c.Milestones = append(c.Milestones, eventMilestone(MCreated, spec.Name, attemptAt(oc.at), oc))
	}
	c.Milestones = append(c.Milestones, collapseProbeFailures(spec.Name, ce["Unhealthy"], attemptAt)...)
	for _, oc := range ce["BackOff"] {
		m := eventMilestone(MBackOff, spec.Name, attemptAt(oc.at), oc)
		m.Count = oc.count
		c.Milestones = append(c.Milestones, m)
	}
	if spec.Kind != KindSidecar {
		for _, a := range order {
			if oc := firstIn(ce["Killing"], a, attemptAt); oc != nil {
				// The lane's own exit, not the run's: directSigterm moves it after the SIGTERM.
				exit := findMilestone(c.Milestones, MExit, a)
				c.Milestones = append(c.Milestones, d.directSigterm(spec, a, *oc, exit))
			}
		}
	}
	for _, w := range ls.waits {
		if w.reason == "PodInitializing" || w.reason == "ContainerCreating" || w.reason == "" {
			continue // ordinary waits: the lane's segments show them
		}
		m := observedMilestone(MWaiting, w.seen, "state.waiting.reason", time.Time{})
		m.Container, m.Attempt, m.Reason, m.Message = spec.Name, w.attempt, w.reason, w.message
		c.Milestones = append(c.Milestones, m)
	}
	return c
}

// runMilestones are one run's status-based milestones, kept by pointer so that later evidence
// (Events, other lanes) can tighten them before they are copied into the lane.
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

// run derives a run's start, exit, started and ready milestones from the status.
func (d *deriver) run(ls *laneState, in *instance, ce containerEvents) *runMilestones {
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
			for _, oc := range ce["Unhealthy"] {
				if strings.HasPrefix(oc.ev.Message, "Startup probe") && oc.when.lo.Before(m.Latest) {
					m.Earliest = later(m.Earliest, oc.when.lo)
				}
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
		Latest: oc.when.hi, Source: SourceEvent, Message: oc.ev.Message, Evidence: []Evidence{oc.evidence(oc.ev)}}
}

// collapseProbeFailures makes one milestone of each run's repeated failures of one probe.
func collapseProbeFailures(container string, occs []eventOcc, attemptAt func(time.Time) int32) []Milestone {
	var out []Milestone
	index := map[string]int{}
	for _, oc := range occs {
		a := attemptAt(oc.at)
		key := fmt.Sprint(a, "/", probeName(oc.ev.Message))
		if i, ok := index[key]; ok {
			out[i].Count++
			out[i].Evidence = append(out[i].Evidence[:1], oc.evidence(oc.ev))
			continue
		}
		m := eventMilestone(MProbeFailed, container, a, oc)
		m.Reason, m.Count = probeName(oc.ev.Message), 1
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

// firstIn is the first occurrence that belongs to the given run.
func firstIn(occs []eventOcc, attempt int32, attemptAt func(time.Time) int32) *eventOcc {
	for i := range occs {
		if attemptAt(occs[i].at) == attempt {
			return &occs[i]
		}
	}
	return nil
}

func statusField(k ContainerKind) string {
	switch k {
	case KindInit, KindSidecar:
		return "initContainerStatuses"
	case KindEphemeral:
		return "ephemeralContainerStatuses"
	}
	return "containerStatuses"
}

// signalName names the signal that ended a container: the status's signal field if set, else the
// shell convention 128+n of the exit code.
func signalName(signal, exitCode int32) string {
	n := signal
	if n == 0 && exitCode > 128 && exitCode < 160 {
		n = exitCode - 128
	}
	switch n {
	case 0:
		return ""
	case 1:
		return "SIGHUP"
	case 2:
		return "SIGINT"
	case 3:
		return "SIGQUIT"
	case 6:
		return "SIGABRT"
	case 9:
		return "SIGKILL"
	case 11:
		return "SIGSEGV"
	case 15:
		return "SIGTERM"
	}
	return fmt.Sprintf("signal %d", n)
}

// stateText is a container's latest state as a short phrase.
func stateText(cs *ContainerStatus) string {
	switch {
	case cs == nil:
		return "no status yet"
	case cs.Waiting != nil:
		return "waiting: " + cs.Waiting.Reason
	case cs.Running != nil && cs.Ready:
		return "running, ready"
	case cs.Running != nil && cs.Started != nil && *cs.Started:
		return "running, started, not ready"
	case cs.Running != nil:
		return "running, not ready"
	case cs.Terminated != nil:
		s := fmt.Sprintf("terminated: exit %d", cs.Terminated.ExitCode)
		if sig := signalName(cs.Terminated.Signal, cs.Terminated.ExitCode); sig != "" {
			s += " (" + sig + ")"
		} else if cs.Terminated.Reason != "" {
			s += " (" + cs.Terminated.Reason + ")"
		}
		return s
	}
	return "unknown"
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// exitAfter moves an exit's estimate into the part of its interval after the SIGTERM that
// caused it, so that the two read in the order they happened.
func exitAfter(exit, sigterm *Milestone) {
	if exit == nil || !sigterm.At.After(exit.Earliest) || sigterm.At.After(exit.Latest) {
		return
	}
	exit.At = interval{sigterm.At, exit.Latest}.mid()
}
