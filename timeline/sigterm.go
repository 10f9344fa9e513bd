package timeline

import "time"

// crossLane adds what one lane's milestones owe to others: the bound a next container's first
// Event puts on a sidecar's started, and the SIGTERM of sidecars, which nobody reports.
func (d *deriver) crossLane(ps *podState, lanes []*passLane, podMs Seq[Milestone]) {
	d.boundStartedByNext(lanes)
	for i := len(lanes) - 1; i >= 0; i-- {
		if lanes[i].kind() == KindSidecar {
			d.inferSidecarSigterm(ps, lanes, i, podMs)
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
		if next == nil || l.find(MStarted, 0) == nil {
			continue
		}
		m := l.find(MStarted, 0)
		first := firstEventOf(next.ls)
		if first == nil || !first.when.hi.Before(m.Latest) {
			continue
		}
		iv, ok := interval{m.Earliest, m.Latest}.tighten(time.Time{}, first.when.hi)
		if !ok {
			continue
		}
		m = findMilestone(l.edit(0), MStarted, 0)
		if m.At.Equal(m.Latest) {
			m.At = iv.hi // an observed change: placed at its latest
		}
		m.Latest, m.At = iv.hi, iv.clamp(m.At)
		m.Evidence = append(m.Evidence, Evidence{What: "before " + next.name() + "'s first Event " + first.ev.Reason,
			NameTime: timePtr(first.nameTime), API: timePtr(first.api), Precision: first.apiPrec, Received: timePtr(first.received),
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

// inferSidecarSigterm places the SIGTERM of the sidecar lanes[i]'s last run. When a pod stops
// (deleted, or all app containers done), the kubelet reports Killing for every container at
// once, but signals a sidecar only after every app container and every later sidecar has exited,
// or when the grace period runs out. Nobody outside the node sees that signal.
func (d *deriver) inferSidecarSigterm(ps *podState, lanes []*passLane, i int, podMs Seq[Milestone]) {
	c := lanes[i]
	run := c.lastRun()
	if run < 0 {
		return
	}
	start := c.find(startKind(run), run)
	exit := c.find(MExit, run)
	var kill *eventOcc
	killing := c.ls.occs["Killing"]
	for j := len(killing) - 1; j >= 0; j-- {
		if start == nil || !killing[j].when.hi.Before(start.Earliest) {
			kill = &killing[j]
			break
		}
	}
	prereqs, pending := sidecarPrereqs(lanes, i, kill)
	stopping := ps.deletion != nil || (len(prereqs) > 0 && !pending) || appsDone(lanes)
	if kill == nil && (!stopping || exit == nil) {
		return
	}
	if stopping && pending && exit == nil {
		return // not signalled yet: it waits for the containers that are still running
	}
	spec := c.ls.spec
	ms := c.edit(run)
	exit = findMilestone(ms, MExit, run)
	if kill != nil && !stopping {
		c.add(run, d.directSigterm(spec, run, *kill, exit))
		return
	}
	var killIv interval
	var killAt time.Time
	var ev []Evidence
	if kill != nil {
		killIv, killAt = kill.when, kill.at
		ev = append(ev, kill.evidence(kill.ev.Reason))
		ev[0].Note = "the kubelet reports Killing for a sidecar when the pod starts to stop, before it signals it"
	} else if del := lastIn(podMs, MDeleting); del != nil {
		killIv, killAt = interval{del.Earliest, del.Latest}, del.At
		ev = append(ev, Evidence{What: "deletion requested", Note: "no Killing Event seen"})
	} else {
		return
	}
	grace := time.Duration(ps.last.GracePeriod) * time.Second
	if ps.deletion != nil {
		grace = time.Duration(ps.deletionGrace) * time.Second
	}
	graceEnd := killIv.lo.Add(max(grace-second, 0))
	iv := interval{lo: killIv.lo}
	at := killAt
	// Stopped because the app containers were done (not deleted): they exited before the Killing.
	alreadyDone := ps.deletion == nil
	for _, pr := range prereqs {
		if ps.deletion != nil && pr.Latest.After(killIv.lo) {
			alreadyDone = false
		}
		at = later(at, pr.At)
		ev = append(ev, Evidence{What: "after " + pr.Container + " exited", API: timePtr(pr.At),
			Note: "sidecars stop after app containers, then in reverse order of definition"})
	}
	switch {
	case pending:
		iv.lo = later(iv.lo, graceEnd)
	case len(prereqs) > 0:
		iv.lo = later(iv.lo, earlier(latestEarliest(prereqs), graceEnd))
	}
	if grace > 0 && at.After(killAt.Add(grace)) {
		at = killAt.Add(grace)
	}
	switch {
	case alreadyDone && !pending && !spec.HasPreStop:
		iv.hi = killIv.hi.Add(signalAllowance)
	case !pending && len(prereqs) > 0 && !spec.HasPreStop:
		// The kubelet signals it as soon as the last of them has stopped.
		iv.hi = latestLatest(prereqs).Add(signalAllowance)
	}
	if grace > 0 {
		iv = d.bound(iv, time.Time{}, killIv.hi.Add(grace+signalAllowance))
	}
	if exit != nil {
		iv = d.bound(iv, time.Time{}, exit.Latest)
	}
	m := Milestone{Kind: MSigterm, Container: c.name(), Attempt: run,
		At: iv.clamp(at), Earliest: iv.lo, Latest: iv.hi, Source: SourceInferred, Evidence: ev,
		Message: "inferred: not reported by the API"}
	exitAfter(exit, &m)
	c.add(run, m)
}

// sidecarPrereqs are the exits a sidecar waits for when the pod stops: of app containers that
// were running when it began, and of later sidecars. pending says one of them has not exited.
func sidecarPrereqs(lanes []*passLane, i int, kill *eventOcc) (exits []*Milestone, pending bool) {
	for j, c := range lanes {
		if !(c.kind() == KindApp || (c.kind() == KindSidecar && j > i)) {
			continue
		}
		run := c.lastRun()
		if run < 0 {
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
