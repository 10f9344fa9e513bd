package ui

import (
	"time"
)

// panStep is how far one press pans a zoomed axis: a quarter of the span shown.
const panStep = 4

// pan moves a zoomed axis a step earlier (d < 0) or later, freezing it where it stops; a step
// later that reaches the live end follows it again. At fit there is nothing to pan, and pan
// reports false: the arrows then move between pods.
func (m *Model) pan(d int) bool {
	if m.view.zoom == 0 {
		return false
	}
	f := m.frameView()
	p := f.pod()
	if p == nil {
		return true
	}
	job := f.jobOf(p)
	_, end := f.axisSpan(p, job)
	fit := f
	fit.view.zoom, fit.view.follow = 0, true
	origin, last := fit.axisSpan(p, job)
	step := m.view.zoom / panStep
	if d < 0 {
		to := end.Add(-step)
		if lo := origin.Add(m.view.zoom); to.Before(lo) {
			to = lo
		}
		if to.Before(end) {
			m.view.follow, m.view.frozenEnd = false, to
		}
		return true
	}
	to := end.Add(step)
	if !to.Before(last) {
		m.view.follow, m.view.frozenEnd = true, time.Time{}
		return true
	}
	m.view.follow, m.view.frozenEnd = false, to
	return true
}
