package ui

import (
	"slices"
	"sort"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// denseLogLines is how many lines a second of a run must hold for the lane to show it as dense.
const denseLogLines = 10

// logSpan is a stretch of a lane's log: one second of a run's per-second counts, cut to the
// run's first and last lines, and how many lines were written in it. exactFrom and exactTo say
// that an end is a line's own stamp (the run's first or last line).
type logSpan struct {
	from, to           int64 // Unix nanoseconds, from <= to
	lines              int
	exactFrom, exactTo bool
}

// laneLogs are where container i of pod p wrote lines, over all its runs whose log was read,
// in time order.
func laneLogs(p *timeline.Pod, i int) []logSpan {
	var out []logSpan
	for _, r := range p.Containers[i].Runs.Items() {
		l := r.Log
		if l == nil {
			continue
		}
		first, last := unixNano(l.First), unixNano(l.Last)
		for _, c := range l.PerSecond.All() {
			s := logSpan{from: unixNano(c.At), to: unixNano(c.At.Add(time.Second - 1)), lines: c.Lines}
			if !l.First.IsZero() && first >= s.from {
				s.from, s.exactFrom = first, true
			}
			if last <= s.to {
				s.to, s.exactTo = last, true
			}
			s.from = min(s.from, s.to)
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].from < out[b].from })
	return out
}

// in is how many of the span's lines fall in [from, to): where the span is narrower than its
// lines are many, the share of its length (as if they were evenly spread); else each line is
// placed at a point, evenly, an exact end on its line, so that one line a second shows as one
// tick a second, not a second of ticks.
func (s *logSpan) in(from, to, cell int64) float64 {
	width := s.to - s.from + 1
	if cell <= 0 || int64(s.lines) >= width/cell {
		return float64(s.lines) * float64(min(s.to+1, to)-max(s.from, from)) / float64(width)
	}
	a, b := 0.5, 0.5 // the margins, in steps, before the first point and after the last
	if s.exactFrom {
		a = 0
	}
	if s.exactTo {
		b = 0
	}
	steps := float64(s.lines-1) + a + b
	n := 0
	for j := range s.lines {
		t := s.from
		if steps > 0 {
			t += int64(float64(s.to-s.from) * (float64(j) + a) / steps)
		}
		if t >= from && t < to {
			n++
		}
	}
	return float64(n)
}

// logs are the log spans of pod p's container i, by time.
func (c *viewCache) logs(p *timeline.Pod, i int) []logSpan {
	c.mu.Lock()
	defer c.mu.Unlock()
	pc := c.pod(p)
	ls, ok := pc.logs[i]
	if !ok {
		if pc.logs == nil {
			pc.logs = map[int][]logSpan{}
		}
		ls = laneLogs(p, i)
		pc.logs[i] = ls
	}
	return ls
}

// placeLogs shows where the lane's container wrote lines: a filled cell whose time holds lines
// shows Glyphs.LogLines[0], or [1] where they came at denseLogLines a second or more, in the
// ink of the state under it. A silent container keeps its plain fill; markers go over both.
// Only the spans that reach into the window are read.
func (b *bar) placeLogs(f *frame, spans []logSpan, w *window) {
	if len(spans) == 0 || w.width == 0 {
		return
	}
	start := unixNano(w.start)
	k := sort.Search(len(spans), func(i int) bool { return spans[i].to >= start })
	glyphs := f.st.Glyphs.LogLines
	// Lines are written while a run runs: not over the fill of a lane pending, waiting or
	// exited, where an estimate of the start or the exit can put a line's second.
	states := f.st.Glyphs.States
	notRunning := [...]string{states[timeline.StatePending], states[timeline.StateWaiting], states[timeline.StateTerminated]}
	for i := 0; i < w.width && k < len(spans); i++ {
		from, to := w.cell(i)
		cf, ct := unixNano(from), unixNano(to)
		lines, dense := linesIn(spans[k:], cf, ct)
		for k < len(spans) && spans[k].to < ct {
			k++
		}
		c := &b.cells[i]
		if lines <= 0 || c.prio != prioFill || slices.Contains(notRunning[:], c.glyph) {
			continue
		}
		c.glyph = glyphs[0]
		if dense {
			c.glyph = glyphs[1]
		}
	}
}

// linesIn is how many lines of spans (in time order) fall in the cell [cf, ct) in Unix
// nanoseconds, and whether any came from a dense span.
func linesIn(spans []logSpan, cf, ct int64) (lines float64, dense bool) {
	for j := 0; j < len(spans) && spans[j].from < ct; j++ {
		if s := &spans[j]; s.to >= cf {
			n := s.in(cf, ct, ct-cf)
			lines += n
			dense = dense || n > 0 && s.lines >= denseLogLines
		}
	}
	return lines, dense
}
