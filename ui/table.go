package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// kindName is how the table names a milestone kind; an inferred one ends in "?".
func kindName(m timeline.Milestone) string {
	k := string(m.Kind)
	switch m.Kind {
	case timeline.MContainersReady:
		k = "ctrs-ready"
	case timeline.MCondition:
		k = "job " + m.Reason
	}
	if m.Source == timeline.SourceInferred {
		k += "?"
	}
	return Safe(k)
}

// detail describes a milestone beyond its kind: reason, exit code and signal, restart number,
// event count; a message only when there is nothing else.
func detail(m timeline.Milestone) string {
	var parts []string
	generic := m.Kind == timeline.MExit && (m.Reason == "Error" || m.Reason == "Completed")
	if m.Reason != "" && m.Kind != timeline.MCondition && !generic {
		parts = append(parts, m.Reason)
	}
	switch {
	case m.ExitCode != nil && m.Signal != "":
		parts = append(parts, fmt.Sprintf("exit %d (%s)", *m.ExitCode, m.Signal))
	case m.ExitCode != nil:
		parts = append(parts, fmt.Sprintf("exit %d", *m.ExitCode))
	case m.Signal != "":
		parts = append(parts, m.Signal)
	}
	if m.Kind == timeline.MRestart && m.Attempt > 0 {
		parts = append(parts, fmt.Sprintf("#%d", m.Attempt))
	}
	if m.Count > 1 {
		parts = append(parts, fmt.Sprintf("×%d", m.Count))
	}
	if len(parts) == 0 && m.Message != "" {
		parts = append(parts, m.Message)
	}
	return safeFields(strings.Join(parts, ", "))
}

// gapText is a row's gap from the previous one, e.g. "Δ+0.25s ±0.50", or without the ±.
func gapText(gap *timeline.Span, plus bool) string {
	switch {
	case gap == nil:
		return ""
	case plus:
		return "Δ" + fmtSpan(*gap)
	default:
		return "Δ" + fmtSigned(gap.Value)
	}
}

// tableWidths are the widths the milestone table's columns need over all the rows of a pod,
// measured once per pod, whatever the window's size.
type tableWidths struct {
	rows                int
	lane, kind          int
	offset, offsetShort int // with and without the ±
	gap, gapShort       int
}

func measureTable(p *timeline.Pod) tableWidths {
	rows := p.Rows()
	tw := tableWidths{rows: len(rows), lane: len("pod")}
	for i := range p.Containers {
		c := &p.Containers[i]
		for _, r := range c.Runs {
			if len(r.Milestones) > 0 {
				tw.lane = max(tw.lane, cellWidth(Safe(c.Name)))
				break
			}
		}
	}
	var buf [64]byte
	width := func(b []byte) int { return utf8.RuneCount(b) } // offsets are ASCII, ± and Δ
	for i := range rows {
		r := &rows[i]
		m := r.Milestone
		tw.kind = max(tw.kind, kindWidth(m))
		b := appendSigned(buf[:0], m.Offset.Value)
		tw.offsetShort = max(tw.offsetShort, width(b))
		if plus := m.Offset.Plus(); plus > 0 {
			b = appendPlus(append(b, ' '), plus)
		}
		tw.offset = max(tw.offset, width(b))
		if r.Gap != nil {
			b = appendSigned(append(buf[:0], "Δ"...), r.Gap.Value)
			tw.gapShort = max(tw.gapShort, width(b))
			if plus := r.Gap.Plus(); plus > 0 {
				b = appendPlus(append(b, ' '), plus)
			}
			tw.gap = max(tw.gap, width(b))
		}
	}
	return tw
}

// kindWidth is the width of kindName(m), without making it when it is plain ASCII.
func kindWidth(m *timeline.Milestone) int {
	k := string(m.Kind)
	if m.Kind == timeline.MCondition || firstUnsafe(k) >= 0 || !isASCII(k) {
		return cellWidth(kindName(*m))
	}
	n := len(k)
	if m.Kind == timeline.MContainersReady {
		n = len("ctrs-ready")
	}
	if m.Source == timeline.SourceInferred {
		n++
	}
	return n
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// tableCols are the widths of the milestone table's columns; zero drops a column.
type tableCols struct{ offset, gap, lane, kind, detail, source int }

// newTableCols sizes the columns for rows that need tw in width cells. From 80 columns every
// column is there; from 60 the gaps lose their ± and the source goes (a kind ending in ? still
// marks inferred milestones); below that the gaps go too and offsets lose their ±.
func newTableCols(tw tableWidths, width int) tableCols {
	var c tableCols
	full, mid := width >= 80, width >= 60
	c.lane = max(len("CONTAINER"), tw.lane)
	c.kind = tw.kind
	c.offset, c.gap = tw.offsetShort, tw.gapShort
	if mid {
		c.offset = tw.offset
	}
	if full {
		c.gap = tw.gap
	}
	c.offset = max(c.offset, len("OFFSET"))
	c.kind = min(max(c.kind, len("MILESTONE")), 14)
	c.lane = min(c.lane, 12)
	c.gap = max(c.gap, len("GAP"))
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

func laneName(lane string) string {
	if lane == "" {
		return "pod"
	}
	return Safe(lane)
}

// line lays out one row's cells; detail takes what is left before source.
func (c tableCols) line(sel, offset, gap, lane, kind, detail, source string) string {
	var b strings.Builder
	b.WriteString(sel + pad(offset, c.offset) + " ")
	if c.gap > 0 {
		b.WriteString(pad(gap, c.gap) + " ")
	}
	b.WriteString(pad(lane, c.lane) + " " + pad(kind, c.kind) + " ")
	if c.source > 0 {
		b.WriteString(pad(detail, c.detail) + " " + source)
	} else {
		b.WriteString(truncate(detail, c.detail))
	}
	return b.String()
}

// renderTable draws pod p's milestone table in height rows (a heading and the milestones),
// scrolled to the cursor, or to the newest rows while there is no cursor. Only the rows shown
// are formatted.
func renderTable(f *frame, p *timeline.Pod, height int) []string {
	if height < 2 {
		return nil
	}
	st := f.st
	rows := p.Rows()
	c := newTableCols(f.cache.tableWidths(p), f.width)
	n := min(height-1, len(rows))
	first := len(rows) - n
	if f.view.cursor >= 0 {
		first = min(max(f.view.cursor-n/2, 0), len(rows)-n)
	}
	head := strings.TrimRight(c.line(" ", "OFFSET", "GAP", "CONTAINER", "MILESTONE", "DETAIL", "SOURCE"), " ")
	if n < len(rows) {
		pos := fmt.Sprintf("%d-%d of %d", first+1, first+n, len(rows))
		room := f.width - len(pos) - 1
		if lipgloss.Width(head) > room {
			head = strings.TrimRight(ansi.Truncate(head, room, ""), " ")
		}
		head = pad(head, f.width-len(pos)) + pos
	}
	out := []string{f.styled(sTableHeader, head)}
	for i := first; i < first+n; i++ {
		r := &rows[i]
		m := r.Milestone
		sel, style, styled := " ", sHighlight, false
		if r.Lane == f.view.lane {
			sel, style, styled = st.Glyphs.Selected, sHighlight, true
		}
		if i == f.view.cursor {
			sel, style, styled = st.Glyphs.Cursor, sCursor, true
		}
		source := Safe(string(m.Source))
		kind := kindName(*m)
		if m.Source == timeline.SourceInferred && !styled {
			source, kind = f.styled(sInferred, source), f.styled(sInferred, pad(kind, c.kind))
		}
		line := c.line(sel, fmtOffset(*m, f.width >= 60), gapText(r.Gap, c.source > 0), laneName(r.Lane), kind, detail(*m), source)
		line = strings.TrimRight(line, " ")
		if styled {
			line = f.styled(style, line)
		}
		out = append(out, line)
	}
	return out
}

// fmtOffset is a milestone's offset from creation, with its ± when there is room.
func fmtOffset(m timeline.Milestone, wide bool) string {
	if wide {
		return fmtSpan(m.Offset)
	}
	return fmtSigned(m.Offset.Value)
}
