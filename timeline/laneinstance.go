package timeline

import "sort"

// instance finds the run with this container ID (or, without one, this attempt), adding it.
func (ls *laneState) instance(id string, attempt int32) *instance {
	if in := ls.byContainerID(id); in != nil {
		return in
	}
	i := sort.Search(len(ls.instances), func(i int) bool { return ls.instances[i].attempt >= attempt })
	if in := ls.sameAttempt(i, id, attempt); in != nil {
		return in
	}
	return ls.addInstance(i, id, attempt)
}

// byContainerID is the run with container ID id, if known; nil when not or id is empty.
func (ls *laneState) byContainerID(id string) *instance {
	if id == "" {
		return nil
	}
	// Most updates are about the last run, or the one before it (its lastState): those are
	// compared before the map is asked (hashing a runtime's 77-byte ID costs more).
	for k := len(ls.instances) - 1; k >= max(len(ls.instances)-2, 0); k-- {
		if in := ls.instances[k]; in.id == id {
			return in
		}
	}
	return ls.byID[id]
}

// sameAttempt is a run of this attempt, from index i on, that the container ID id may be: any
// when id is empty, else one with no ID yet, which takes id. nil if none.
func (ls *laneState) sameAttempt(i int, id string, attempt int32) *instance {
	for j := i; j < len(ls.instances) && ls.instances[j].attempt == attempt; j++ {
		if in := ls.instances[j]; id == "" || in.id == "" {
			if in.id == "" && id != "" {
				in.id = id
				ls.byID[id] = in
			}
			return in
		}
	}
	return nil
}

// addInstance adds a run with container ID id of this attempt, at index i or, when its count
// is off, after every one known; the attempts from it on are derived again.
func (ls *laneState) addInstance(i int, id string, attempt int32) *instance {
	n := len(ls.instances)
	if id != "" && n > 0 && attempt <= ls.instances[n-1].attempt {
		// A new container is a run after every one known: the kubelet counts a pod's runs up.
		// Another container has this attempt, or a later one: the status's count is off (it went
		// back, or stuck at the largest count read), and the run is numbered after the last.
		attempt, i = nextAttempt(ls.instances[n-1].attempt), n
	}
	in := &instance{attempt: attempt, id: id}
	if id != "" {
		ls.byID[id] = in
	}
	// After any run of the same attempt: the order a stable sort by attempt would give.
	for i < len(ls.instances) && ls.instances[i].attempt == attempt {
		i++
	}
	// The Events after the last run were filed under the attempt after it (see attemptAt): a run
	// numbered past that one takes them, and what was derived of them there goes.
	next := int32(0)
	if n > 0 {
		next = nextAttempt(ls.instances[n-1].attempt)
	}
	ls.instances = append(ls.instances, nil)
	copy(ls.instances[i+1:], ls.instances[i:])
	ls.instances[i] = in
	ls.touch(min(attempt, next))
	return in
}
