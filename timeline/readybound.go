package timeline

import "time"

// boundReadyByPod: the kubelet sets the pod's Ready condition only once every app container and
// sidecar is ready, so each pod Ready bounds above the ready of the run each of them was in then.
// A container's ready is observed (placed when a status showed it, up to a probe period after
// it happened), while the condition's lastTransitionTime says its second: without this bound, a
// sidecar's ready may read after the pod Ready it allowed.
func (d *deriver) boundReadyByPod(lanes []*passLane, row Seq[Milestone]) {
	for _, pr := range row.All() {
		if pr.Kind != MReady {
			continue
		}
		for _, l := range lanes {
			if l.kind() == KindInit {
				continue
			}
			d.readyBefore(l, pr)
		}
	}
}

// readyBefore bounds above, by the pod's Ready pr, the last ready of lane l that may have come
// before it.
func (d *deriver) readyBefore(l *passLane, pr *Milestone) {
	var m *Milestone
	var run int32
	for i := len(l.runs) - 1; i >= 0 && m == nil; i-- {
		a := l.runs[i].Attempt
		ms := l.milestones(a)
		for j := len(ms) - 1; j >= 0; j-- {
			if ms[j].Kind == MReady && !ms[j].Earliest.After(pr.Latest) {
				m, run = &ms[j], a
				break
			}
		}
	}
	if m == nil || !pr.Latest.Before(m.Latest) {
		return
	}
	iv, ok := interval{m.Earliest, m.Latest}.tighten(time.Time{}, pr.Latest)
	if !ok {
		return
	}
	at := m.At
	for i, em := range l.edit(run) {
		if em.Kind != MReady || !em.Earliest.Equal(m.Earliest) || !em.Latest.Equal(m.Latest) {
			continue
		}
		e := &l.edit(run)[i]
		e.Latest, e.At = iv.hi, iv.clamp(at)
		e.Evidence = append(e.Evidence, Evidence{What: "before the pod's Ready condition", API: pr.Earliest,
			Precision: "1s", Note: "the kubelet sets the pod Ready once every app container and sidecar is ready"})
		return
	}
}
