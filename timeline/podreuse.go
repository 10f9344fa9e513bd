package timeline

// lanesAsBefore reports whether the final pass would find the pod's lanes as it did for prev, the
// pod's last derivation, and the gaps would come out as they did: no lane's runs to derive again,
// no lane added, the same milestones of the pod row where the pass and the gaps read it
// (rowBounds), and the same grace period (the only other fact of the pod the pass reads; its
// deletion touches every lane).
func (d *deriver) lanesAsBefore(ps *podState, prev *Pod, row Seq[Milestone]) bool {
	if len(prev.Containers) != len(ps.laneOrder) || seconds(ps.last.GracePeriod) != ps.passGrace {
		return false
	}
	for _, ls := range ps.laneOrder {
		if ls.dirtyFrom != noDirty {
			return false
		}
	}
	return row.Same(prev.Milestones) || rowBoundsOf(row, ps.rows.deleting).same(ps.passRow)
}

// rowBounds are the milestones of a pod row that the final pass and the gaps read: its first
// Initialized and its first and last Ready, which bound the lanes' runs, and the deletion
// request, which bounds how they stopped and begins a gap. A row that changed elsewhere (a
// terminal phase, say) leaves the lanes as they were.
type rowBounds struct{ init, firstReady, lastReady, deleting *Milestone }

func rowBoundsOf(row Seq[Milestone], deleting *Milestone) rowBounds {
	rb := rowBounds{deleting: deleting}
	for _, m := range row.All() { // as boundStartedByInitialized finds it
		if m.Kind == MInitialized {
			rb.init = m
			break
		}
	}
	for _, m := range row.All() { // as boundReadyByPod finds them
		if m.Kind == MReady {
			rb.firstReady = m
			break
		}
	}
	for _, m := range row.Backward() {
		if m.Kind == MReady {
			rb.lastReady = m
			break
		}
	}
	return rb
}

// same reports whether two rows' bounds are the same milestones, in every field.
func (rb rowBounds) same(o rowBounds) bool {
	eq := func(a, b *Milestone) bool { return a == b || a != nil && b != nil && sameMilestone(a, b) }
	return eq(rb.init, o.init) && eq(rb.firstReady, o.firstReady) && eq(rb.lastReady, o.lastReady) &&
		eq(rb.deleting, o.deleting)
}
