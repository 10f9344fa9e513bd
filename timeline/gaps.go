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
	g := gapMaker{specOf: specOf, grace: grace, lf: lf, gaps: into[:0], unknown: unknown[:0], tx: tx}
	g.startGaps(p)
	lastAppExit := g.appStopGaps(p)
	g.sidecarStopGaps(p, del, lastAppExit)
	if del != nil {
		if last := lastExitAfter(p, del.Earliest); last != nil {
			g.add(del, last, "pod", "deletion", "last", "exit ("+last.Container+")")
		}
	}
	return g.gaps, g.unknown
}

// gapMaker collects a pod's named gaps, and those whose ends are no sane times of it (unknown).
type gapMaker struct {
	specOf  func(string) ContainerObservation
	grace   time.Duration
	lf      life
	gaps    []Gap
	unknown []UnknownGap
	tx      *gapTexts
}

// addIf adds the gap from → to if both ends are there; ordered says to cuts its span at zero. A
// gap's ends are named by who and what ("sidecar", "started"); the name is put together only for
// a gap there is, once (a pod is derived at every frame that changes it).
func (g *gapMaker) addIf(from, to *Milestone, fromWho, fromWhat, toWho, toWhat string, ordered bool) {
	if from == nil || to == nil {
		return
	}
	name := g.tx.name(gapEnds{fromWho, fromWhat, toWho, toWhat})
	span := spanBetween(from, to, ordered)
	if why := saneGap(g.lf, from, to, span); why != "" {
		g.unknown = append(g.unknown, UnknownGap{Name: name, From: ref(from), To: ref(to), Why: why})
		return
	}
	g.gaps = append(g.gaps, Gap{Name: name, From: ref(from), To: ref(to), Span: span,
		Why: gapWhy(from, to, g.specOf, g.grace, g.tx)})
}

// add adds the gap from → to, in the kubelet's order, if both ends are there.
func (g *gapMaker) add(from, to *Milestone, fromWho, fromWhat, toWho, toWhat string) {
	g.addIf(from, to, fromWho, fromWhat, toWho, toWhat, true)
}

// startGaps are each sidecar's first run's: after the init container or the sidecar before it,
// its start to started, and its started to the next container's start.
func (g *gapMaker) startGaps(p *Pod) {
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
				g.add(prev.Find(MExit, prev.lastRun()), start, prev.Name, "exit", c.Name, "start")
			case KindSidecar:
				g.add(prev.Find(MStarted, 0), start, prev.Name, "started", c.Name, "start")
			}
		}
		g.add(start, started, c.Name, "start", c.Name, "started")
		if next := nextContainer(p, i); next != nil && next.Kind != KindSidecar {
			g.add(started, next.Find(MStart, 0), c.Name, "started", next.Name, "start")
		}
	}
}

// appStopGaps are the app containers' last runs' preStop → SIGTERM → exit; it returns the
// latest of their exits, which the last sidecar's SIGTERM follows.
func (g *gapMaker) appStopGaps(p *Pod) (lastAppExit *Milestone) {
	for i := range p.Containers {
		a := &p.Containers[i]
		if a.Kind != KindApp {
			continue
		}
		run := a.lastRun()
		exit := a.Find(MExit, run)
		g.add(a.Find(MPreStop, run), a.Find(MSigterm, run), a.Name, "preStop", a.Name, "SIGTERM")
		g.add(a.Find(MSigterm, run), exit, a.Name, "SIGTERM", a.Name, "exit")
		if exit != nil && (lastAppExit == nil || exit.At.After(lastAppExit.At)) {
			lastAppExit = exit
		}
	}
	return lastAppExit
}

// sidecarStopGaps are the sidecars' last runs' stops, in reverse order: the last one after the
// apps (lastAppExit), each earlier one after the next; then its preStop → SIGTERM → exit.
func (g *gapMaker) sidecarStopGaps(p *Pod, del, lastAppExit *Milestone) {
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
		g.addIf(prevExit, sig, prevWho, "exit", c.Name, "SIGTERM", prevExit == nil || (!sig.Earliest.Before(prevExit.Earliest) && !g.atDeadline(prevExit, del)))
		g.add(c.Find(MPreStop, run), sig, c.Name, "preStop", c.Name, "SIGTERM")
		g.add(sig, exit, c.Name, "SIGTERM", c.Name, "exit")
		if exit != nil {
			prevExit, prevWho = exit, c.Name
		}
	}
}

// atDeadline reports whether the exit before a sidecar's SIGTERM may have come when the grace
// period of the deletion del ran out. A sidecar waits for its turn only until then: when its
// bounds allow that (the SIGTERM may come first), or the exit before it may have come at the
// deadline (the kubelet then signals the sidecars as it kills the rest), the gap is not cut at
// zero.
func (g *gapMaker) atDeadline(prevExit, del *Milestone) bool {
	return prevExit != nil && del != nil && g.grace > 0 && !prevExit.Latest.Before(del.Earliest.Add(g.grace))
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
