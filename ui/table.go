package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// kindName is how the table names a milestone (timeline.Milestone.KindName), made safe for a
// terminal.
func kindName(m timeline.Milestone) string { return present.Safe(m.KindName()) }

// detail is the milestone's Detail, made safe for a terminal.
func detail(m timeline.Milestone) string { return present.Safe(m.Detail()) }

// tableWidths are the widths the milestone table's columns need over all the rows of a pod,
// measured once per pod, whatever the window's size.
type tableWidths struct {
	rows       int
	lane, kind int
	off, gap   spanSizer // the offsets and gaps of the rows the axis places
	date       int       // the widest date of a row it does not
	why        int       // the widest why (in bytes, at least its cells)
}

func measureTable(p *timeline.Pod, pt podTimes) tableWidths {
	rows := p.Rows()
	tw := tableWidths{rows: len(rows), lane: len("pod")}
	for i := range p.Containers {
		c := &p.Containers[i]
		for _, r := range c.Runs.Items() {
			if len(r.Milestones) > 0 {
				tw.lane = max(tw.lane, cellWidth(present.Safe(c.Name)))
				break
			}
		}
	}
	for i := range rows {
		r := &rows[i]
		m := r.Milestone
		tw.kind = max(tw.kind, kindWidth(m))
		tw.why = max(tw.why, len(m.Why))
		if !pt.placed(m.At) {
			tw.date = max(tw.date, len(pt.fmtAt(m.At)))
			continue
		}
		tw.off.add(pt.offset(m))
		if g := rowGap(rows, i, pt); g != nil {
			tw.gap.add(*g)
		}
	}
	return tw
}

// rowGap is row i's gap from the row before, or nil: the first row has none, and a gap to or
// from a time the axis does not place means nothing.
func rowGap(rows []timeline.Row, i int, pt podTimes) *timeline.Span {
	if i == 0 || rows[i].Gap == nil || !pt.placed(rows[i].Milestone.At) || !pt.placed(rows[i-1].Milestone.At) {
		return nil
	}
	return rows[i].Gap
}

// kindWidth is the width of kindName(m), without making it for a kind of the registry (whose
// names are plain ASCII, TestKindNamesArePlain).
func kindWidth(m *timeline.Milestone) int {
	info, ok := timeline.InfoOf(m.Kind)
	if !ok || m.Kind == timeline.MCondition {
		return cellWidth(kindName(*m))
	}
	n := len(info.Display)
	if m.Source == timeline.SourceInferred {
		n++
	}
	return n
}

// tableCols are the columns of the milestone table; a zero width drops a column.
type tableCols struct {
	offCol, gapCol                          spanCol
	offset, gap, lane, kind, detail, source int
	why                                     int
}

// newTableCols sizes the columns for rows that need tw in width cells. From 80 columns every
// column is there; from 60 the gaps lose their ± and the source goes (a kind ending in ? still
// marks inferred milestones); below that the gaps go too and offsets lose their ±.
func newTableCols(tw tableWidths, width int) tableCols {
	var c tableCols
	full, mid := width >= 80, width >= 60
	c.offCol, c.gapCol = tw.off.col("", mid), tw.gap.col("Δ", full)
	c.offset = max(c.offCol.width(), tw.date, len("OFFSET"))
	c.gap = max(c.gapCol.width(), len("GAP"))
	c.lane = min(max(len("CONTAINER"), tw.lane), 12)
	c.kind = min(max(tw.kind, len("MILESTONE")), 14)
	switch {
	case full:
		c.source = len("inferred")
	case mid:
		c.kind = min(c.kind, 12)
	default:
		c.gap = 0
		c.lane = min(c.lane, 9)
		c.kind = min(c.kind, 10)
	}
	used := 1 + c.offset + 1 + c.lane + 1 + c.kind + 1
	if c.gap > 0 {
		used += c.gap + 1
	}
	if c.source > 0 {
		used += c.source + 1
	}
	c.detail = max(width-used, 0)
	return c
}

// Room for the WHY column: it is shown when DETAIL keeps whyDetail cells and WHY gets whyMin,
// or with --explain whenever DETAIL had whyMin, taking half of it.
const (
	whyDetail = 40
	whyMin    = 30
)

// withWhy makes room for the WHY column, when the pod's milestones have a why and it fits, or
// when asked for (explain) and the table is not too narrow for it.
func (c tableCols) withWhy(tw tableWidths, explain bool) tableCols {
	switch {
	case tw.why == 0:
	case c.detail >= whyDetail+1+whyMin:
		c.why = min(tw.why, c.detail-whyDetail-1)
	case explain && c.detail >= whyMin:
		c.why = min(tw.why, c.detail/2)
	}
	if c.why > 0 {
		c.detail -= c.why + 1
	}
	return c
}

func laneName(lane string) string {
	if lane == "" {
		return "pod"
	}
	return present.Safe(lane)
}

// line lays out one row's cells; detail takes what is left before source (and why).
func (c tableCols) line(sel, offset, gap, lane, kind, detail, source, why string) string {
	var b strings.Builder
	b.WriteString(sel + pad(offset, c.offset) + " ")
	if c.gap > 0 {
		b.WriteString(pad(gap, c.gap) + " ")
	}
	b.WriteString(pad(lane, c.lane) + " " + pad(kind, c.kind) + " ")
	switch {
	case c.source > 0 && c.why > 0:
		b.WriteString(pad(detail, c.detail) + " " + pad(source, c.source) + " " + truncate(why, c.why))
	case c.source > 0:
		b.WriteString(pad(detail, c.detail) + " " + source)
	case c.why > 0:
		b.WriteString(pad(detail, c.detail) + " " + truncate(why, c.why))
	default:
		b.WriteString(truncate(detail, c.detail))
	}
	return b.String()
}

// renderTable draws pod p's milestone table in height rows (a heading and the milestones),
// scrolled to the cursor, or to the newest rows while there is no cursor. Only the rows shown
// are formatted. While the table is searched, the rows that match are marked.
func renderTable(f *frame, memo *navMemo, p *timeline.Pod, height int) []string {
	if height < 2 {
		return nil
	}
	rows := p.Rows()
	tw := f.cache.tableWidths(p)
	c := newTableCols(tw, f.width).withWhy(tw, f.explain)
	pt, _ := f.cache.podTimes(p)
	n := min(height-1, len(rows))
	first := len(rows) - n
	if f.view.cursor >= 0 {
		first = min(max(f.view.cursor-n/2, 0), len(rows)-n)
	}
	head := strings.TrimRight(c.line(" ", "OFFSET", "GAP", "CONTAINER", "MILESTONE", "DETAIL", "SOURCE", "WHY"), " ")
	if n < len(rows) {
		head = withPosition(head, first, n, len(rows), f.width)
	}
	out := []string{f.styled(sTableHeader, head)}
	var matches []int
	if q := f.view.search.query; q != "" && f.view.focus == focusMilestones {
		matches = memo.matches(focusMilestones, p, f.jobOf(p), q)
	}
	for i := first; i < first+n; i++ {
		out = append(out, tableRow(f, &c, rows, i, &pt, isMatch(matches, i)))
	}
	return out
}

// tableRow is the milestone table's line of rows[i]: marked when its lane is selected, when it
// matches the search and when the cursor is on it; an inferred row's kind and source muted.
func tableRow(f *frame, c *tableCols, rows []timeline.Row, i int, pt *podTimes, match bool) string {
	r := &rows[i]
	m := r.Milestone
	st := f.st
	sel, style, styled := " ", sHighlight, false
	if r.Lane == f.view.lane {
		sel, style, styled = st.Glyphs.Selected, sHighlight, true
	}
	if match {
		sel, style, styled = matchMark, sInfo, true
	}
	if i == f.view.cursor {
		sel, style, styled = st.Glyphs.Cursor, sCursor, true
	}
	source := present.Safe(string(m.Source))
	kind := kindName(*m)
	if m.Source == timeline.SourceInferred && !styled {
		source, kind = f.styled(sInferred, source), f.styled(sInferred, pad(kind, c.kind))
	}
	offset, gap := pt.fmtAt(m.At), ""
	if pt.placed(m.At) {
		offset = c.offCol.format(pt.offset(m))
	}
	if g := rowGap(rows, i, *pt); g != nil {
		gap = c.gapCol.format(*g)
	}
	why := ""
	if c.why > 0 && m.Why != "" {
		why = safeFields(m.Why)
	}
	line := strings.TrimRight(c.line(sel, offset, gap, laneName(r.Lane), kind, detail(*m), source, why), " ")
	if styled {
		line = f.styled(style, line)
	}
	return line
}

// withPosition ends a table's heading, at the right of width cells, with which of its total rows
// it shows: n from first (from 0), as "first+1-first+n of total".
func withPosition(head string, first, n, total, width int) string {
	pos := fmt.Sprintf("%d-%d of %d", first+1, first+n, total)
	room := width - len(pos) - 1
	if cellWidth(head) > room {
		head = strings.TrimRight(ansi.Truncate(head, room, ""), " ")
	}
	return pad(head, width-len(pos)) + pos
}
