package timeline

import "time"

// crossLane adds what one lane's milestones owe to others: the bound a next container's first
// Event puts on a sidecar's started, and the SIGTERM of sidecars, which nobody reports.
func (d *deriver) crossLane(ps *podState, p *Pod, ce map[string]containerEvents) {
	d.boundStartedByNext(p, ce)
	for i := len(p.Containers) - 1; i >= 0; i-- {
		if p.Containers[i].Kind == KindSidecar {
			d.inferSidecarSigterm(ps, p, i, ce[p.Containers[i].Name])
		}
	}
}

// boundStartedByNext: the kubelet starts the container after a sidecar only once the sidecar has
// started, so the next container's first Event (Pulled, Created, Started) bounds started above.
// The kubelet may report started=true in the status after that Event arrives.
func (d *deriver) boundStartedByNext(p *Pod, ce map[string]containerEvents) {
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Kind != KindSidecar {
			continue
		}
		next := nextContainer(p, i)
		if next == nil {
			continue
		}
		m := findMilestone(c.Milestones, MStarted, 0)
		if m == nil {
			continue
		}
		var first *eventOcc
		for _, reason := range []string{"Pulling", "Pulled", "Created", "Started"} {
			for j, oc := range ce[next.Name][reason] {
				if oc.count == 1 && (first == nil || oc.when.hi.Before(first.when.hi)) {
					first = &ce[next.Name][reason][j]
				}
			}
		}
		if first == nil || !first.when.hi.Before(m.Latest) {
			continue
		}
		iv, ok := interval{m.Earliest, m.Latest}.tighten(time.Time{}, first.when.hi)
		if !ok {
			continue
		}
		if m.At.Equal(m.Latest) {
			m.At = iv.hi // an observed change: placed at its latest
		}
		m.Latest, m.At = iv.hi, iv.clamp(m.At)
		m.Evidence = append(m.Evidence, Evidence{What: "before " + next.Name + "'s first Event " + first.ev.Reason,
			NameTime: timePtr(first.nameTime), API: timePtr(first.api), Precision: first.apiPrec, Received: timePtr(first.received),
			Note: "the kubelet starts the next container only after this one has started"})
	}
}

// inferSidecarSigterm places the SIGTERM of the sidecar p.Containers[i]'s last run. When a pod
// stops (deleted, or all app containers done), the kubelet reports Killing for every container
// at once, but signals a sidecar only after every app container and every later sidecar has
// exited, or when the grace period runs out. Nobody outside the node sees that signal.
func (d *deriver) inferSidecarSigterm(ps *podState, p *Pod, i int, ce containerEvents) {
	c := &p.Containers[i]
	run := lastRun(c.Milestones)
	if run < 0 {
		return
	}
	start := findMilestone(c.Milestones, startKind(run), run)
	exit := findMilestone(c.Milestones, MExit, run)
	var kill *eventOcc
	for j, oc := range ce["Killing"] {
		if start == nil || !oc.when.hi.Before(start.Earliest) {
			kill = &ce["Killing"][j]
		}
	}
	prereqs, pending := sidecarPrereqs(p, i, kill)
	stopping := ps.deletion != nil || (len(prereqs) > 0 && !pending) || appsDone(p)
	if kill == nil && (!stopping || exit == nil) {
		return
	}
	if stopping && pending && exit == nil {
		return // not signalled yet: it waits for the containers that are still running
	}
	spec := ps.lanes[c.Name].spec
	if kill != nil && !stopping {
		c.Milestones = append(c.Milestones, d.directSigterm(spec, run, *kill, exit))
		return
	}
	var killIv interval
	var killAt time.Time
	var ev []Evidence
	if kill != nil {
		killIv, killAt = kill.when, kill.at
		ev = append(ev, kill.evidence(kill.ev))
		ev[0].Note = "the kubelet reports Killing for a sidecar when the pod starts to stop, before it signals it"
	} else if del := findMilestone(p.Milestones, MDeleting, 0); del != nil {
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
	m := Milestone{Kind: MSigterm, Container: c.Name, Attempt: run,
		At: iv.clamp(at), Earliest: iv.lo, Latest: iv.hi, Source: SourceInferred, Evidence: ev,
		Message: "inferred: not reported by the API"}
	exitAfter(exit, &m)
	c.Milestones = append(c.Milestones, m)
}

// sidecarPrereqs are the exits a sidecar waits for when the pod stops: of app containers that
// were running when it began, and of later sidecars. pending says one of them has not exited.
func sidecarPrereqs(p *Pod, i int, kill *eventOcc) (exits []*Milestone, pending bool) {
	for j := range p.Containers {
		c := &p.Containers[j]
		if !(c.Kind == KindApp || (c.Kind == KindSidecar && j > i)) {
			continue
		}
		run := lastRun(c.Milestones)
		if run < 0 {
			continue
		}
		exit := findMilestone(c.Milestones, MExit, run)
		switch {
		case exit == nil:
			pending = true
		case kill == nil || !exit.Latest.Before(kill.when.lo) || c.Kind == KindSidecar:
			exits = append(exits, exit)
		}
	}
	return exits, pending
}

// appsDone reports whether every app container's last run has exited.
func appsDone(p *Pod) bool {
	any := false
	for j := range p.Containers {
		c := &p.Containers[j]
		if c.Kind != KindApp {
			continue
		}
		any = true
		if run := lastRun(c.Milestones); run < 0 || findMilestone(c.Milestones, MExit, run) == nil {
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

// lastRun is the highest attempt with a start (or restart) milestone, or -1.
func lastRun(ms []Milestone) int32 {
	run := int32(-1)
	for _, m := range ms {
		if (m.Kind == MStart || m.Kind == MRestart || m.Kind == MExit) && m.Attempt > run {
			run = m.Attempt
		}
	}
	return run
}

func findMilestone(ms []Milestone, kind MilestoneKind, attempt int32) *Milestone {
	for i := range ms {
		if ms[i].Kind == kind && ms[i].Attempt == attempt {
			return &ms[i]
		}
	}
	return nil
}

// nextContainer is the container the kubelet starts after p.Containers[i]: the next init
// container, or after the last one the first app container.
func nextContainer(p *Pod, i int) *Container {
	for j := i + 1; j < len(p.Containers); j++ {
		k := p.Containers[j].Kind
		if k == KindInit || k == KindSidecar || k == KindApp {
			return &p.Containers[j]
		}
	}
	return nil
}
