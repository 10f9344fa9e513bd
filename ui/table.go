package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// msRow is one row of the milestone table: a milestone, the lane it is on, and its gap from the
// row before.
type msRow struct {
	m    timeline.Milestone
	lane string // the container's name; empty for the pod row
	kind timeline.ContainerKind
	gap  *timeline.Span
}

// milestoneRows lists a pod's milestones, its own and its containers', in the timeline's order
// (the one each milestone's gap refers to).
func milestoneRows(p *timeline.Pod) []msRow {
	rows := make([]msRow, 0, len(p.Rows()))
	for _, r := range p.Rows() {
		rows = append(rows, msRow{m: *r.Milestone, lane: r.Lane, kind: r.Kind, gap: r.Gap})
	}
	return rows
}

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
	return k
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
	return strings.Join(parts, ", ")
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

// tableCols are the widths of the milestone table's columns; zero drops a column.
type tableCols struct{ offset, gap, lane, kind, detail, source int }

// newTableCols sizes the columns for rows in width cells. From 80 columns every column is
// there; from 60 the gaps lose their ± and the source goes (a kind ending in ? still marks
// inferred milestones); below that the gaps go too and offsets lose their ±.
func newTableCols(rows []msRow, width int) tableCols {
	var c tableCols
	full, mid := width >= 80, width >= 60
	c.lane = len("CONTAINER")
	for _, r := range rows {
		c.lane = max(c.lane, lipgloss.Width(laneName(r.lane)))
		c.kind = max(c.kind, lipgloss.Width(kindName(r.m)))
		c.offset = max(c.offset, lipgloss.Width(fmtOffset(r.m, mid)))
		c.gap = max(c.gap, lipgloss.Width(gapText(r.gap, full)))
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
	return lane
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

// renderTable draws the milestone table in height rows (a heading and the milestones),
// scrolled to the cursor, or to the newest rows while there is no cursor.
func renderTable(f *frame, rows []msRow, height int) []string {
	if height < 2 {
		return nil
	}
	st := f.st
	c := newTableCols(rows, f.width)
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
	out := []string{st.TableHeader.Render(head)}
	for i := first; i < first+n; i++ {
		r := rows[i]
		sel, style := " ", (*lipgloss.Style)(nil)
		if r.lane == f.view.lane {
			sel, style = st.Glyphs.Selected, &st.Highlight
		}
		if i == f.view.cursor {
			sel, style = st.Glyphs.Cursor, &st.Cursor
		}
		styled := style != nil
		source := string(r.m.Source)
		kind := kindName(r.m)
		if r.m.Source == timeline.SourceInferred && !styled {
			source, kind = st.Inferred.Render(source), st.Inferred.Render(pad(kind, c.kind))
		}
		line := c.line(sel, fmtOffset(r.m, f.width >= 60), gapText(r.gap, c.source > 0), laneName(r.lane), kind, detail(r.m), source)
		line = strings.TrimRight(line, " ")
		if styled {
			line = style.Render(line)
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
