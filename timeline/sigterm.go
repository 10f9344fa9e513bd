package timeline

import (
	"sort"
	"time"
)

// crossLane adds what one lane's milestones owe to others: the bound a next container's first
// Event puts on a sidecar's started, and the SIGTERM of sidecars, which nobody reports.
func (d *deriver) crossLane(ps *podState, lanes []*passLane, deleting *Milestone) {
	d.boundStartedByNext(lanes)
	for i := len(lanes) - 1; i >= 0; i-- {
		if lanes[i].kind() == KindSidecar {
			d.inferSidecarSigterm(ps, lanes, i, deleting)
		}
	}
}

// boundStartedByNext: the kubelet starts the container after a sidecar only once the sidecar has
// started, so the next container's first Event (Pulled, Created, Started) bounds started above.
// The kubelet may report started=true in the status after that Event arrives.
func (d *deriver) boundStartedByNext(lanes []*passLane) {
	for i, l := range lanes {
		if l.kind() != KindSidecar {
			continue
		}
		next := nextLane(lanes, i)
		if next == nil {
			continue
		}
		first := firstEventOf(next.ls)
		if first == nil {
			continue
		}
		// The run whose started let the next container start: the last that may have started by
		// then (a sidecar whose startup probe killed its first run starts the app in a later one).
		var m *Milestone
		var run int32
		// Runs are in time order: read back from the first that began after the Event.
		from := sort.Search(len(l.runs), func(j int) bool {
			ms := l.runs[j].Milestones
			return len(ms) > 0 && ms[0].Earliest.After(first.when.hi)
		})
		for j := from - 1; j >= 0 && m == nil; j-- {
			if s := l.find(MStarted, l.runs[j].Attempt); s != nil && !s.Earliest.After(first.when.hi) {
				m, run = s, l.runs[j].Attempt
			}
		}
		if m == nil || !first.when.hi.Before(m.Latest) {
			continue
		}
		if s := l.find(startKind(run), run); s != nil && first.when.hi.Before(s.At) {
			continue // evidence no kubelet makes: the next container's Event before this run began
		}
		d.boundStartedBefore(l, run, first.when.hi, Evidence{What: "before " + next.name() + "'s first Event " + first.ev.Reason,
			NameTime: first.nameTime, API: first.api, Precision: first.apiPrec, Received: first.received,
			Note: "the kubelet starts the next container only after this one has started"})
	}
}

// firstEventOf is a lane's first Pulling, Pulled, Created or Started Event (the earliest bound
// above), not counting repeats; nil if none.
func firstEventOf(ls *laneState) *eventOcc {
	var first *eventOcc
	for _, reason := range []string{"Pulling", "Pulled", "Created", "Started"} {
		list := ls.occs[reason]
		for j := range list {
			oc := &list[j]
			if first != nil && oc.at.After(first.when.hi) {
				break // in time order, and no interval ends before its estimate
			}
			if oc.count == 1 && (first == nil || oc.when.hi.Before(first.when.hi)) {
				first = oc
			}
		}
	}
	return first
}

// inferSidecarSigterm places the SIGTERM of the sidecar lanes[i]'s last run when the pod
// stops (deleted, or all app containers done). The kubelet reports Killing for every container
// at once and runs the preStop hooks then, but signals a sidecar only after every app container
// and every sidecar declared after it has exited, or when the grace period runs out. Nobody
// outside the node sees that signal. A sidecar killed on its own (a probe) already has its SIGTERM.
func (d *deriver) inferSidecarSigterm(ps *podState, lanes []*passLane, i int, deleting *Milestone) {
	c := lanes[i]
	run := c.lastRun()
	if run < 0 || c.find(MSigterm, run) != nil {
		return
	}
	start := c.find(startKind(run), run)
	exit := c.find(MExit, run)
	var kill *eventOcc
	killing := c.ls.cache.occsOf("Killing", c.ls.occs["Killing"], run) // those filed under the run
	for j := len(killing) - 1; j >= 0; j-- {
		if start == nil || !killing[j].when.hi.Before(start.Earliest) {
			kill = &killing[j]
			break
		}
	}
	prereqs, pending := sidecarPrereqs(lanes, i, kill, ps.deletion == nil)
	stopping := ps.deletion != nil || (len(prereqs) > 0 && !pending) || appsDone(lanes)
	var end podEnd
	ended := false
	if !stopping || (kill == nil && deleting == nil) {
		end, ended = podEndOf(ps, lanes) // it ended on its own: a failed init container, a Job's pod, a deadline
	}
	if !(stopping || ended) || (kill == nil && exit == nil) {
		return
	}
	if pending && exit == nil {
		return // not signalled yet: it waits for the containers that are still running
	}
	killIv, killAt, ev, ok := stopBegan(kill, deleting)
	if !ok {
		if ended && exit != nil {
			sigtermAtEnd(ps, lanes, i, run, end, exit) // nothing says when it began to stop
		}
		return
	}
	spec := c.ls.spec
	grace := graceOf(ps, killIv)
	deadline := killIv.hi.Add(grace + second + signalAllowance) // the turn is not waited for longer
	at := killAt
	// Its turn comes when the last of the containers it waits for has exited.
	var turn interval
	for _, pr := range prereqs {
		turn.lo, turn.hi = later(turn.lo, pr.Earliest), later(turn.hi, pr.Latest)
		at = later(at, pr.At)
		ev = append(ev, Evidence{What: "after " + pr.Container + " exited", API: pr.At,
			Note: "sidecars stop after app containers, then in reverse order of definition"})
	}
	iv := interval{lo: killIv.lo, hi: deadline}
	switch {
	case pending:
		// One of them never exited: signalled when the grace period ran out.
		iv = d.bound(iv, killIv.lo.Add(max(grace-second, 0)), time.Time{})
	case len(prereqs) > 0:
		iv = d.bound(iv, earlier(turn.lo, killIv.lo.Add(max(grace-second, 0))), time.Time{})
	}
	if !pending && !spec.HasPreStop {
		// Signalled as soon as its turn came, right after Killing if it came before.
		hi := killIv.hi.Add(signalAllowance)
		if len(prereqs) > 0 {
			hi = later(hi, turn.hi.Add(turnAllowance))
		}
		iv = d.bound(iv, time.Time{}, hi)
	}
	if start != nil {
		// A run that began while the pod was stopping is signalled no sooner than it began, and
		// not for this stop at all if it began after the latest the signal could have come.
		j, ok := iv.tighten(start.Earliest, time.Time{})
		if !ok || j.hi.Before(start.At) {
			return
		}
		iv, at = j, later(at, start.At)
	}
	if exit != nil {
		if exit.Latest.Before(iv.lo) {
			return // it exited before its turn came: on its own, not signalled
		}
		iv = d.bound(iv, time.Time{}, exit.Latest)
	}
	if spec.HasPreStop {
		at = later(at, iv.mid()) // the hook took some time no one reports
	}
	ms := c.edit(run)
	exit = findMilestone(ms, MExit, run)
	m := Milestone{Kind: MSigterm, Container: c.name(), Attempt: run,
		At: iv.clamp(at), Earliest: iv.lo, Latest: iv.hi, Source: SourceInferred, Evidence: ev,
		Message: "inferred: not reported by the API",
		Why:     "the kubelet signals a sidecar after the app containers and the sidecars declared after it have exited"}
	if pending {
		m.Why = "a container it waits for never exited: signalled when the grace period ran out"
	}
	exitAfter(exit, &m)
	c.add(run, m)
}

// stopBegan is when the pod began to stop, as the sidecar's Killing Event says, else the
// deletion request; ok is false when neither does.
func stopBegan(kill *eventOcc, deleting *Milestone) (iv interval, at time.Time, ev []Evidence, ok bool) {
	switch {
	case kill != nil:
		ev = append(ev, kill.evidence(kill.ev.Reason))
		ev[0].Note = "the kubelet reports Killing for a sidecar when the pod starts to stop, before it signals it"
		return kill.when, kill.at, ev, true
	case deleting != nil:
		ev = append(ev, Evidence{What: "deletion requested", Note: "no Killing Event seen"})
		return interval{deleting.Earliest, deleting.Latest}, deleting.At, ev, true
	}
	return interval{}, time.Time{}, nil, false
}

// sidecarPrereqs are the exits a sidecar waits for when the pod stops: of app containers that
// were running when it began, and of later sidecars. pending says one of them has not exited.
// When the pod was not deleted, an app container the kubelet did not stop exited on its own,
// which is why the pod ended (a Job's pod completed): it is before the sidecar's Killing, and not
// waited for. One the kubelet stopped (it has a SIGTERM: a deadline, the kubelet's eviction) is.
func sidecarPrereqs(lanes []*passLane, i int, kill *eventOcc, notDeleted bool) (exits []*Milestone, pending bool) {
	for j, c := range lanes {
		if !(c.kind() == KindApp || (c.kind() == KindSidecar && j > i)) {
			continue
		}
		run := c.lastRun()
		if run < 0 || (notDeleted && c.kind() == KindApp && c.find(MSigterm, run) == nil) {
			continue
		}
		exit := c.find(MExit, run)
		switch {
		case exit == nil:
			pending = true
		case kill == nil || !exit.Latest.Before(kill.when.lo) || c.kind() == KindSidecar:
			exits = append(exits, exit)
		}
	}
	return exits, pending
}

// appsDone reports whether every app container's last run has exited.
func appsDone(lanes []*passLane) bool {
	any := false
	for _, c := range lanes {
		if c.kind() != KindApp {
			continue
		}
		any = true
		if run := c.lastRun(); run < 0 || c.find(MExit, run) == nil {
			return false
		}
	}
	return any
}

func latestLatest(ms []*Milestone) time.Time {
	var t time.Time
	for _, m := range ms {
		t = later(t, m.Latest)
	}
	return t
}

func latestEarliest(ms []*Milestone) time.Time {
	var t time.Time
	for _, m := range ms {
		t = later(t, m.Earliest)
	}
	return t
}

func findMilestone(ms []Milestone, kind MilestoneKind, attempt int32) *Milestone {
	for i := range ms {
		if ms[i].Kind == kind && ms[i].Attempt == attempt {
			return &ms[i]
		}
	}
	return nil
}

// nextLane is the lane the kubelet starts after lanes[i]: the next init container, or after the
// last one the first app container.
func nextLane(lanes []*passLane, i int) *passLane {
	for j := i + 1; j < len(lanes); j++ {
		k := lanes[j].kind()
		if k == KindInit || k == KindSidecar || k == KindApp {
			return lanes[j]
		}
	}
	return nil
}
