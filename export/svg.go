package export

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// WriteSVG draws the lanes as a picture, as the terminal view shows them and in its colours: for
// each job its conditions, for each pod a header, its STATUS row and a lane per container, each
// stretch of a lane shaded by state, each milestone marked with the view's glyph and, under it,
// a whisker over the interval it certainly lies in; a time axis below, shared by every pod, and
// above as well when the lanes are taller than a screen; under them the legend, each pod's named
// gaps and the findings. The picture is as wide as its names and headers need, and at least
// svgWidth. Hovering over a mark shows its offset, bound, source and detail (an SVG title).
//
// Every text from the cluster is made safe for the eye (present.Safe) and then XML-escaped.
func WriteSVG(w io.Writer, in Input) error {
	d := newSVGDrawing(in)
	b := bufio.NewWriter(w)
	d.write(b)
	return b.Flush()
}

// The picture's geometry, in pixels: a 12 px monospace font is about 7.2 px a character.
const (
	svgWidth   = 1000.0 // the least width of a picture
	svgAxisMin = 640.0  // the least length of the time axis
	svgLabelW  = 64     // the most characters of a lane's label before it is cut
	svgTall    = 20     // the rows of lanes past which the axis is drawn above them too
	svgPad     = 16.0
	svgRow     = 22.0
	svgBar     = 12.0
	svgCharW   = 7.2
	svgFont    = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace"
	svgTickGap = 70.0 // the least room between axis ticks
)

type svgDrawing struct {
	in     Input
	pal    palette
	glyphs present.Glyphs
	s      span
	x0, x1 float64 // the time axis' left and right ends
	width  float64
	body   strings.Builder
	y      float64
}

func newSVGDrawing(in Input) *svgDrawing {
	d := &svgDrawing{in: in, pal: newPalette(), glyphs: present.UnicodeGlyphs(), s: snapshotSpan(in.Snapshot)}
	label := len("pod")
	for _, p := range in.Snapshot.Pods.Items() {
		for _, c := range p.Containers {
			label = max(label, utf8.RuneCountInString(safe(c.Name))+len(" side"))
		}
	}
	heads := utf8.RuneCountInString(safe(d.title()))
	for _, j := range in.Snapshot.Jobs {
		label = max(label, utf8.RuneCountInString(safe(j.Name))+len("job "))
		heads = max(heads, utf8.RuneCountInString(safe(jobHead(j))))
	}
	for _, p := range in.Snapshot.Pods.Items() {
		heads = max(heads, utf8.RuneCountInString(safe(podHead(p))))
	}
	d.x0 = svgPad + float64(min(label, svgLabelW))*svgCharW + 12
	d.width = max(svgWidth, d.x0+svgAxisMin+svgPad, 2*svgPad+float64(heads)*svgCharW)
	d.x1 = d.width - svgPad
	return d
}

// title is the picture's first line: the tool, the target and its namespace.
func (d *svgDrawing) title() string {
	title := "sidecar-top"
	if a := d.in.About; a.Target != "" {
		title += "  " + a.Target
		if a.Namespace != "" {
			title += " in " + a.Namespace
		}
	}
	return title
}

// laneRows is how many rows of lanes the picture has.
func (d *svgDrawing) laneRows() int {
	n := 2 * len(d.in.Snapshot.Jobs)
	for _, p := range d.in.Snapshot.Pods.Items() {
		n += 2 + len(p.Containers)
	}
	return n
}

// x is the horizontal position of t on the axis.
func (d *svgDrawing) x(t time.Time) float64 {
	total := d.s.end.Sub(d.s.origin)
	f := float64(t.Sub(d.s.origin)) / float64(total)
	return d.x0 + min(max(f, 0), 1)*(d.x1-d.x0)
}

func (d *svgDrawing) printf(format string, args ...any) { fmt.Fprintf(&d.body, format, args...) }

// text writes a line of text at (x, y) in colour fill; s is escaped here.
func (d *svgDrawing) text(x, y float64, fill, s string, extra string) {
	d.printf(`<text x="%.1f" y="%.1f" fill="%s"%s>%s</text>`+"\n", x, y, fill, extra, esc(s))
}

func (d *svgDrawing) write(b *bufio.Writer) {
	d.y = svgPad + 14
	title := d.title()
	d.text(svgPad, d.y, d.pal.title, title, ` font-weight="bold"`)
	d.y += svgRow
	if d.laneRows() > svgTall {
		d.axisLabels(d.y - 4)
		d.y += svgRow - 4
	}
	top := d.y
	for _, j := range d.in.Snapshot.Jobs {
		d.job(j)
	}
	for _, p := range d.in.Snapshot.Pods.Items() {
		d.pod(p)
	}
	d.axis(top)
	d.legend()
	d.notes()
	height := d.y + svgPad
	fmt.Fprintf(b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="%s" font-size="12">`+"\n",
		d.width, height, d.width, height, svgFont)
	fmt.Fprintf(b, "<title>%s</title>\n", esc(title))
	fmt.Fprintf(b, `<rect x="0" y="0" width="%.0f" height="%.0f" fill="%s"/>`+"\n", d.width, height, d.pal.background)
	b.WriteString(d.body.String())
	b.WriteString("</svg>\n")
}

// jobHead is a job's header line.
func jobHead(j *timeline.Job) string {
	return fmt.Sprintf("job %s · %s (active %d, succeeded %d, failed %d)", j.Name, j.Status, j.Active, j.Succeeded, j.Failed)
}

// podHead is a pod's header line.
func podHead(p *timeline.Pod) string {
	head := fmt.Sprintf("pod %s · %s · phase %s", p.Name, p.Status, p.Phase)
	if p.Node != "" {
		head += " · node " + p.Node
	}
	if p.Owner != nil {
		head += " · " + p.Owner.String()
	}
	if p.Deleted {
		head += " · deleted"
	}
	return head
}

func (d *svgDrawing) job(j *timeline.Job) {
	d.text(svgPad, d.y, d.pal.text, jobHead(j), ` font-weight="bold"`)
	d.y += svgRow
	mid := d.y - 4
	d.text(svgPad, d.y, d.pal.muted, "job "+j.Name, "")
	s := jobSpan(j)
	d.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1"/>`+"\n",
		d.x(j.Created), mid, d.x(s.end), mid, d.pal.faint)
	for i := range j.Milestones {
		if m := &j.Milestones[i]; s.placed(m.At) && m.Kind != timeline.MCreated {
			d.mark(m, mid)
		}
	}
	d.y += svgRow
}

func (d *svgDrawing) pod(p *timeline.Pod) {
	s := podSpan(p)
	d.text(svgPad, d.y, d.pal.text, podHead(p), ` font-weight="bold"`)
	d.y += svgRow

	// The pod row: a line per STATUS, its text above it, and the pod's milestones.
	mid := d.y - 4
	d.text(svgPad, d.y, d.pal.muted, "pod", "")
	for _, st := range statusSegments(p, s) {
		x0, x1 := d.x(st.From), d.x(st.To)
		d.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`+"\n", x0, mid, x1, mid, d.statusColor(st.Status))
		if room := x1 - x0 - 4; room >= 3*svgCharW {
			text := safe(st.Status)
			if n := int(room / svgCharW); utf8.RuneCountInString(text) > n {
				text = string([]rune(text)[:n-1]) + "…"
			}
			d.text(x0+2, mid-5, d.statusColor(st.Status), text, ` font-size="10"`)
		}
	}
	for _, m := range p.Milestones.All() {
		if m.Kind != timeline.MCreated && s.placed(m.At) {
			d.mark(m, mid+4)
		}
	}
	d.y += svgRow

	for ci := range p.Containers {
		d.lane(&p.Containers[ci], s)
	}
	d.y += svgRow / 2
}

// lane draws one container's lane: its label, its stretches by state, its milestones.
func (d *svgDrawing) lane(c *timeline.Container, s span) {
	mid := d.y - 4
	label := safe(c.Name)
	if n := int((d.x0-svgPad-12)/svgCharW) - len(" side"); utf8.RuneCountInString(label) > n {
		label = string([]rune(label)[:max(n-1, 1)]) + "…"
	}
	d.text(svgPad, d.y, d.pal.text, label, "")
	d.text(svgPad+float64(utf8.RuneCountInString(label)+1)*svgCharW, d.y, d.pal.muted, textfmt.KindTag(c.Kind), "")
	for _, g := range c.Segments() {
		if !s.placed(g.From) {
			continue
		}
		x0, x1 := d.x(g.From), d.x(segmentEnd(g, s))
		color := d.pal.states[g.State]
		tip := fmt.Sprintf("%s %s: %s → %s", c.Name, g.State, offsetText(g.From, s.origin), offsetText(segmentEnd(g, s), s.origin))
		if g.Reason != "" {
			tip = fmt.Sprintf("%s %s (%s): %s → %s", c.Name, g.State, g.Reason, offsetText(g.From, s.origin), offsetText(segmentEnd(g, s), s.origin))
		}
		switch g.State {
		case timeline.StatePending:
			d.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2" stroke-dasharray="1 4"><title>%s</title></line>`+"\n",
				x0, mid, x1, mid, color, esc(tip))
		case timeline.StateTerminated:
			if badReason(g.Reason) {
				color = d.pal.failed
			}
			d.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"><title>%s</title></line>`+"\n",
				x0, mid, x1, mid, color, esc(tip))
		default:
			d.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" fill-opacity="%.2f"><title>%s</title></rect>`+"\n",
				x0, mid-svgBar/2, max(x1-x0, 0.5), svgBar, color, stateOpacity[g.State], esc(tip))
		}
	}
	for _, m := range c.Milestones() {
		if m.Kind != timeline.MCreated && m.Kind != timeline.MWaiting && s.placed(m.At) {
			d.mark(&m, mid)
		}
	}
	d.y += svgRow
}

// mark draws milestone m at height mid: the whisker over [earliest, latest] under it, then its
// glyph, with a title that says what it is.
func (d *svgDrawing) mark(m *timeline.Milestone, mid float64) {
	color, ok := d.pal.markers[m.Kind]
	if !ok {
		color = d.pal.muted
	}
	if m.Failed() && m.Source != timeline.SourceInferred {
		color = d.pal.failed
	}
	if !m.Earliest.IsZero() && !m.Latest.IsZero() && m.Latest.After(m.Earliest) {
		lo, hi, wy := d.x(m.Earliest), d.x(m.Latest), mid+svgBar/2+2
		d.printf(`<path d="M%.1f %.1fv-3M%.1f %.1fH%.1fM%.1f %.1fv-3" stroke="%s" stroke-width="1" fill="none"/>`+"\n",
			lo, wy, lo, wy-1.5, hi, hi, wy, color)
	}
	tip := m.KindName()
	if m.Container != "" {
		tip = m.Container + " " + tip
	}
	tip += " " + textfmt.Span(m.Offset) + " (" + string(m.Source) + ")"
	if det := m.Detail(); det != "" {
		tip += ": " + det
	}
	attrs := ""
	if d.pal.bold[m.Kind] && m.Source != timeline.SourceInferred {
		attrs = ` font-weight="bold"`
	}
	if m.Source == timeline.SourceInferred {
		attrs = ` font-style="italic" fill-opacity="0.7"`
	}
	d.printf(`<text x="%.1f" y="%.1f" fill="%s" font-size="14" text-anchor="middle"%s>%s<title>%s</title></text>`+"\n",
		d.x(m.At), mid+5, color, attrs, esc(d.glyphs.Marker(m)), esc(tip))
}

// axis draws the time axis under the rows, with a faint line up through them at each tick.
func (d *svgDrawing) axis(top float64) {
	for _, off := range d.ticks() {
		x := d.x(d.s.origin.Add(off))
		d.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="0.5" stroke-dasharray="2 3"/>`+"\n",
			x, top, x, d.y-4, d.pal.faint)
	}
	d.axisLabels(d.y + 8)
	d.y += svgRow + 8
}

// axisLabels writes the axis' tick labels on the line at y.
func (d *svgDrawing) axisLabels(y float64) {
	for _, off := range d.ticks() {
		d.text(d.x(d.s.origin.Add(off)), y, d.pal.muted, textfmt.Tick(off), ` text-anchor="middle"`)
	}
}

// ticks are the axis' ticks, as offsets from its origin.
func (d *svgDrawing) ticks() []time.Duration {
	return ticks(d.s.end.Sub(d.s.origin), int(d.x1-d.x0), int(svgTickGap))
}

// legend explains the glyphs and the shading, as the view's short legend does (present.Legend),
// on as many lines as the picture's width needs; a lane state is a shaded box, as on the lanes.
func (d *svgDrawing) legend() {
	x := svgPad
	for _, it := range present.Legend(false) {
		if it.Of == present.OfLogLines {
			continue // the picture does not draw log lines
		}
		w := float64(len(it.Label)+3) * svgCharW
		if it.Of == present.OfState {
			w = 18 + float64(len(it.Label)+2)*svgCharW
		}
		if x+w > d.x1+svgPad && x > svgPad {
			x, d.y = svgPad, d.y+svgRow-4
		}
		d.legendItem(x, it)
		x += w
	}
	d.y += 4
}

// legendItem draws one item of the legend at x.
func (d *svgDrawing) legendItem(x float64, it present.LegendItem) {
	switch it.Of {
	case present.OfState:
		d.printf(`<rect x="%.1f" y="%.1f" width="14" height="10" fill="%s" fill-opacity="%.2f"/>`, x, d.y-9, d.pal.states[it.State], stateOpacity[it.State])
		d.text(x+18, d.y, d.pal.muted, it.Label, "")
		return
	case present.OfInferred:
		d.text(x, d.y, d.pal.muted, d.glyphs.Inferred+" "+it.Label, ` font-style="italic"`)
		return
	}
	color := d.pal.markers[it.Kind]
	if it.Of == present.OfFailed {
		color = d.pal.failed
	}
	d.printf(`<text x="%.1f" y="%.1f" fill="%s">%s</text>`, x, d.y, color, esc(d.glyphs.Glyph(it)))
	d.text(x+svgCharW+3, d.y, d.pal.muted, it.Label, "")
}

// statusColor colours a STATUS text as the view does (present.StatusOf).
func (d *svgDrawing) statusColor(status string) string {
	state, failed, ok := present.StatusOf(status)
	switch {
	case failed:
		return d.pal.failed
	case ok:
		return d.pal.states[state]
	}
	return d.pal.muted
}

// badReason reports whether a termination reason means something went wrong.
func badReason(r string) bool {
	return r != "" && r != "Completed" && r != "ContainerCreating" && r != "PodInitializing" && !strings.HasPrefix(r, "exit 0")
}

// esc makes text from the cluster safe for the eye (present.Safe) and for XML: markup characters
// escaped, and characters XML does not allow replaced.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(safe(s)))
	return b.String()
}
