package timeline

import (
	"sort"
	"time"
)

// boundReadyByPod: the kubelet sets the pod's Ready condition only once every app container and
// sidecar is ready, so a pod Ready bounds above the ready of the run each of them was in then.
// A container's ready is observed (placed when a status showed it, up to a probe period after
// it happened), while the condition's lastTransitionTime says its second: without this bound, a
// sidecar's ready may read after the pod Ready it allowed. It bounds by the pod's first Ready
// and its latest only, so that a pod that turned Ready a thousand times (a crash loop) costs the
// same as one that did once.
func (d *deriver) boundReadyByPod(lanes []*passLane, row Seq[Milestone]) {
	// The first and the last Ready, each looked for from its end of the row: the row grows with
	// every readiness change of a crash loop, and this runs for every snapshot.
	var first, last *Milestone
	for _, m := range row.All() {
		if m.Kind == MReady {
			first = m
			break
		}
	}
	if first == nil {
		return
	}
	for _, m := range row.Backward() {
		if m.Kind == MReady {
			last = m
			break
		}
	}
	for _, l := range lanes {
		if l.kind() == KindInit {
			continue
		}
		d.readyBefore(l, first)
		if last != first {
			d.readyBefore(l, last)
		}
	}
}

// readyBefore bounds above, by the pod's Ready pr, the ready of the run of lane l that ran then:
// the last that began by pr's latest (runs are in time order).
func (d *deriver) readyBefore(l *passLane, pr *Milestone) {
	from := sort.Search(len(l.runs), func(j int) bool {
		ms := l.runs[j].Milestones
		return len(ms) > 0 && ms[0].Earliest.After(pr.Latest)
	})
	for j := from - 1; j >= 0 && j >= from-2; j-- {
		a := l.runs[j].Attempt
		ms := l.milestones(a)
		for i := len(ms) - 1; i >= 0; i-- {
			if ms[i].Kind == MReady && !ms[i].Earliest.After(pr.Latest) {
				d.tightenReady(l, a, i, pr)
				return
			}
		}
	}
}

// tightenReady bounds milestone i of attempt a of lane l, a ready, by the pod's Ready pr.
func (d *deriver) tightenReady(l *passLane, a int32, i int, pr *Milestone) {
	m := l.milestones(a)[i]
	if !pr.Latest.Before(m.Latest) {
		return
	}
	iv, ok := interval{m.Earliest, m.Latest}.tighten(time.Time{}, pr.Latest)
	if !ok {
		return
	}
	e := &l.edit(a)[i]
	e.Latest, e.At = iv.hi, iv.clamp(m.At)
	e.Evidence = append(e.Evidence, Evidence{What: "before the pod's Ready condition", API: pr.Earliest,
		Precision: "1s", Note: "the kubelet sets the pod Ready once every app container and sidecar is ready"})
}
