package timeline

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
		kept := list[:0]
		for _, ps := range list {
			if !gone[ps] {
				kept = append(kept, ps)
			}
		}
		clear(list[len(kept):])
		if len(kept) == 0 {
			delete(b.byName, n)
		} else {
			b.byName[n] = kept
		}
	}
	first := -1
	kept := b.podList[:0]
	for i, ps := range b.podList {
		if gone[ps] {
			if first < 0 {
				first = i
			}
			continue
		}
		kept = append(kept, ps)
	}
	clear(b.podList[len(kept):])
	b.podList = kept
	// The snapshots' list is made again from the first pod forgotten on (podTimelines).
	b.listFrom = min(b.listFrom, first)
	b.podSeq.truncate(b.listFrom)
	touched := b.touched[:0]
	for _, ps := range b.touched {
		if !gone[ps] {
			touched = append(touched, ps)
		}
	}
	clear(b.touched[len(touched):])
	b.touched = touched
	for key, es := range b.events {
		if es.owner.pod != nil && gone[es.owner.pod] {
			delete(b.events, key)
		}
	}
	b.changed = true
}
