package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// lanesWidths are the widths a pod's lane labels need, measured once per pod over all its
// containers, whatever the window's size.
type lanesWidths struct {
	name, restart, state int
}

func measureLanes(p *timeline.Pod) lanesWidths {
	var lw lanesWidths
	for i := range p.Containers {
		c := &p.Containers[i]
		lw.name = max(lw.name, cellWidth(present.Safe(c.Name)))
		if c.RestartCount > 0 {
			lw.restart = max(lw.restart, len(strconv.Itoa(int(c.RestartCount)))+2)
		}
		lw.state = max(lw.state, cellWidth(present.Safe(c.State)))
	}
	return lw
}

// laneLayout is the geometry of the lane rows: a label (cursor, name, kind tag, restarts),
// the bar on the time axis, and at wide sizes the lane's current state.
type laneLayout struct {
	nameW, tagW, restartW int
	labelW, barW, stateW  int
}

// newLaneLayout fits the lanes of a pod whose labels need lw (and its job's row) into width
// columns.
func newLaneLayout(lw lanesWidths, job *timeline.Job, width int) laneLayout {
	var l laneLayout
	maxName := 9
	switch {
	case width >= 100:
		maxName = 20
	case width >= 60:
		maxName = 14
	}
	l.nameW = max(len("pod"), lw.name)
	if job != nil {
		l.nameW = max(l.nameW, cellWidth(present.Safe(job.Name)))
	}
	l.restartW = lw.restart
	l.nameW = min(l.nameW, maxName)
	l.tagW = 4
	if width < 60 {
		l.tagW = 1
	}
	l.labelW = 1 + l.nameW + 1 + l.tagW + l.restartW + 1
	if width >= 100 {
		l.stateW = max(len("Completed"), lw.state) + 1
		l.stateW = min(l.stateW, 16+(width-100)/4)
	}
	l.barW = max(width-l.labelW-l.stateW, 1)
	return l
}

// lane is one row of the lane area before it is drawn.
type lane struct {
	name, tag, state string // made safe
	restarts         int32
	selected         bool
}

// label draws a lane's label column.
func (l laneLayout) label(f *frame, ln lane) string {
	cursor := " "
	name := pad(ln.name, l.nameW)
	if ln.selected {
		cursor = f.st.Glyphs.Cursor
		name = f.styled(sSelected, name)
	}
	tag := f.styled(sMuted, pad(ln.tag, l.tagW))
	r := ""
	if l.restartW > 0 {
		r = strings.Repeat(" ", l.restartW)
		if ln.restarts > 0 {
			text := padLeft(f.st.Glyphs.Restarts+strconv.Itoa(int(ln.restarts)), l.restartW)
			r = f.paint(ink{what: inkMarker, kind: timeline.MRestart}).render(text)
		}
	}
	return cursor + name + " " + tag + r + " "
}

// ends are what a lane's row draws around its bar: the label, and the state.
func (l laneLayout) ends(f *frame, ln lane) rowEnds {
	e := rowEnds{pre: l.label(f, ln)}
	if l.stateW > 0 {
		e.post = " " + f.styled(sMuted, truncate(ln.state, l.stateW-1))
	}
	return e
}

// containerBar draws pod p's container i: each column shows the state at the middle of the
// time it covers (nothing after end), and milestones overlay their columns. Only the segments
// and runs that reach into the window are read.
func containerBar(f *frame, p *timeline.Pod, ci int, w *window, end time.Time, ends rowEnds) string {
	segs := f.cache.segments(p, ci)
	b := newBar(f, w.width, ends)
	// k is the last segment that began by the cell's middle; the cells go forward in time.
	k := max(sort.Search(len(segs), func(i int) bool { return segs[i].From.After(w.start) })-1, 0)
	inkOf, inkK := uint16(0), -1 // the ink of segment inkK
	for i := 0; i < w.width && len(segs) > 0; i++ {
		t := w.middle(i)
		if t.After(end) {
			if w.cellStart(i).After(end) {
				break
			}
			t = end
		}
		for k+1 < len(segs) && !segs[k+1].From.After(t) {
			k++
		}
		seg := &segs[k]
		if seg.From.After(t) || (seg.To.IsZero() && t.After(end)) || (!seg.To.IsZero() && !t.Before(seg.To)) {
			continue
		}
		if inkK != k {
			inkOf, inkK = b.inkIndex(stateInk(seg)), k
		}
		b.cells[i] = cell{glyph: f.st.Glyphs.States[seg.State], ink: inkOf, prio: prioFill} // the first thing on the bar

	}
	b.placeLogs(f, f.cache.logs(p, ci), w)
	b.placeMarks(f.cache.marks(p, ci), w)
	return b.render(f)
}

// podBar draws the pod row: its STATUS stretches and its milestones, those in the window.
func podBar(f *frame, p *timeline.Pod, w *window, end time.Time, ends rowEnds) string {
	b := newBar(f, w.width, ends)
	b.placeMarks(f.cache.marks(p, -1), w)
	return textBar(f, b, podSegments(p, w), w, end)
}

// podSegments are the pod row's STATUS stretches that reach into the window: from the last
// that began by its start to the first that begins after its end.
func podSegments(p *timeline.Pod, w *window) []textSeg {
	ss := p.Statuses
	lo := max(sort.Search(len(ss), func(i int) bool { return ss[i].At.After(w.start) })-1, 0)
	hi := min(sort.Search(len(ss), func(i int) bool { return ss[i].At.After(w.end) })+1, len(ss))
	out := make([]textSeg, 0, max(hi-lo, 0))
	for _, s := range ss[lo:max(hi, lo)] {
		out = append(out, textSeg{s.At, present.Safe(s.Status)})
	}
	return out
}

// jobBar draws the job row: Running from its creation, then each terminal condition
// (Complete, Failed) or suspension.
func jobBar(f *frame, j *timeline.Job, w *window, end time.Time, ends rowEnds) string {
	b := newBar(f, w.width, ends)
	segs := []textSeg{{j.Created, "Running"}}
	for i := range j.Milestones {
		m := &j.Milestones[i]
		b.marker(m, w, timeline.MCreated)
		if m.Kind == timeline.MCondition && (m.Reason == "Complete" || m.Reason == "Failed" || m.Reason == "Suspended") {
			segs = append(segs, textSeg{m.At, m.Reason})
		}
	}
	return textBar(f, b, segs, w, end)
}

// maxLanes is the most lanes a frame draws, however tall the window: the rest are reached by
// moving the selection, which the lanes shown follow. A pod of 10,000 containers costs a frame
// what 64 lanes cost.
const maxLanes = 64

// laneCount is how many lane rows pod p has: its job's (when there is one), its own and its
// containers'.
func laneCount(p *timeline.Pod, job *timeline.Job) int {
	if job != nil {
		return 2 + len(p.Containers)
	}
	return 1 + len(p.Containers)
}

// renderLanes draws the job row (when there is one), the pod row and the container lanes, at
// most rows of them (and maxLanes), keeping the selected lane in view. Only the lanes shown
// are drawn. When not all are shown, the status line says which.
func renderLanes(f *frame, p *timeline.Pod, job *timeline.Job, l laneLayout, w *window, rows int) []string {
	end := f.liveEnd(p)
	n, podAt := laneCount(p, job), 0
	if job != nil {
		podAt = 1
	}
	rows = min(rows, maxLanes)
	selected := podAt + max(laneIndex(p, f.view.lane), 0)
	first := 0
	if n > rows {
		first = min(max(selected-rows/2, 0), n-rows)
		f.messages = append(f.messages, statusMessage{fmt.Sprintf("lanes %d–%d of %d (↑/↓)", first+1, first+rows, n), msgInfo})
	}
	var out []string
	for i := first; i < min(first+rows, n); i++ {
		var row string
		switch {
		case i < podAt:
			state := fmt.Sprintf("%s %d/%d/%d", present.Safe(job.Status), job.Active, job.Succeeded, job.Failed)
			ln := lane{name: present.Safe(job.Name), tag: kindTag("job", l.tagW < 4), state: state}
			row = jobBar(f, job, w, end, l.ends(f, ln))
		case i == podAt:
			ln := lane{name: "pod", state: present.Safe(p.Status), selected: f.view.lane == ""}
			row = podBar(f, p, w, end, l.ends(f, ln))
		default:
			c := &p.Containers[i-podAt-1]
			ln := lane{name: present.Safe(c.Name), tag: kindTag(c.Kind, l.tagW < 4), state: present.Safe(c.State),
				restarts: c.RestartCount, selected: f.view.lane == c.Name}
			row = containerBar(f, p, i-podAt-1, w, end, l.ends(f, ln))
		}
		out = append(out, row)
	}
	return out
}
