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
	if i := sort.Search(len(l.runs), func(i int) bool { return l.runs[i].Attempt >= a }); i < len(l.runs) && l.runs[i].Attempt == a {
		return l.runs[i]
	}
	return nil
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
	fin := l.ls.fin()
	if l.edits == nil {
		// The map of the lane's last pass: result read it then, and nothing holds it since.
		if fin.passEdits == nil {
			fin.passEdits = map[int32][]Milestone{}
		}
		clear(fin.passEdits)
		l.edits = fin.passEdits
	}
	// Into a copy the last pass made and found the same as the one before it, which nothing holds,
	// else a new one with room for the one milestone the pass may add (a SIGTERM), so that adding
	// it does not copy the list again.
	base := l.milestones(a)
	ms := fin.spare[:0]
	if cap(ms) < len(base)+1 {
		ms = make([]Milestone, 0, len(base)+1)
	}
	ms = append(ms, base...)
	fin.spare = nil
	for i := range ms {
		// Capped, so that adding evidence copies it rather than writing into the base run's.
		ms[i].Evidence = ms[i].Evidence[:len(ms[i].Evidence):len(ms[i].Evidence)]
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
// What the pass made last time is reused when it would come out the same: a run it changed in
// the same way, and the whole list when the base runs and every change are as they were. The
// list is kept in blocks, and only the runs that differ from last time's are written, so a
// snapshot costs the runs that changed (usually the last), not the lane's whole history.
func (l *passLane) result(created time.Time) Seq[*Run] {
	fin := l.ls.fin()
	same := fin.version == l.ls.cache.version && len(fin.edits) == len(l.edits) && l.ls.cache.changed > 0
	made, changed := l.madeRuns(fin, created)
	old := fin.edits
	fin.edits, fin.version = made, l.ls.cache.version
	defer func() {
		if old != nil {
			clear(old)
			fin.spareEdits = old
		}
	}()
	if same && !changed {
		return fin.runs.view()
	}
	return l.written(fin, old, made)
}

// madeRuns are the runs the pass changed, by attempt, each placed from the pod's creation: last
// time's where it came out the same, else a new one (changed says there was one).
func (l *passLane) madeRuns(fin *laneFinal, created time.Time) (made map[int32]finalRun, changed bool) {
	if len(l.edits) > 0 {
		// The map of the pass before last, which nothing reads now.
		made, fin.spareEdits = fin.spareEdits, nil
		if made == nil {
			made = make(map[int32]finalRun, len(l.edits))
		}
	}
	for a, ms := range l.edits {
		base := l.run(a)
		// In order first: a milestone the pass added (a SIGTERM) sits at the copy's end until it
		// is. Last time's run, placed from the same creation, is the same if its milestones are
		// but for their offsets, which follow from them (the copy's may not be set yet).
		sortMilestones(ms)
		if f, ok := fin.edits[a]; ok && f.base == base && f.created.Equal(created) && sameButOffsets(f.ms, ms) {
			made[a] = f
			if cap(ms) > cap(fin.spare) {
				fin.spare = ms[:0] // the copy is not needed: the next pass may edit into it
			}
			continue
		}
		placeMilestones(ms, created)
		out := newRun(a, ms, l.ls.waitsOf(a))
		if base != nil {
			out.Log = base.Log
		}
		made[a] = finalRun{base: base, created: created, ms: ms, out: out}
		changed = true
	}
	return made, changed
}

// written writes the lane's runs, with those made now (made) in place of their base runs, into
// the list handed out, and is it. The runs from the first base run derived again on, and the runs
// changed now or last time (old: the first run of a lane, say, which the next lane's start
// bounds), may differ from what was handed out: only they are compared and written.
func (l *passLane) written(fin *laneFinal, old, made map[int32]finalRun) Seq[*Run] {
	lc := &l.ls.cache
	from := lc.changed - 1
	lc.changed = len(l.runs) + 1
	at, inserted := l.changedBefore(from, old, made)
	if from < 0 || inserted {
		return l.writtenWhole(fin, made)
	}
	for _, i := range at {
		r := l.runs[i]
		if f, ok := made[r.Attempt]; ok {
			r = f.out
		}
		if *fin.runs.at(i) != r {
			fin.runs.set(i, r)
		}
	}
	out := fin.scratch[:0]
	for _, r := range l.runs[from:] {
		if f, ok := made[r.Attempt]; ok {
			r = f.out
		}
		out = append(out, r)
	}
	assignSeq(&fin.runs, out, from)
	fin.scratch = out[:0]
	return fin.runs.view()
}

// changedBefore are the indexes in the base runs, before from, of the runs changed now or last
// time; inserted says one of them has no base run.
func (l *passLane) changedBefore(from int, old, made map[int32]finalRun) (at []int, inserted bool) {
	for _, edits := range [...]map[int32]finalRun{old, made} {
		for a := range edits {
			i := sort.Search(len(l.runs), func(i int) bool { return l.runs[i].Attempt >= a })
			inserted = inserted || i == len(l.runs) || l.runs[i].Attempt != a
			if i < from {
				at = append(at, i)
			}
		}
	}
	return at, inserted
}

// writtenWhole puts the list together whole: the first list, or one with a run the pass made
// that has no base run (rare).
func (l *passLane) writtenWhole(fin *laneFinal, made map[int32]finalRun) Seq[*Run] {
	out := append(fin.scratch[:0], l.runs...)
	for a, f := range made {
		if i := sort.Search(len(out), func(i int) bool { return out[i].Attempt >= a }); i < len(out) && out[i].Attempt == a {
			out[i] = f.out
			continue
		}
		out = insertRun(out, f.out)
	}
	assignSeq(&fin.runs, out, 0)
	fin.scratch = out[:0]
	return fin.runs.view()
}

// laneFinal is what the final pass made of a lane last time.
type laneFinal struct {
	version int                // of the base runs it was made from
	edits   map[int32]finalRun // the runs it changed, by attempt
	runs    seqBuilder[*Run]   // the lane's runs it handed out
	scratch []*Run             // where the runs that may have changed are put together
	// What the pass may reuse: a copy of a run's milestones it made and then found the same as
	// last time's (so nothing holds it), and the map of edits of the pass before last.
	spare      []Milestone
	spareEdits map[int32]finalRun
	passEdits  map[int32][]Milestone // the pass's copies (passLane.edits), used again by the next
}

// finalRun is a run the final pass changed: from which base run, into what.
type finalRun struct {
	base    *Run
	created time.Time // the pod's creation, which its milestones' offsets count from
	ms      []Milestone
	out     *Run
}

// sameButOffsets reports whether two lists hold the same milestones but for their offsets.
func sameButOffsets(a, b []Milestone) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameButOffset(&a[i], &b[i]) {
			return false
		}
	}
	return true
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
