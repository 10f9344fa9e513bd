package timeline

// namedGaps are the lifecycle gaps a sidecar user asks about, each between two milestones the
// kubelet orders: init exit → sidecar start, sidecar start → started, started → next start,
// app SIGTERM → app exit, app exit → sidecar SIGTERM, sidecar SIGTERM → exit, and pod deletion →
// last exit.
func namedGaps(p *Pod) []Gap {
	var gaps []Gap
	add := func(from, to *Milestone, fromName, toName string) {
		if from == nil || to == nil {
			return
		}
		gaps = append(gaps, Gap{
			Name: fromName + " → " + toName,
			From: ref(from), To: ref(to),
			Span: spanBetween(from, to, true),
		})
	}
	var apps []*Container
	for i := range p.Containers {
		if p.Containers[i].Kind == KindApp {
			apps = append(apps, &p.Containers[i])
		}
	}
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Kind != KindSidecar {
			continue
		}
		start := findMilestone(c.Milestones, MStart, 0)
		started := findMilestone(c.Milestones, MStarted, 0)
		if i > 0 {
			prev := &p.Containers[i-1]
			switch prev.Kind {
			case KindInit:
				add(findMilestone(prev.Milestones, MExit, lastRun(prev.Milestones)), start, prev.Name+" exit", c.Name+" start")
			case KindSidecar:
				add(findMilestone(prev.Milestones, MStarted, 0), start, prev.Name+" started", c.Name+" start")
			}
		}
		add(start, started, c.Name+" start", c.Name+" started")
		if next := nextContainer(p, i); next != nil && next.Kind != KindSidecar {
			add(started, findMilestone(next.Milestones, MStart, 0), c.Name+" started", next.Name+" start")
		}
	}
	var lastAppExit *Milestone
	for _, a := range apps {
		run := lastRun(a.Milestones)
		exit := findMilestone(a.Milestones, MExit, run)
		add(findMilestone(a.Milestones, MSigterm, run), exit, a.Name+" SIGTERM", a.Name+" exit")
		if exit != nil && (lastAppExit == nil || exit.At.After(lastAppExit.At)) {
			lastAppExit = exit
		}
	}
	// Sidecars stop in reverse order: the last one after the apps, each earlier one after the next.
	prevExit, prevName := lastAppExit, ""
	if lastAppExit != nil {
		prevName = lastAppExit.Container + " exit"
	}
	for i := len(p.Containers) - 1; i >= 0; i-- {
		c := &p.Containers[i]
		if c.Kind != KindSidecar {
			continue
		}
		run := lastRun(c.Milestones)
		sig := findMilestone(c.Milestones, MSigterm, run)
		exit := findMilestone(c.Milestones, MExit, run)
		if sig == nil {
			continue
		}
		add(prevExit, sig, prevName, c.Name+" SIGTERM")
		add(sig, exit, c.Name+" SIGTERM", c.Name+" exit")
		if exit != nil {
			prevExit, prevName = exit, c.Name+" exit"
		}
	}
	if del := findMilestone(p.Milestones, MDeleting, 0); del != nil {
		var last *Milestone
		for i := range p.Containers {
			for j := range p.Containers[i].Milestones {
				m := &p.Containers[i].Milestones[j]
				if m.Kind == MExit && !m.Latest.Before(del.Earliest) && (last == nil || m.At.After(last.At)) {
					last = m
				}
			}
		}
		if last != nil {
			add(del, last, "pod deletion", "last exit ("+last.Container+")")
		}
	}
	return gaps
}

func ref(m *Milestone) MilestoneRef {
	return MilestoneRef{Container: m.Container, Kind: m.Kind, Attempt: m.Attempt}
}
