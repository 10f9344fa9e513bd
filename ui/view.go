package ui

import (
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The smallest window the view is drawn in; anything smaller gets a one-line note.
const (
	MinWidth  = 40
	MinHeight = 10
)

// View draws the model. It is empty until the first window size arrives.
func (m Model) View() string {
	if m.width == 0 && m.height == 0 {
		return ""
	}
	f := m.frameView()
	if text := idleText(m.frame.Replay); text != "" {
		f.messages = append([]statusMessage{{text, msgInfo}}, f.messages...)
	}
	return render(&f, m.navMemo())
}

// render draws a frame: header, body and status line, exactly height lines of at most width
// cells each. The body is the pod picker, the help, or the pod's lanes and tables; memo holds
// what the picker and the search derive from the snapshot.
func render(f *frame, memo *navMemo) string {
	if f.width < MinWidth || f.height < MinHeight {
		return tooSmall(f.width, f.height)
	}
	p := f.pod()
	if f.fleet != nil {
		p = nil // the table, not a pod
	}
	lines := renderHeader(f, p)
	h := f.height - len(lines) - 1
	switch {
	case f.picker.open:
		lines = append(lines, f.picker.render(f, memo, h)...)
	case f.helpScreen.open:
		lines = append(lines, f.helpScreen.render(f, h)...)
	case f.summary.open:
		lines = append(lines, f.summary.render(f, memo, h)...)
	case f.fleet != nil:
		lines = append(lines, renderFleet(f, f.fleet, h)...)
	case p == nil:
		lines = append(lines, renderWaiting(f, h)...)
	case p.Brief:
		// A scope's pod opened a moment ago: its brief, until the frame with it whole.
		lines = append(lines, "", "  "+f.spinner+" deriving the pod's timeline…")
	case f.inspector.open:
		lines = append(lines, f.inspector.render(f, p, h)...)
	default:
		lines = append(lines, renderBody(f, memo, p, h)...)
	}
	for len(lines) < f.height-1 {
		lines = append(lines, "")
	}
	lines = append(lines[:f.height-1], statusLine(f, memo, p))
	for i, l := range lines {
		lines[i] = truncate(l, f.width)
	}
	return strings.Join(lines, "\n")
}

// tooSmall is the one line shown in a window smaller than MinWidth×MinHeight: the longest
// wording that fits.
func tooSmall(w, h int) string {
	for _, s := range []string{
		fmt.Sprintf("terminal too small (%dx%d): sidecar-top needs at least %dx%d", w, h, MinWidth, MinHeight),
		fmt.Sprintf("terminal too small: %dx%d, need %dx%d", w, h, MinWidth, MinHeight),
		fmt.Sprintf("too small: need %dx%d", MinWidth, MinHeight),
		fmt.Sprintf("need %dx%d", MinWidth, MinHeight),
	} {
		if len(s) <= w {
			return s
		}
	}
	return truncate(fmt.Sprintf("need %dx%d", MinWidth, MinHeight), w)
}

// renderWaiting is the body before any pod is seen.
func renderWaiting(f *frame, h int) []string {
	var text string
	switch {
	case f.mode == Live:
		text = f.spinner + " " + waitingText(present.Safe(f.target), present.Safe(f.namespace))
	case f.replay.empty:
		text = "the recording is empty"
	default:
		text = "no pod yet at this point of the recording"
	}
	out := []string{"", "  " + text, ""}
	origin := time.Time{}
	for _, j := range f.snap.Jobs {
		out = append(out, fmt.Sprintf("  job %s: %s (active %d, succeeded %d, failed %d)",
			f.styled(sText, present.Safe(j.Name)), present.Safe(j.Status), j.Active, j.Succeeded, j.Failed))
		origin = j.Created
	}
	evs := f.snap.Events()
	if len(evs) > 0 && origin.IsZero() {
		origin = evs[0].At
	}
	if rest := h - len(out) - 1; rest >= 2 {
		out = append(out, "")
		out = append(out, renderEvents(f, evs, timesFrom(origin, f.now), rest, 0)...)
	}
	return out
}

// section is a part of the body below the lanes that can shrink or go: it is drawn only if it
// gets at least min lines, and gets up to want.
type section struct{ min, want int }

// allocate shares avail lines among sections: first each its min, in order, while they fit
// (the last ones go first when the window is short), then more in grow order up to want.
func allocate(avail int, secs []section, grow []int) []int {
	got := make([]int, len(secs))
	for i, s := range secs {
		if s.want > 0 && s.min <= avail {
			got[i] = s.min
			avail -= s.min
		}
	}
	for _, i := range grow {
		if got[i] == 0 && secs[i].min > 0 {
			continue
		}
		more := min(secs[i].want-got[i], avail)
		if more > 0 {
			got[i] += more
			avail -= more
		}
	}
	return got
}

// Body sections, in the order they are given lines.
const (
	secTable = iota
	secLegend
	secNotes
	secEvents
	secGap
	numSections
)

// bodyHeight is the lines the body gets under the header, above the status line.
func bodyHeight(f *frame, p *timeline.Pod) int {
	if p == nil {
		return f.height - 2 // renderHeader draws one line without a pod
	}
	return f.height - 3
}

// bodyLayout is how a body of h lines is shared: the lane rows, the axis, then the sections.
type bodyLayout struct {
	lanes    int              // lane rows drawn
	rest     int              // the lines under the axis
	got      [numSections]int // each section's lines
	legend   []string
	findings []string
}

// layoutBody shares h lines among pod p's lanes and the sections under them, without drawing
// them: the keys that page a table need the table's height too.
func layoutBody(f *frame, p *timeline.Pod, job *timeline.Job, h int) bodyLayout {
	lay := bodyLayout{lanes: max(min(laneCount(p, job), h-1, maxLanes), 0)}
	lay.rest = h - lay.lanes - 1
	if lay.rest <= 0 {
		return lay // the lanes take it all: nothing below them is worked out
	}
	rows := rowCount(p)
	lay.findings = findingLines(f, podFindings(f.snap, p, job), p.Name, lay.rest)
	nEvents := p.Events.Len()
	if job != nil {
		nEvents += job.Events.Len()
	}
	lay.legend = f.cache.linesFor(linesKey{linesLegend, f.width}, func() []string {
		return wrapItems(legendItems(f.st, false, ""), f.width-1, 2, "  ")
	})
	gapLines := len(renderGaps(f, p.Gaps, len(p.Gaps)))
	notes := gapLines + len(lay.findings)

	secs := make([]section, numSections)
	secs[secTable] = section{min: min(7, 1+rows), want: 1 + rows}
	secs[secLegend] = section{min: 1, want: len(lay.legend)}
	secs[secNotes] = section{min: min(2, notes), want: notes}
	secs[secEvents] = section{min: min(3, 1+nEvents), want: 1 + nEvents}
	if nEvents == 0 {
		secs[secEvents] = section{}
	}
	secs[secGap] = section{min: 0, want: 1}
	// Beyond their minimum the gaps and findings grow first, then the table (which scrolls),
	// the events, the legend and a blank line above the table; the Events before the table when
	// they are in focus.
	grow := []int{secNotes, secTable, secEvents, secLegend, secGap}
	if f.view.focus == focusEvents {
		grow[1], grow[2] = secEvents, secTable
	}
	copy(lay.got[:], allocate(lay.rest, secs, grow))
	return lay
}

// renderBody draws the lanes on their axis and, as height allows, the legend, the milestone
// table with the gaps and findings, and the recent events.
func renderBody(f *frame, memo *navMemo, p *timeline.Pod, h int) []string {
	job := f.jobOf(p)
	l := newLaneLayout(f.cache.laneWidths(p), job, f.width)
	start, end := f.axisSpan(p, job)
	w := newWindow(start, end, l.barW)
	noteTimes(f, p)
	lay := layoutBody(f, p, job, h)
	out := renderLanes(f, p, job, l, &w, min(laneCount(p, job), h-1))
	out = append(out, pad(f.styled(sMuted, axisInfo(f)), l.labelW)+renderAxis(f, &w, f.times(p).origin))
	if lay.rest <= 0 {
		return out
	}
	got := lay.got
	if got[secLegend] > 0 {
		for _, s := range lay.legend[:got[secLegend]] {
			out = append(out, " "+s)
		}
	}
	if got[secGap] > 0 {
		out = append(out, "")
	}
	out = append(out, renderTable(f, memo, p, got[secTable])...)
	if n := got[secNotes]; n > 0 {
		nf := min(len(lay.findings), n) // findings first when short: they carry the warnings
		out = append(out, renderGaps(f, p.Gaps, n-nf)...)
		out = append(out, lay.findings[:nf]...)
	}
	if got[secEvents] > 0 {
		out = append(out, renderPodEvents(f, memo, p, job, got[secEvents])...)
	}
	return out
}

// noteTimes says in the status line when some of pod p's times are not where they should be.
func noteTimes(f *frame, p *timeline.Pod) {
	pt, off := f.cache.podTimes(p)
	if pt.noCreation {
		f.messages = append(f.messages, statusMessage{"no creation time: offsets from when first seen", msgInfo})
	}
	switch {
	case off == 1:
		f.messages = append(f.messages, statusMessage{"1 milestone over a day off is not on the axis", msgInfo})
	case off > 1:
		f.messages = append(f.messages, statusMessage{fmt.Sprintf("%d milestones over a day off are not on the axis", off), msgInfo})
	}
}

// podFindings are the pod's findings and its job's, less those the job repeats from this pod,
// one by one: the view reads only as many as it shows (taking all of a 1,000-pod Job's each
// frame had been most of the frame).
func podFindings(s timeline.Snapshot, p *timeline.Pod, job *timeline.Job) iter.Seq[*timeline.Finding] {
	return func(yield func(*timeline.Finding) bool) {
		fs := p.Findings()
		for i := range fs {
			if !yield(&fs[i]) {
				return
			}
		}
		if job == nil {
			return
		}
		for f := range s.JobWarnings(job) {
			if f.Pod != p.Name && !yield(f) {
				return
			}
		}
	}
}
