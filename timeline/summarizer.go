package timeline

import (
	"slices"
	"time"
)

// Summarizer gives Summarize(s) snapshot after snapshot at the cost of what changed, for a view
// that shows a workload's summary at every frame: the pods a snapshot shares with the last one
// are skipped by pointer, and a gap's sorted values are patched where pods' values changed. A
// Summary it returned is never changed afterwards (a gap that changes gets new slices; one that
// does not is shared). One goroutine uses it; the zero value is ready.
type Summarizer struct {
	pods     Seq[*Pod]             // the last snapshot's pods
	seen     map[string][]Gap      // each pod's gaps as last summarised, by UID
	track    map[string]*gapTrack  // by gap name
	stats    map[string]GapSummary // the last summary's gaps, by name
	order    map[string]int        // where each gap is listed, when the gaps were last ordered
	firstPod map[string]int        // the index of the first pod that names each gap, then
	last     Summary
}

// gapTrack is one gap's values over the pods, kept sorted.
type gapTrack struct {
	byPod       map[string]PodValue // by UID
	values      []PodValue          // slowest first
	est, lo, hi []time.Duration     // smallest first
}

// patchLimit is how many changes to a gap are patched in place; more, and its values are sorted
// again from nothing (k patches cost k·n, a sort n·log n).
const patchLimit = 8

// Summary is Summarize(s), worked out from the last snapshot given and what changed since.
func (z *Summarizer) Summary(s Snapshot) Summary {
	if z.seen != nil && z.pods.Same(s.Pods) {
		return z.last
	}
	if z.seen == nil {
		z.seen, z.track, z.stats = map[string][]Gap{}, map[string]*gapTrack{}, map[string]GapSummary{}
	}
	changes := gapChanges{}
	reorder := z.changedPods(s, changes)
	if len(z.seen) > s.Pods.Len() { // some pods are gone
		reorder = true
		z.gonePods(s, changes)
	}
	z.pods = s.Pods
	for name, cs := range changes {
		z.applyChanges(name, cs)
	}
	z.last = z.summary(s, reorder)
	return z.last
}

// gapChanges are the values that left and joined each gap, by its name.
type gapChanges map[string][]podChange

// add notes that the pod uid, named name, had the gaps old and has gaps now (a gap named twice
// counts once).
func (c gapChanges) add(uid, name string, old, gaps []Gap) {
	for j, g := range old {
		if !repeated(old, j) {
			c[g.Name] = append(c[g.Name], podChange{false, PodValue{name, uid, g.Span}})
		}
	}
	for j, g := range gaps {
		if !repeated(gaps, j) {
			c[g.Name] = append(c[g.Name], podChange{true, PodValue{name, uid, g.Span}})
		}
	}
}

// changedPods notes in changes the gaps of the pods that changed since the last snapshot, and
// reports whether the order of the gaps may change: it does only when pods move, or a pod names
// a gap before (or instead of) the first pod that named it.
func (z *Summarizer) changedPods(s Snapshot, changes gapChanges) (reorder bool) {
	for i, pp := range s.Pods.ChangedSince(z.pods) {
		p := *pp
		if i < z.pods.Len() && z.pods.At(i) == p {
			continue
		}
		if i < z.pods.Len() && z.pods.At(i).UID != p.UID {
			reorder = true
		}
		old, had := z.seen[p.UID]
		if had && sameGaps(old, p.Gaps) {
			continue
		}
		if !had || !sameNames(old, p.Gaps) {
			reorder = reorder || !z.namedBefore(old, i) || !z.namedBefore(p.Gaps, i)
		}
		changes.add(p.UID, p.Name, old, p.Gaps)
		z.seen[p.UID] = p.Gaps
	}
	return reorder
}

// gonePods notes in changes the gaps of the pods seen before that s no longer has, and forgets
// them.
func (z *Summarizer) gonePods(s Snapshot, changes gapChanges) {
	now := make(map[string]bool, s.Pods.Len())
	for _, p := range s.Pods.Items() {
		now[p.UID] = true
	}
	for uid, old := range z.seen {
		if now[uid] {
			continue
		}
		for _, g := range old {
			if v, ok := z.track[g.Name].byPod[uid]; ok {
				changes.add(uid, v.Pod, []Gap{g}, nil)
			}
		}
		delete(z.seen, uid)
	}
}

// applyChanges brings the gap name's values and figures up to date with cs: patched in place
// when they are few, sorted again when not, and the gap forgotten when no pod has it.
func (z *Summarizer) applyChanges(name string, cs []podChange) {
	t := z.track[name]
	if t == nil {
		t = &gapTrack{byPod: map[string]PodValue{}}
		z.track[name] = t
	}
	for _, c := range cs {
		if c.add {
			t.byPod[c.v.UID] = c.v
		} else {
			delete(t.byPod, c.v.UID)
		}
	}
	if len(t.byPod) == 0 {
		delete(z.track, name)
		delete(z.stats, name)
		return
	}
	if len(cs) <= patchLimit {
		t.patch(cs)
	} else {
		t.rebuild()
	}
	z.stats[name] = gapStats(name, t.values, t.est, t.lo, t.hi)
}

// summary is the summary of s from the gaps' figures: in the order of the gaps worked out again
// when it may have changed (reorder) or gaps came or went, else in the last summary's.
func (z *Summarizer) summary(s Snapshot, reorder bool) Summary {
	sum := Summary{Pods: s.Pods.Len(), Gaps: make([]GapSummary, 0, len(z.stats))}
	if reorder || len(z.last.Gaps) != len(z.stats) {
		z.order, z.firstPod = gapOrder(s.Pods, len(z.stats))
		sum.Gaps = sum.Gaps[:len(z.order)]
		for name, i := range z.order {
			sum.Gaps[i] = z.stats[name]
		}
		return sum
	}
	for _, g := range z.last.Gaps {
		sum.Gaps = append(sum.Gaps, z.stats[g.Name])
	}
	return sum
}

// namedBefore reports whether every gap of gaps was named, when the gaps were last ordered, by
// a pod before the i-th: then the i-th pod's gaps cannot change the order.
func (z *Summarizer) namedBefore(gaps []Gap, i int) bool {
	for _, g := range gaps {
		if f, ok := z.firstPod[g.Name]; !ok || f >= i {
			return false
		}
	}
	return true
}

// podChange is a pod's value of a gap that comes or goes.
type podChange struct {
	add bool
	v   PodValue
}

// patch applies a few changes to copies of the sorted slices, which the last Summary may share.
func (t *gapTrack) patch(cs []podChange) {
	t.values, t.est, t.lo, t.hi = slices.Clone(t.values), slices.Clone(t.est), slices.Clone(t.lo), slices.Clone(t.hi)
	for _, c := range cs {
		parts := [3]time.Duration{c.v.Span.Value, c.v.Span.Min, c.v.Span.Max}
		sorted := [3]*[]time.Duration{&t.est, &t.lo, &t.hi}
		i, found := slices.BinarySearchFunc(t.values, c.v, slower)
		if c.add {
			t.values = slices.Insert(t.values, i, c.v)
		} else if found {
			t.values = slices.Delete(t.values, i, i+1)
		}
		for k, d := range parts {
			s := sorted[k]
			j, ok := slices.BinarySearch(*s, d)
			if c.add {
				*s = slices.Insert(*s, j, d)
			} else if ok {
				*s = slices.Delete(*s, j, j+1)
			}
		}
	}
}

// rebuild sorts the gap's values again from its pods'.
func (t *gapTrack) rebuild() {
	v := make([]PodValue, 0, len(t.byPod))
	for _, pv := range t.byPod {
		v = append(v, pv)
	}
	slices.SortFunc(v, slower)
	t.values = v
	t.est = sortedBy(v, func(s Span) time.Duration { return s.Value })
	t.lo = sortedBy(v, func(s Span) time.Duration { return s.Min })
	t.hi = sortedBy(v, func(s Span) time.Duration { return s.Max })
}

// gapOrder is where Summarize lists each gap name (as the pods' gap lists first name them, the
// pods in order), and the index of the first pod that names it.
func gapOrder(pods Seq[*Pod], n int) (order, firstPod map[string]int) {
	order, firstPod = make(map[string]int, n), make(map[string]int, n)
	for i, p := range pods.Items() {
		for _, g := range p.Gaps {
			if _, ok := order[g.Name]; !ok {
				order[g.Name], firstPod[g.Name] = len(order), i
			}
		}
	}
	return order, firstPod
}

// sameGaps reports whether two gap lists hold the same names and spans in the same order.
func sameGaps(a, b []Gap) bool {
	return slices.EqualFunc(a, b, func(x, y Gap) bool { return x.Name == y.Name && x.Span == y.Span })
}

// sameNames reports whether two gap lists name the same gaps in the same order.
func sameNames(a, b []Gap) bool {
	return slices.EqualFunc(a, b, func(x, y Gap) bool { return x.Name == y.Name })
}
