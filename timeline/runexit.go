package timeline

import (
	"fmt"
	"sort"
	"time"
)

// impliedExit is the exit of run a that the status never showed (the kubelet restarted it
// between two updates, and lastState was empty): the next run says it ended, before that run's
// Created Event or its start.
func (d *deriver) impliedExit(ls *laneState, a int32, start *Milestone) *Milestone {
	if start == nil {
		return nil
	}
	lc := &ls.cache
	var hi time.Time
	var ev Evidence
	if next := lc.occsOf("Created", ls.occs["Created"], a+1); len(next) > 0 {
		hi = next[0].when.hi
		ev = Evidence{What: "before the next run's Event Created", NameTime: next[0].nameTime, API: next[0].api,
			Precision: next[0].apiPrec, Note: "the kubelet creates a container again only after it exited"}
	} else if i := sort.Search(len(lc.attempts), func(i int) bool { return lc.attempts[i] > a }); i < len(lc.attempts) &&
		!lc.startHi[i].IsZero() {
		hi = lc.startHi[i]
		ev = Evidence{What: fmt.Sprintf("before run #%d started", lc.attempts[i]), Note: "a container restarts only after it exited"}
	} else {
		return nil
	}
	if hi.Before(start.Earliest) {
		return nil // odd data: the next run before this one's start
	}
	iv := interval{start.Earliest, hi}
	return &Milestone{Kind: MExit, Container: start.Container, Attempt: a, At: iv.mid(), Earliest: iv.lo, Latest: iv.hi,
		Source: SourceInferred, Evidence: []Evidence{ev}, Message: "inferred: the status never showed it ended",
		Why: "the kubelet started the container again, so this run had ended"}
}

// afterAll keeps an implied exit after what the status showed of its run (started, ready,
// not ready): the run was alive then. Its estimate is the middle of what is left, and no sooner
// than theirs.
func afterAll(exit *Milestone, ms []Milestone) {
	raised := false
	for i := range ms {
		m := &ms[i]
		if m.Attempt != exit.Attempt || m.Kind == MExit || !m.Earliest.After(exit.Earliest) || m.Earliest.After(exit.Latest) {
			continue
		}
		exit.Earliest, raised = m.Earliest, true
	}
	iv := interval{exit.Earliest, exit.Latest}
	if raised {
		exit.At = iv.mid()
	}
	for i := range ms {
		if m := &ms[i]; m.Attempt == exit.Attempt && m.Kind != MExit {
			exit.At = later(exit.At, m.At)
		}
	}
	exit.At = iv.clamp(exit.At)
}

// aliveBeforeExit has a run's started and ready read before its exit: the status showed them
// while the run lived, the observed ones at the update that showed them, which can reach a
// watcher after the run's exit second began. The exit's estimate moves up to the latest of them,
// within its interval; one still after it moves down to it, within its own.
func aliveBeforeExit(ms []Milestone, a int32) {
	exit := findMilestone(ms, MExit, a)
	if exit == nil {
		return
	}
	alive := func(m *Milestone) bool {
		return m.Attempt == a && (m.Kind == MStarted || m.Kind == MReady) && m.At.After(exit.At)
	}
	for i := range ms {
		if m := &ms[i]; alive(m) {
			exit.At = interval{exit.Earliest, exit.Latest}.clamp(m.At)
		}
	}
	for i := range ms {
		if m := &ms[i]; alive(m) {
			m.At = interval{m.Earliest, m.Latest}.clamp(exit.At)
		}
	}
}
