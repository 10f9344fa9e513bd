package export

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The lanes as text, for the Markdown report: one line per container with the view's glyphs
// (present.UnicodeGlyphs), the pod row with its STATUS, and a time axis. Every glyph is one cell
// wide, so the lines line up in a code block.

// laneWidth is the columns of time a lane has in the report.
const laneWidth = 72

// grid maps the pod's span onto laneWidth columns.
type grid struct {
	s     span
	width int
}

// col is the column of t, clamped to the grid.
func (g grid) col(t time.Time) int {
	d := g.s.end.Sub(g.s.origin)
	if d <= 0 {
		return 0
	}
	f := float64(t.Sub(g.s.origin)) / float64(d) * float64(g.width)
	return min(max(int(f), 0), g.width-1)
}

// row is one line of cells being drawn; a cell keeps the glyph of the highest priority put on it.
type row struct {
	glyphs []string
	prio   []int
}

func newRow(width int) *row {
	r := &row{glyphs: make([]string, width), prio: make([]int, width)}
	for i := range r.glyphs {
		r.glyphs[i] = " "
	}
	return r
}

func (r *row) set(i int, g string, prio int) {
	if i >= 0 && i < len(r.glyphs) && prio >= r.prio[i] {
		r.glyphs[i], r.prio[i] = g, prio
	}
}

func (r *row) String() string { return strings.TrimRight(strings.Join(r.glyphs, ""), " ") }

// Priorities: a marker over text over a fill, and of markers the view's rank.
const (
	prioFill   = 1
	prioText   = 2
	prioMarker = 10
)

// textLanes draws pod p's lanes as lines of text: labels, then the cells.
func textLanes(p *timeline.Pod) []string {
	g := present.UnicodeGlyphs()
	gr := grid{s: podSpan(p), width: laneWidth}
	labelW := labelWidth(p)
	out := []string{laneLabel("pod", "", labelW) + " " + podRow(p, &g, gr).String()}
	for ci := range p.Containers {
		c := &p.Containers[ci]
		line := laneLabel(safe(c.Name), textfmt.KindTag(c.Kind), labelW) + " " + containerRow(c, &g, gr).String()
		if c.State != "" {
			line += "  " + safe(c.State)
		}
		out = append(out, line)
	}
	return append(out, strings.Repeat(" ", labelW+1)+axisText(gr, g.Tick))
}

// labelWidth is the width of the labels of p's lanes: the longest container name with a kind
// tag, or "pod".
func labelWidth(p *timeline.Pod) int {
	w := len("pod")
	for _, c := range p.Containers {
		w = max(w, utf8.RuneCountInString(safe(c.Name))+1+len("side"))
	}
	return w
}

// laneLabel is a lane's name and its tag, if any, padded to width.
func laneLabel(name, tag string, width int) string {
	l := name
	if tag != "" {
		l += " " + tag
	}
	return l + strings.Repeat(" ", width-utf8.RuneCountInString(l))
}

// podRow is pod p's own row: its status stretches filled and named, and its milestones marked.
func podRow(p *timeline.Pod, g *present.Glyphs, gr grid) *row {
	r := newRow(laneWidth)
	for _, st := range statusSegments(p, gr.s) {
		c0, c1 := gr.col(st.From), gr.col(st.To)
		for i := c0; i <= c1; i++ {
			r.set(i, g.PodFill, prioFill)
		}
	}
	for _, m := range p.Milestones.All() {
		if m.Kind != timeline.MCreated && gr.s.placed(m.At) {
			r.set(gr.col(m.At), g.Marker(m), prioMarker+present.MarkerRank(m.Kind))
		}
	}
	statusText(r, gr, statusSegments(p, gr.s))
	return r
}

// containerRow is container c's lane: each state's stretch filled with its glyph, and its
// milestones marked.
func containerRow(c *timeline.Container, g *present.Glyphs, gr grid) *row {
	r := newRow(laneWidth)
	for _, seg := range c.Segments() {
		if !gr.s.placed(seg.From) {
			continue
		}
		c0, c1 := gr.col(seg.From), gr.col(segmentEnd(seg, gr.s))
		for i := c0; i <= c1; i++ {
			r.set(i, g.States[seg.State], prioFill)
		}
	}
	for _, m := range c.Milestones() {
		if m.Kind == timeline.MCreated || m.Kind == timeline.MWaiting || !gr.s.placed(m.At) {
			continue
		}
		r.set(gr.col(m.At), g.Marker(&m), prioMarker+present.MarkerRank(m.Kind))
	}
	return r
}

// textJobLane draws job j's lane as text, as the view's job row: a line from its creation to
// its last condition, or to end (when the timeline ends) if that is later, with each
// condition's mark, and under it an axis on the Job's own time.
func textJobLane(j *timeline.Job, end time.Time) []string {
	g := present.UnicodeGlyphs()
	s := jobSpan(j)
	if end.After(s.end) {
		s.end, s.hi = end, end.Add(maxSkew)
	}
	gr := grid{s: s, width: laneWidth}
	r := newRow(laneWidth)
	for i := 0; i <= gr.col(s.end); i++ {
		r.set(i, g.PodFill, prioFill)
	}
	for i := range j.Milestones {
		if m := &j.Milestones[i]; m.Kind != timeline.MCreated && s.placed(m.At) {
			r.set(gr.col(m.At), g.Marker(m), prioMarker+present.MarkerRank(m.Kind))
		}
	}
	label := "job " + safe(j.Name)
	axis := strings.TrimRight(strings.Repeat(" ", utf8.RuneCountInString(label)+1)+axisText(gr, g.Tick), " ")
	return []string{label + " " + r.String(), axis}
}

// statusText writes each STATUS into its stretch of the pod row, where no marker is, if it fits.
func statusText(r *row, gr grid, segs []statusSegment) {
	for _, st := range segs {
		text := []rune(safe(st.Status))
		c0, c1 := gr.col(st.From)+1, gr.col(st.To)
		for i := c0; i+len(text) <= c1; i++ {
			free := true
			for j := i; j < i+len(text); j++ {
				free = free && r.prio[j] < prioMarker
			}
			if free {
				for j, ch := range text {
					r.set(i+j, string(ch), prioText)
				}
				break
			}
		}
	}
}

// axisText is the time axis under the lanes: ticks spaced so that their labels fit.
func axisText(gr grid, tick string) string {
	line := []rune(strings.Repeat(" ", gr.width))
	next := 0
	for _, d := range ticks(gr.s.end.Sub(gr.s.origin), gr.width, 8) {
		c := gr.col(gr.s.origin.Add(d))
		label := []rune(tick + textfmt.Tick(d))
		if c < next || c+len(label) > gr.width {
			continue
		}
		copy(line[c:], label)
		next = c + len(label) + 1
	}
	return strings.TrimRight(string(line), " ")
}

// ticks are the offsets of an axis of length total over width units, at the first step that
// leaves at least minGap units between ticks.
func ticks(total time.Duration, width, minGap int) []time.Duration {
	if total <= 0 || width <= 0 {
		return nil
	}
	steps := textfmt.TickSteps
	step := steps[len(steps)-1]
	for _, s := range steps {
		if float64(s)/float64(total)*float64(width) >= float64(minGap) {
			step = s
			break
		}
	}
	var out []time.Duration
	for d := time.Duration(0); d <= total && len(out) <= width; d += step {
		out = append(out, d)
	}
	return out
}
