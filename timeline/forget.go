package timeline

import "slices"

// Forget lets go of the pods with these UIDs: their facts, their timelines and the Events
// filed under them. A long-running watch (sidecar-top agent) calls it for pods it is done
// with; the next Snapshot is the one a Builder that never saw them would give, but for the
// Events about them that come later, which wait for their pod as any Event whose pod has not
// been seen (the caller drops those). It costs a pass over the pods and the Events, whatever
// the number forgotten: forget many at once.
func (b *Builder) Forget(uids ...string) {
	if b.final || len(uids) == 0 {
		return
	}
	gone := map[*podState]bool{}
	for _, uid := range uids {
		if ps := b.pods[uid]; ps != nil {
			gone[ps] = true
			delete(b.pods, uid)
		}
	}
	if len(gone) == 0 {
		return
	}
	for n, list := range b.byName {
		if kept := withoutGone(list, gone); len(kept) == 0 {
			delete(b.byName, n)
		} else {
			b.byName[n] = kept
		}
	}
	first := slices.IndexFunc(b.podList, func(ps *podState) bool { return gone[ps] })
	b.podList = withoutGone(b.podList, gone)
	// The snapshots' list is made again from the first pod forgotten on (podTimelines).
	b.listFrom = min(b.listFrom, first)
	b.podSeq.truncate(b.listFrom)
	b.touched = withoutGone(b.touched, gone)
	for key, es := range b.events {
		if es.owner.pod != nil && gone[es.owner.pod] {
			delete(b.events, key)
		}
	}
	b.changed = true
}

// withoutGone is list without the pods gone, in place, the rest of it cleared.
func withoutGone(list []*podState, gone map[*podState]bool) []*podState {
	kept := list[:0]
	for _, ps := range list {
		if !gone[ps] {
			kept = append(kept, ps)
		}
	}
	clear(list[len(kept):])
	return kept
}
