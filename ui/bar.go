package ui

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// markLook is all a marker's glyph and ink depend on.
type markLook struct {
	ink    ink
	reason string // a condition's, which picks its glyph
}

func lookOf(m *timeline.Milestone) markLook {
	k := markLook{ink: markerInk(m)}
	if m.Kind == timeline.MCondition {
		k.reason = m.Reason
	}
	return k
}

// bar collects a lane's cells, each a glyph in an ink, before they are drawn; a cell keeps the
// glyph with the highest priority put on it. A glyph two cells wide is followed by a cell with
// no glyph.
type bar struct {
	cells []cell
	inks  []ink // the inks used, a handful: cells refer to them by index
	ends  rowEnds
}

// rowEnds are what a lane's row has before its bar (the label) and after it (the state), drawn.
type rowEnds struct{ pre, post string }

type cell struct {
	glyph string
	ink   uint16 // index into inks; 0 is no ink
	prio  int8
	// mark is the marker the cell shows, whose glyph and ink render looks up: a column often
	// has several milestones, and only the one shown is looked up.
	mark *markRef
}

// Priorities of what a cell shows: a marker over text over a fill.
const (
	prioFill   = 1
	prioText   = 2
	prioMarker = 10 // plus present.MarkerRank
)

// newBar is an empty bar of width cells, in a row with those ends. It reuses the cells of the
// frame's last bar, which was drawn before this one is made.
func newBar(f *frame, width int, ends rowEnds) *bar {
	if cap(f.scratch) < width {
		f.scratch = make([]cell, width)
	}
	b := &bar{cells: f.scratch[:width], inks: make([]ink, 1, 8), ends: ends}
	for i := range b.cells {
		b.cells[i] = cell{glyph: " "}
	}
	return b
}

// inkIndex is the index of k in the bar's inks, added if new.
func (b *bar) inkIndex(k ink) uint16 {
	for i := range b.inks {
		if b.inks[i] == k {
			return uint16(i)
		}
	}
	b.inks = append(b.inks, k)
	return uint16(len(b.inks) - 1)
}

// set puts glyph g in ink k on cell i if prio beats what is there.
func (b *bar) set(i int, g string, k ink, prio int8) {
	if i < 0 || i >= len(b.cells) || prio < b.cells[i].prio {
		return
	}
	b.cells[i] = cell{glyph: g, ink: b.inkIndex(k), prio: prio}
}

// render writes the lane's row: its label, the cells (each run of cells in one ink at once),
// and what follows them, in one string of the size it needs.
func (b *bar) render(f *frame) string {
	b.lookUpMarks(&f.st.Glyphs)
	var paintsOf [8]*paint // a handful of inks: kept off the heap
	paints := b.paints(f, paintsOf[:0])
	size, runs := b.measure(paints)
	return b.write(paints, size, runs)
}

// lookUpMarks gives the cells that show a marker its glyph and ink, looking each look up once.
func (b *bar) lookUpMarks(g *present.Glyphs) {
	var seen []markLook // the markers looked up, a handful; glyphs[i] and inks[i] are seen[i]'s
	var glyphs []string
	var inks []uint16
	for i := range b.cells {
		r := b.cells[i].mark
		if r == nil {
			continue
		}
		j := 0
		for j < len(seen) && seen[j] != r.look {
			j++
		}
		if j == len(seen) {
			seen, glyphs, inks = append(seen, r.look), append(glyphs, g.Marker(r.m)), append(inks, b.inkIndex(r.look.ink))
		}
		b.cells[i].glyph, b.cells[i].ink = glyphs[j], inks[j]
	}
}

// paints appends to into the paint of each of the bar's inks, by index (nil for no ink).
func (b *bar) paints(f *frame, into []*paint) []*paint {
	if len(b.inks) > cap(into) {
		into = make([]*paint, 0, len(b.inks))
	}
	into = append(into, nil)
	for i := 1; i < len(b.inks); i++ {
		into = append(into, f.paint(b.inks[i]))
	}
	return into
}

// measure is the size of the row render writes, and the runs in a slow paint, which draw their
// text through lipgloss, rendered in order.
func (b *bar) measure(paints []*paint) (size int, runs []string) {
	size = len(b.ends.pre) + len(b.ends.post)
	for i := 0; i < len(b.cells); {
		j := b.runEnd(i)
		p := paints[b.cells[i].ink]
		switch {
		case p != nil && p.slow:
			var run strings.Builder
			for _, c := range b.cells[i:j] {
				run.WriteString(c.glyph)
			}
			r := p.style.Render(run.String())
			runs = append(runs, r)
			size += len(r)
		case p != nil:
			size += len(p.open) + len(p.close)
			fallthrough
		default:
			for _, c := range b.cells[i:j] {
				size += len(c.glyph)
			}
		}
		i = j
	}
	return size, runs
}

// write is the row, size bytes long: the label, each run of cells in its paint (the slow ones
// as measure rendered them, in order), and what follows.
func (b *bar) write(paints []*paint, size int, runs []string) string {
	var out strings.Builder
	out.Grow(size)
	out.WriteString(b.ends.pre)
	for i := 0; i < len(b.cells); {
		j := b.runEnd(i)
		p := paints[b.cells[i].ink]
		switch {
		case p != nil && p.slow:
			out.WriteString(runs[0])
			runs = runs[1:]
		default:
			if p != nil {
				out.WriteString(p.open)
			}
			for _, c := range b.cells[i:j] {
				out.WriteString(c.glyph)
			}
			if p != nil {
				out.WriteString(p.close)
			}
		}
		i = j
	}
	out.WriteString(b.ends.post)
	return out.String()
}

// runEnd is where the run of cells in cell i's ink ends.
func (b *bar) runEnd(i int) int {
	j := i + 1
	for j < len(b.cells) && b.cells[j].ink == b.cells[i].ink {
		j++
	}
	return j
}

// markRef is a milestone a lane marks, as the lane's markers are kept for drawing: in time
// order, with what its glyph and ink depend on, so that finding those in the window is a binary
// search and reading them touches no milestone.
type markRef struct {
	at   int64 // m.At in Unix nanoseconds; the ends of the int64 range for times beyond them
	prio int8
	look markLook
	m    *timeline.Milestone
}

func newMarkRef(m *timeline.Milestone) markRef {
	return markRef{at: unixNano(m.At), prio: int8(prioMarker + present.MarkerRank(m.Kind)), look: lookOf(m), m: m}
}

// laneMarks are the markers of pod p's container i, or of its pod row for -1, in time order.
// A container lane shows neither its created nor its waiting milestones (its fill shows them);
// the pod row does not show its creation.
func laneMarks(p *timeline.Pod, i int) []markRef {
	var out []markRef
	if i < 0 {
		out = make([]markRef, 0, p.Milestones.Len())
		for _, m := range p.Milestones.All() {
			if m.Kind != timeline.MCreated {
				out = append(out, newMarkRef(m))
			}
		}
	} else {
		// Sized first: a lane of a long crash loop has thousands, made again at each frame that
		// changes its pod.
		n := 0
		for _, r := range p.Containers[i].Runs.Items() {
			n += len(r.Milestones)
		}
		out = make([]markRef, 0, n)
		for _, r := range p.Containers[i].Runs.Items() {
			for j := range r.Milestones {
				if m := &r.Milestones[j]; m.Kind != timeline.MCreated && m.Kind != timeline.MWaiting {
					out = append(out, newMarkRef(m))
				}
			}
		}
	}
	// Mostly in order already (a lane's runs follow one another).
	byTime := func(a, b markRef) int { return cmp.Compare(a.at, b.at) }
	if !slices.IsSortedFunc(out, byTime) {
		slices.SortStableFunc(out, byTime)
	}
	return out
}

// unixNano is t in Unix nanoseconds, saturated at the ends of the int64 range (1678, 2262).
func unixNano(t time.Time) int64 {
	switch {
	case t.Before(minNanoTime):
		return math.MinInt64
	case t.After(maxNanoTime):
		return math.MaxInt64
	}
	return t.UnixNano()
}

var minNanoTime, maxNanoTime = time.Unix(0, math.MinInt64), time.Unix(0, math.MaxInt64)

// placeMarks puts the markers that fall in the window on their columns; where several fall in
// one column, the highest ranked shows, and of those the last.
func (b *bar) placeMarks(ms []markRef, w *window) {
	from, to := unixNano(w.start), unixNano(w.end)
	// Within a window of nanosecond times no wider than int64 holds, a marker's column comes from
	// its own time, not the milestone's (thousands of milestones a frame, each a cache miss).
	exact := from != math.MinInt64 && to != math.MaxInt64 && to-from >= 0
	lo := sort.Search(len(ms), func(i int) bool { return ms[i].at >= from })
	for k := lo; k < len(ms) && ms[k].at <= to; k++ {
		r := &ms[k]
		var i int
		if exact {
			i = w.colAfter(time.Duration(r.at - from))
		} else {
			i = w.col(r.m.At)
		}
		if i == w.width {
			i-- // exactly at the right edge
		}
		if i < 0 || i >= len(b.cells) || r.prio < b.cells[i].prio {
			continue
		}
		b.cells[i] = cell{prio: r.prio, mark: r}
	}
}

// marker puts milestone m on its column if it falls in the window, unless it is of kind skip.
func (b *bar) marker(m *timeline.Milestone, w *window, skip timeline.MilestoneKind) {
	if m.At.Before(w.start) || m.At.After(w.end) || m.Kind == skip {
		return
	}
	r := newMarkRef(m)
	b.placeMarks([]markRef{r}, w)
}

// text writes s from cell at on, one grapheme a cell (two for a wide one), in ink k.
func (b *bar) text(at int, s string, k ink) {
	for s != "" {
		g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		s = s[len(g):]
		if w <= 0 {
			continue // nothing to show on its own
		}
		b.set(at, g, k, prioText)
		for j := 1; j < w; j++ {
			b.set(at+j, "", k, prioText)
		}
		at += w
	}
}

// freeRun finds a stretch of cells in [from, to) without a marker: the first that holds n
// cells, else the longest. It returns where the stretch starts and its length.
func (b *bar) freeRun(from, to, n int) (at, length int) {
	bestAt, best := from, 0
	for i := from; i < to; {
		if b.cells[i].prio >= prioMarker {
			i++
			continue
		}
		j := i
		for j < to && b.cells[j].prio < prioMarker {
			j++
		}
		if j-i >= n {
			return i, j - i
		}
		if j-i > best {
			bestAt, best = i, j-i
		}
		i = j
	}
	return bestAt, best
}

// textSeg is a stretch of the pod or job row: STATUS text from a time on.
type textSeg struct {
	at   time.Time
	text string
}

// textBar draws a row of text segments: each a fill up to the next, with its text in the first
// stretch free of milestone markers that holds it (or, cut short, in the longest one). The
// markers must be on b already.
func textBar(f *frame, b *bar, segs []textSeg, w *window, end time.Time) string {
	st := &f.st
	last := min(w.col(end)+1, w.width)
	for k, s := range segs {
		c0, c1 := max(w.col(s.at), 0), last
		if k+1 < len(segs) {
			c1 = min(w.col(segs[k+1].at), last)
		}
		if c0 >= w.width || c1 <= c0 {
			continue
		}
		for i := c0; i < c1; i++ {
			b.set(i, st.Glyphs.PodFill, ink{what: inkFill}, prioFill)
		}
		text := s.text
		tw := cellWidth(text)
		at, room := b.freeRun(c0, c1-1, tw) // keep a fill cell before the next segment
		if room < 3 {
			continue
		}
		if tw > room {
			text = ansi.Truncate(text, room, "…")
		}
		b.text(at, text, ink{what: inkStatus, text: s.text})
	}
	return b.render(f)
}
