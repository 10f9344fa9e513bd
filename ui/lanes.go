package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// laneLayout is the geometry of the lane rows: a label (cursor, name, kind tag, restarts),
// the bar on the time axis, and at wide sizes the lane's current state.
type laneLayout struct {
	nameW, tagW, restartW int
	labelW, barW, stateW  int
}

// newLaneLayout fits the lanes of pod p (and its job's row) into width columns.
func newLaneLayout(p *timeline.Pod, job *timeline.Job, width int) laneLayout {
	var l laneLayout
	maxName := 9
	switch {
	case width >= 100:
		maxName = 20
	case width >= 60:
		maxName = 14
	}
	l.nameW = len("pod")
	if job != nil {
		l.nameW = max(l.nameW, lipgloss.Width(job.Name))
	}
	for _, c := range p.Containers {
		l.nameW = max(l.nameW, lipgloss.Width(c.Name))
		if c.RestartCount > 0 {
			l.restartW = max(l.restartW, len(fmt.Sprint(c.RestartCount))+2)
		}
	}
	l.nameW = min(l.nameW, maxName)
	l.tagW = 4
	if width < 60 {
		l.tagW = 1
	}
	l.labelW = 1 + l.nameW + 1 + l.tagW + l.restartW + 1
	if width >= 100 {
		l.stateW = len("Completed") + 1
		for _, c := range p.Containers {
			l.stateW = max(l.stateW, lipgloss.Width(c.State)+1)
		}
		l.stateW = min(l.stateW, 16+(width-100)/4)
	}
	l.barW = max(width-l.labelW-l.stateW, 1)
	return l
}

// lane is one row of the lane area before it is drawn.
type lane struct {
	name, tag, state string
	restarts         int32
	selected         bool
	bar              string
}

// label draws a lane's label column.
func (l laneLayout) label(ln lane, st Styles) string {
	cursor := " "
	name := pad(ln.name, l.nameW)
	if ln.selected {
		cursor = st.Glyphs.Cursor
		name = st.Selected.Render(name)
	}
	tag := st.Muted.Render(pad(ln.tag, l.tagW))
	r := ""
	if l.restartW > 0 {
		r = strings.Repeat(" ", l.restartW)
		if ln.restarts > 0 {
			r = st.Markers[timeline.MRestart].Render(padLeft(st.Glyphs.Restarts+fmt.Sprint(ln.restarts), l.restartW))
		}
	}
	return cursor + name + " " + tag + r + " "
}

// row draws a whole lane row.
func (l laneLayout) row(ln lane, st Styles) string {
	s := l.label(ln, st) + ln.bar
	if l.stateW > 0 {
		s += " " + st.Muted.Render(truncate(ln.state, l.stateW-1))
	}
	return s
}

// bar collects a lane's cells, each a glyph with a style, before they are drawn; a cell keeps
// the glyph with the highest priority put on it.
type bar struct {
	glyph  []string
	key    []string
	prio   []int
	styles map[string]lipgloss.Style
}

// Priorities of what a cell shows: a marker over text over a fill.
const (
	prioFill   = 1
	prioText   = 2
	prioMarker = 10 // plus markerRank
)

func newBar(width int) *bar {
	b := &bar{glyph: make([]string, width), key: make([]string, width), prio: make([]int, width),
		styles: map[string]lipgloss.Style{}}
	for i := range b.glyph {
		b.glyph[i] = " "
	}
	return b
}

// set puts glyph g, styled st (known by key), on cell i if prio beats what is there.
func (b *bar) set(i int, g, key string, st lipgloss.Style, prio int) {
	if i < 0 || i >= len(b.glyph) || prio < b.prio[i] {
		return
	}
	b.glyph[i], b.key[i], b.prio[i] = g, key, prio
	if _, ok := b.styles[key]; !ok {
		b.styles[key] = st
	}
}

// render draws the cells, one Render call per run of cells with the same style.
func (b *bar) render() string {
	var out strings.Builder
	for i := 0; i < len(b.glyph); {
		j := i
		for j < len(b.glyph) && b.key[j] == b.key[i] {
			j++
		}
		run := strings.Join(b.glyph[i:j], "")
		if b.key[i] == "" {
			out.WriteString(run)
		} else {
			out.WriteString(b.styles[b.key[i]].Render(run))
		}
		i = j
	}
	return out.String()
}

// markers puts milestones on their columns, skipping the kinds in skip.
func (b *bar) markers(ms []timeline.Milestone, w window, st Styles, skip ...timeline.MilestoneKind) {
	for _, m := range ms {
		if containsKind(skip, m.Kind) {
			continue
		}
		i := w.col(m.At)
		if i == w.width && !m.At.After(w.end) {
			i-- // exactly at the right edge
		}
		g := st.Glyphs.marker(m)
		key := fmt.Sprintf("m:%s:%s:%t", m.Kind, m.Source, failed(m))
		b.set(i, g, key, st.markerStyle(m), prioMarker+markerRank(m.Kind))
	}
}

func containsKind(ks []timeline.MilestoneKind, k timeline.MilestoneKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// containerBar draws a container's lane: each column shows the state at the middle of the time
// it covers (nothing after end), and milestones overlay their columns.
func containerBar(c *timeline.Container, w window, end time.Time, st Styles) string {
	segs := c.SegmentsFrom(w.start)
	b := newBar(w.width)
	for i := 0; i < w.width; i++ {
		from, to := w.cell(i)
		if from.After(end) {
			break
		}
		t := from.Add(to.Sub(from) / 2)
		if t.After(end) {
			t = end
		}
		seg := segmentAt(segs, t, end)
		if seg == nil {
			continue
		}
		bad := seg.State == timeline.StateTerminated && badReason(seg.Reason)
		b.set(i, st.Glyphs.States[seg.State], fmt.Sprintf("s:%s:%t", seg.State, bad), st.stateStyle(*seg), prioFill)
	}
	for _, r := range c.Runs {
		b.markers(r.Milestones, w, st, timeline.MCreated, timeline.MWaiting)
	}
	return b.render()
}

// segmentAt is the segment covering t: the last one that began by t and had not ended;
// an open segment lasts until end.
func segmentAt(segs []timeline.Segment, t, end time.Time) *timeline.Segment {
	var found *timeline.Segment
	for i := range segs {
		s := &segs[i]
		if s.From.After(t) {
			continue
		}
		if s.To.IsZero() && !t.After(end) || !s.To.IsZero() && t.Before(s.To) {
			found = s
		}
	}
	return found
}

// textSeg is a stretch of the pod or job row: STATUS text from a time on.
type textSeg struct {
	at   time.Time
	text string
}

// textBar draws a row of text segments: each a fill up to the next, with its text in the first
// stretch free of milestone markers that holds it (or, cut short, in the longest one).
func textBar(segs []textSeg, ms []timeline.Milestone, w window, end time.Time, st Styles) string {
	b := newBar(w.width)
	b.markers(ms, w, st, timeline.MCreated)
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
			b.set(i, st.Glyphs.PodFill, "fill", st.Faint, prioFill)
		}
		text := []rune(s.text)
		at, room := b.freeRun(c0, c1-1, len(text)) // keep a fill cell before the next segment
		if room < 3 {
			continue
		}
		if len(text) > room {
			text = append(text[:room-1], '…')
		}
		for j, r := range text {
			b.set(at+j, string(r), "t:"+s.text, st.statusStyle(s.text), prioText)
		}
	}
	return b.render()
}

// freeRun finds a stretch of cells in [from, to) without a marker: the first that holds n
// cells, else the longest. It returns where the stretch starts and its length.
func (b *bar) freeRun(from, to, n int) (at, length int) {
	bestAt, best := from, 0
	for i := from; i < to; {
		if b.prio[i] >= prioMarker {
			i++
			continue
		}
		j := i
		for j < to && b.prio[j] < prioMarker {
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

// podSegments are the pod row's STATUS stretches.
func podSegments(p *timeline.Pod) []textSeg {
	out := make([]textSeg, 0, len(p.Statuses))
	for _, s := range p.Statuses {
		out = append(out, textSeg{s.At, s.Status})
	}
	return out
}

// jobSegments are the job row's stretches: Running from its creation, then each terminal
// condition (Complete, Failed) or suspension.
func jobSegments(j timeline.Job) []textSeg {
	out := []textSeg{{j.Created, "Running"}}
	for _, m := range j.Milestones {
		if m.Kind == timeline.MCondition && (m.Reason == "Complete" || m.Reason == "Failed" || m.Reason == "Suspended") {
			out = append(out, textSeg{m.At, m.Reason})
		}
	}
	return out
}

// renderLanes draws the job row (when there is one), the pod row and the container lanes, at
// most rows of them, keeping the selected lane in view.
func renderLanes(f *frame, p *timeline.Pod, job *timeline.Job, l laneLayout, w window, rows int) []string {
	end := liveEnd(p, f.now)
	var lanes []lane
	if job != nil {
		state := fmt.Sprintf("%s %d/%d/%d", job.Status, job.Active, job.Succeeded, job.Failed)
		lanes = append(lanes, lane{name: job.Name, tag: kindTag("job", l.tagW < 4), state: state,
			bar: textBar(jobSegments(*job), job.Milestones, w, end, f.st)})
	}
	selected := len(lanes)
	lanes = append(lanes, lane{name: "pod", state: p.Status, selected: f.view.lane == "",
		bar: textBar(podSegments(p), p.Milestones.Slice(), w, end, f.st)})
	for i := range p.Containers {
		c := &p.Containers[i]
		if f.view.lane == c.Name {
			selected = len(lanes)
		}
		lanes = append(lanes, lane{name: c.Name, tag: kindTag(c.Kind, l.tagW < 4), state: c.State,
			restarts: c.RestartCount, selected: f.view.lane == c.Name,
			bar: containerBar(c, w, end, f.st)})
	}
	first := 0
	if len(lanes) > rows {
		first = min(max(selected-rows/2, 0), len(lanes)-rows)
	}
	var out []string
	for _, ln := range lanes[first:min(first+rows, len(lanes))] {
		out = append(out, l.row(ln, f.st))
	}
	return out
}
