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

// page moves the cursor of the table in focus a page up (d < 0) or down: a page is the rows the
// table shows, less one kept in view.
func (m *Model) page(d int) {
	f := m.frameView()
	p := f.pod()
	if p == nil {
		return
	}
	job := f.jobOf(p)
	lay := layoutBody(&f, p, job, bodyHeight(&f, p))
	if m.view.focus == focusEvents {
		n := len(m.navMemo().eventList(p, job))
		m.view.evCursor = pageCursor(m.view.evCursor, n, max(lay.got[secEvents]-2, 1), d)
		return
	}
	m.view.cursor = pageCursor(m.view.cursor, rowCount(p), max(lay.got[secTable]-2, 1), d)
}

// pageCursor is cursor c of a table of n rows moved size rows on (back when d < 0). -1 follows
// the newest rows: paging up from there starts at the last row, and paging down past the last
// row follows them again.
func pageCursor(c, n, size, d int) int {
	if n == 0 || (c < 0 && d > 0) {
		return -1
	}
	if c < 0 {
		c = n - 1
	}
	c += d * size
	if c >= n {
		return -1
	}
	return max(c, 0)
}
