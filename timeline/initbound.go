package timeline

import (
	"sort"
	"time"
)

// boundStartedByInitialized: the kubelet sets the pod's Initialized condition only once every
// sidecar reports started (and every other init container has completed), so the pod's first
// Initialized bounds above the started of the run each sidecar was in then. A sidecar's started
// is observed (placed when a status showed it), while the condition's lastTransitionTime says its
// second: without this bound, the last sidecar's started may read after the Initialized it allowed.
func (d *deriver) boundStartedByInitialized(lanes []*passLane, row Seq[Milestone]) {
	var init *Milestone
	for _, m := range row.All() {
		if m.Kind == MInitialized {
			init = m
			break
		}
	}
	if init == nil || init.Latest.IsZero() {
		return
	}
	ev := Evidence{What: "before the pod's Initialized condition", API: init.Earliest, Precision: "1s",
		Note: "the kubelet sets the pod Initialized once every sidecar has started"}
	for _, l := range lanes {
		if l.kind() != KindSidecar {
			continue
		}
		// The run current then: the last that may have begun by Initialized's latest.
		from := sort.Search(len(l.runs), func(j int) bool {
			ms := l.runs[j].Milestones
			return len(ms) > 0 && ms[0].Earliest.After(init.Latest)
		})
		if from == 0 || !currentAt(l, from-1, init) {
			continue
		}
		run := l.runs[from-1].Attempt
		d.boundStartedBefore(l, run, init.Latest, ev)
	}
}

// currentAt reports whether run j of lane l, which may have begun by the Initialized milestone
// init, was the run current then: it certainly began before it, or no run came before it, or the
// one before it certainly exited before it. Otherwise a run begun within Initialized's second
// may have begun after it, while the one before it was the one that started.
func currentAt(l *passLane, j int, init *Milestone) bool {
	run := l.runs[j].Attempt
	if s := l.find(startKind(run), run); s != nil && !s.Latest.IsZero() && !s.Latest.After(init.Earliest) {
		return true
	}
	if run == 0 {
		return true
	}
	if j == 0 || l.runs[j-1].Attempt != run-1 {
		return false // a run this tool did not see came before it
	}
	e := l.find(MExit, run-1)
	return e != nil && !e.Latest.IsZero() && !e.Latest.After(init.Earliest)
}

// boundStartedBefore bounds above, by hi, the started of attempt run of lane l, giving ev as the
// evidence; a bound that would contradict the others is dropped (clock skew).
func (d *deriver) boundStartedBefore(l *passLane, run int32, hi time.Time, ev Evidence) {
	m := l.find(MStarted, run)
	if m == nil || !hi.Before(m.Latest) {
		return
	}
	iv, ok := interval{m.Earliest, m.Latest}.tighten(time.Time{}, hi)
	if !ok {
		return
	}
	m = findMilestone(l.edit(run), MStarted, run)
	if m.At.Equal(m.Latest) {
		m.At = iv.hi // an observed change: placed at its latest
	}
	m.Latest, m.At = iv.hi, iv.clamp(m.At)
	m.Evidence = append(m.Evidence, ev)
}
