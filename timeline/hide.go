package timeline

// Hidden pods: a scope's table that shows only pods with a sidecar (-A's --sidecars-only) has
// no row, lane or finding to show of the others, and on a cluster they are most of its pods. A
// Builder told to Hide them keeps such a pod as its key only, to count it, from its first
// observation to its deletion: no facts, no timeline, none of its Events. A pod's containers
// are fixed at its creation (an ephemeral container is neither an app nor a sidecar), so what
// its first observation shows holds for its life.

// Hide has the Builder keep a pod for which hide is true at its first observation as a count
// only (Snapshot.Hidden) until its deletion, and drop its Events. It must be called before the
// first Apply.
func (b *Builder) Hide(hide func(*PodObservation) bool) {
	b.hide = hide
	b.hidden = map[string]bool{}
}

// hidePod reports whether the pod of key, observed as p, is hidden, and keeps the count of
// hidden pods: a pod hide picks at its first observation is counted until its deletion.
// counted says whether the count changed, or the Events that waited for the pod went.
func (b *Builder) hidePod(key string, t WatchType, p *PodObservation) (hidden, counted bool) {
	if b.hide == nil {
		return false, false
	}
	if b.hidden[key] {
		if t == Deleted {
			delete(b.hidden, key)
			return true, true
		}
		return true, false
	}
	if b.pods[key] != nil || !b.hide(p) {
		return false, false
	}
	if t != Deleted {
		b.hidden[key] = true
		counted = true
	}
	dropped := b.dropWaiting(objectRef{"Pod", p.Namespace, p.Name, p.UID})
	return true, counted || dropped
}

// hiddenEvent reports whether e is about a hidden pod.
func (b *Builder) hiddenEvent(e *EventObservation) bool {
	return b.hidden != nil && e.InvolvedKind == "Pod" && e.InvolvedUID != "" && b.hidden[e.InvolvedUID]
}

// dropWaiting lets go of the Events that waited for ref's object: it is hidden.
func (b *Builder) dropWaiting(ref objectRef) (dropped bool) {
	list := b.waiting[ref]
	if len(list) == 0 {
		return false
	}
	delete(b.waiting, ref)
	for _, w := range list {
		delete(b.events, w.key)
	}
	b.orphaned = true
	return true
}

// waiter is an Event waiting for its object, and its key in the Builder's events.
type waiter struct {
	key string
	es  *eventState
}
