package timeline

// Brief mode: a scope of thousands of pods shows a row for each, and the whole timeline of one
// or a few. A Builder in brief mode derives a changed pod whole, as always, and then keeps of it
// only its brief (what a row, the gaps and the findings read: Pod.Brief) unless keep says the
// pod is wanted whole; the derivation's caches go with it, and the pod is derived from its facts
// afresh at its next change, or when Refresh asks. The facts are kept in either case.

// Brief turns brief mode on: after each derivation, a pod for which keep is false is kept as its
// brief. keep is called on the Builder's goroutine, with the pod just derived whole.
func (b *Builder) Brief(keep func(*Pod) bool) { b.keep = keep }

// Refresh has the pods of these UIDs derived again at the next snapshot (and keep asked again):
// the pod a user opens, once its brief is all there is.
func (b *Builder) Refresh(uids ...string) {
	for _, uid := range uids {
		if ps := b.pods[uid]; ps != nil && !b.final {
			ps.touch()
			b.changed = true
		}
	}
}

// briefOrKeep makes a pod just derived its brief, unless keep wants it whole.
func (b *Builder) briefOrKeep(ps *podState) {
	if b.keep == nil || ps.out == nil || ps.out.Brief || b.keep(ps.out) {
		return
	}
	ps.out = ps.out.brief()
	ps.forgetDerived()
}

// forgetDerived lets go of what was derived from the pod's facts, so that its next derivation
// starts afresh, as a new pod's does (the derive-once path).
func (ps *podState) forgetDerived() {
	ps.rows = podRowCache{}
	ps.rowDirty = true
	ps.passGrace, ps.gapGrace, ps.passRow = 0, 0, rowBounds{}
	for _, ls := range ps.laneOrder {
		ls.cache = laneCache{}
		ls.final = nil
		ls.dirtyFrom, ls.recheck = 0, noDirty
	}
}

// brief is the pod as a table row reads it: its own fields, its gaps, its findings, and of each
// lane its name, kind, restarts, state and its last run's exit (without evidence) and last state
// change: no pod row, no Events, no other milestone.
func (p *Pod) brief() *Pod {
	findings := p.Findings()
	out := &Pod{
		Namespace: p.Namespace, Name: p.Name, UID: p.UID, Node: p.Node, Owner: p.Owner,
		Created: p.Created, Phase: p.Phase, Status: p.Status, Deleted: p.Deleted, LastSeen: p.LastSeen,
		Statuses: p.Statuses, Gaps: p.Gaps, UnknownGaps: p.UnknownGaps,
		Requests: p.Requests, Limits: p.Limits, Brief: true,
		Containers: make([]Container, len(p.Containers)),
	}
	for i := range p.Containers {
		c := p.Containers[i]
		c.Runs = briefRuns(c.Runs)
		out.Containers[i] = c
	}
	out.memo = &podMemo{findings: findings}
	out.memo.findingsOnce.Do(func() {})
	return out
}

// briefRuns is the last run of runs with only its exit, if it has one, and its last state change
// (the state the lane is in).
func briefRuns(runs Seq[*Run]) Seq[*Run] {
	n := runs.Len()
	if n == 0 {
		return Seq[*Run]{}
	}
	last := runs.At(n - 1)
	r := &Run{Attempt: last.Attempt}
	if n := len(last.Changes); n > 0 {
		r.Changes = []StateChange{last.Changes[n-1]}
	}
	if m := last.find(MExit); m != nil {
		exit := *m
		exit.Evidence, exit.Why, exit.Message = nil, "", ""
		r.Milestones = []Milestone{exit}
	}
	return SeqOf(r)
}
