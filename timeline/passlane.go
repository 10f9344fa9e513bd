package timeline

import (
	"sort"
	"time"
)

// passLane is a container's lane during the final, cross-lane pass: its base runs, read only,
// and copies of the runs the pass changes. Everything the pass reads goes through it, so that
// it sees its own changes and never writes into a run that a snapshot holds.
type passLane struct {
	ls    *laneState
	runs  []*Run                // the base runs, by attempt
	edits map[int32][]Milestone // copies the pass changes, by attempt
}

func (l *passLane) name() string        { return l.ls.spec.Name }
func (l *passLane) kind() ContainerKind { return l.ls.spec.Kind }

// milestones are attempt a's milestones as the pass sees them.
func (l *passLane) milestones(a int32) []Milestone {
	if ms, ok := l.edits[a]; ok {
		return ms
	}
	if r := l.run(a); r != nil {
		return r.Milestones
	}
	return nil
}

func (l *passLane) run(a int32) *Run {
	c := Container{Runs: l.runs}
	return c.Run(a)
}

// find is attempt a's first milestone of that kind, to read.
func (l *passLane) find(kind MilestoneKind, a int32) *Milestone {
	return findMilestone(l.milestones(a), kind, a)
}

// edit returns attempt a's milestones as a copy the pass may change.
func (l *passLane) edit(a int32) []Milestone {
	if ms, ok := l.edits[a]; ok {
		return ms
	}
	if l.edits == nil {
		l.edits = map[int32][]Milestone{}
	}
	ms := append([]Milestone(nil), l.milestones(a)...)
	for i := range ms {
		ms[i].Evidence = append([]Evidence(nil), ms[i].Evidence...)
	}
	l.edits[a] = ms
	return ms
}

// add appends m to attempt a's copy.
func (l *passLane) add(a int32, m Milestone) { l.edits[a] = append(l.edit(a), m) }

// lastRun is the highest attempt with a start, restart or exit, or -1.
func (l *passLane) lastRun() int32 {
	for i := len(l.runs) - 1; i >= 0; i-- {
		a := l.runs[i].Attempt
		for _, m := range l.milestones(a) {
			if m.Kind == MStart || m.Kind == MRestart || m.Kind == MExit {
				return a
			}
		}
	}
	return -1
}

// result is the lane's runs after the pass: the base runs, and new ones for those it changed.
func (l *passLane) result(created time.Time) []*Run {
	out := make([]*Run, len(l.runs), len(l.runs)+len(l.edits))
	copy(out, l.runs)
	for a, ms := range l.edits {
		r := newRun(a, ms, l.ls.waitsOf(a), created)
		if i := sort.Search(len(out), func(i int) bool { return out[i].Attempt >= a }); i < len(out) && out[i].Attempt == a {
			out[i] = r
			continue
		}
		out = insertRun(out, r)
	}
	return out
}

func insertRun(runs []*Run, r *Run) []*Run {
	i := len(runs)
	for i > 0 && runs[i-1].Attempt > r.Attempt {
		i--
	}
	runs = append(runs, nil)
	copy(runs[i+1:], runs[i:])
	runs[i] = r
	return runs
}
