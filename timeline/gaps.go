package timeline

import (
	"fmt"
	"time"
)

// namedGaps are the lifecycle gaps a sidecar user asks about, each between two milestones the
// kubelet orders: init exit → sidecar start, sidecar start → started, started → next start,
// app SIGTERM → app exit, app exit → sidecar SIGTERM, sidecar SIGTERM → exit, and pod deletion →
// last exit. They read the first and the last runs only.
// A gap whose ends are no sane times of the pod (saneGap) goes to unknown instead, with why.
// tx keeps the texts put together for gaps before.
func namedGaps(p *Pod, del *Milestone, specOf func(string) ContainerObservation, grace time.Duration, lf life,
	into []Gap, unknown []UnknownGap, tx *gapTexts) ([]Gap, []UnknownGap) {
	gaps := into[:0]
	unknown = unknown[:0]
	// A gap's ends are named by who and what ("sidecar", "started"); the name is put together
	// only for a gap there is, once (a pod is derived at every frame that changes it).
	addIf := func(from, to *Milestone, fromWho, fromWhat, toWho, toWhat string, ordered bool) {
		if from == nil || to == nil {
			return
		}
		name := tx.name(gapEnds{fromWho, fromWhat, toWho, toWhat})
		span := spanBetween(from, to, ordered)
		if why := saneGap(lf, from, to, span); why != "" {
			unknown = append(unknown, UnknownGap{Name: name, From: ref(from), To: ref(to), Why: why})
			return
		}
		gaps = append(gaps, Gap{Name: name, From: ref(from), To: ref(to), Span: span,
			Why: gapWhy(from, to, specOf, grace, tx)})
	}
	add := func(from, to *Milestone, fromWho, fromWhat, toWho, toWhat string) {
		addIf(from, to, fromWho, fromWhat, toWho, toWhat, true)
	}
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Kind != KindSidecar {
			continue
		}
		start := c.Find(MStart, 0)
		started := c.Find(MStarted, 0)
		if i > 0 {
			prev := &p.Containers[i-1]
			switch prev.Kind {
			case KindInit:
				add(prev.Find(MExit, prev.lastRun()), start, prev.Name, "exit", c.Name, "start")
			case KindSidecar:
				add(prev.Find(MStarted, 0), start, prev.Name, "started", c.Name, "start")
			}
		}
		add(start, started, c.Name, "start", c.Name, "started")
		if next := nextContainer(p, i); next != nil && next.Kind != KindSidecar {
			add(started, next.Find(MStart, 0), c.Name, "started", next.Name, "start")
		}
	}
	var lastAppExit *Milestone
	for i := range p.Containers {
		a := &p.Containers[i]
		if a.Kind != KindApp {
			continue
		}
		run := a.lastRun()
		exit := a.Find(MExit, run)
		add(a.Find(MPreStop, run), a.Find(MSigterm, run), a.Name, "preStop", a.Name, "SIGTERM")
		add(a.Find(MSigterm, run), exit, a.Name, "SIGTERM", a.Name, "exit")
		if exit != nil && (lastAppExit == nil || exit.At.After(lastAppExit.At)) {
			lastAppExit = exit
		}
	}
	// Sidecars stop in reverse order: the last one after the apps, each earlier one after the next.
	prevExit, prevWho := lastAppExit, ""
	if lastAppExit != nil {
		prevWho = lastAppExit.Container
	}
	for i := len(p.Containers) - 1; i >= 0; i-- {
		c := &p.Containers[i]
		if c.Kind != KindSidecar {
			continue
		}
		run := c.lastRun()
		sig := c.Find(MSigterm, run)
		exit := c.Find(MExit, run)
		if sig == nil {
			continue
		}
		// A sidecar waits for its turn only until the grace period runs out: when its bounds
		// allow that (the SIGTERM may come first), or the exit before it may have come at the
		// deadline (the kubelet then signals the sidecars as it kills the rest), the gap is not
		// cut at zero.
		atDeadline := prevExit != nil && del != nil && grace > 0 && !prevExit.Latest.Before(del.Earliest.Add(grace))
		addIf(prevExit, sig, prevWho, "exit", c.Name, "SIGTERM", prevExit == nil || (!sig.Earliest.Before(prevExit.Earliest) && !atDeadline))
		add(c.Find(MPreStop, run), sig, c.Name, "preStop", c.Name, "SIGTERM")
		add(sig, exit, c.Name, "SIGTERM", c.Name, "exit")
		if exit != nil {
			prevExit, prevWho = exit, c.Name
		}
	}
	if del != nil {
		if last := lastExitAfter(p, del.Earliest); last != nil {
			add(del, last, "pod", "deletion", "last", "exit ("+last.Container+")")
		}
	}
	return gaps, unknown
}

// lastExitAfter is the latest exit (by estimate) of any lane that may be at or after t. Runs are
// in time order, so only the runs after the last one that certainly ended before t are read.
func lastExitAfter(p *Pod, t time.Time) *Milestone {
	var last *Milestone
	for ci := range p.Containers {
		runs := p.Containers[ci].Runs
		from := runs.Len()
		for from > 0 {
			if exit := runs.At(from - 1).find(MExit); exit != nil && exit.Latest.Before(t) {
				break
			}
			from--
		}
		for i := from; i < runs.Len(); i++ {
			r := runs.At(i)
			for i := range r.Milestones {
				m := &r.Milestones[i]
				if m.Kind == MExit && !m.Latest.Before(t) && (last == nil || m.At.After(last.At)) {
					last = m
				}
			}
		}
	}
	return last
}

func ref(m *Milestone) MilestoneRef {
	return MilestoneRef{Container: m.Container, Kind: m.Kind, Attempt: m.Attempt}
}

// lastRun is the highest attempt with a start, restart or exit milestone, or -1.
func (c *Container) lastRun() int32 {
	for i := c.Runs.Len() - 1; i >= 0; i-- {
		for _, m := range c.Runs.At(i).Milestones {
			if m.Kind == MStart || m.Kind == MRestart || m.Kind == MExit {
				return c.Runs.At(i).Attempt
			}
		}
	}
	return -1
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

// gapTexts are the names and reasons of gaps a deriver has put together. A pod's gaps are named
// again whenever it is derived, and the names are those of a few containers, the same for every
// pod of a workload: putting them together each time was a third of the allocations of naming
// the gaps of a 1,000-pod Job's live path, and fmt.Sprintf a reason a tenth of its time.
type gapTexts struct {
	names  map[gapEnds]string
	graced map[gracedText]string
}

// gapEnds are a gap's ends by who and what: ("sidecar", "started") → ("main", "start").
type gapEnds struct{ fromWho, fromWhat, toWho, toWhat string }

// gracedText is a reason that names the grace period: its format and the period.
type gracedText struct {
	format string
	grace  time.Duration
}

// name is the gap's name: "sidecar started → main start".
func (tx *gapTexts) name(e gapEnds) string {
	if s, ok := tx.names[e]; ok {
		return s
	}
	s := e.fromWho + " " + e.fromWhat + " → " + e.toWho + " " + e.toWhat
	if tx.names == nil || len(tx.names) >= maxGapTexts {
		tx.names = map[gapEnds]string{} // a namespace of ever new names keeps a few, not all
	}
	tx.names[e] = s
	return s
}

// withGrace is fmt.Sprintf(format, grace).
func (tx *gapTexts) withGrace(format string, grace time.Duration) string {
	k := gracedText{format, grace}
	if s, ok := tx.graced[k]; ok {
		return s
	}
	s := fmt.Sprintf(format, grace)
	if tx.graced == nil || len(tx.graced) >= maxGapTexts {
		tx.graced = map[gracedText]string{}
	}
	tx.graced[k] = s
	return s
}

// maxGapTexts is how many texts of a kind gapTexts keeps before it starts again.
const maxGapTexts = 1024
