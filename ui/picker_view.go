package ui

import (
	"strconv"
	"strings"

	"github.com/sidecar-top/sidecar-top/present"
)

// render draws the pod picker in h lines: a title with the filter and the count, the
// column headings, and the pods around the cursor. Only the rows shown are drawn; the list and
// its column widths come from the memo, made once per snapshot and filter.
func (pk picker) render(f *frame, memo *navMemo, h int) []string {
	if h <= 0 {
		return nil
	}
	l := memo.pickerList(f.snap.Pods, pk.filter, pk.slowest)
	cur := l.at(pk.cursor)
	rows := max(h-2, 0)
	first := 0
	if len(l.rows) > rows {
		first = min(max(cur-rows/2, 0), len(l.rows)-rows)
	}
	out := []string{pk.title(f, l, first, rows)}
	if h == 1 {
		return out
	}
	c := newPickerCols(l, f.width)
	head := " " + pad("NAME", c.name) + " " + pad("STATUS", c.status) + " SLOWEST GAP"
	out = append(out, f.styled(sTableHeader, truncate(head, f.width)))
	switch {
	case l.total == 0:
		return append(out, "  "+f.styled(sMuted, "no pod yet"))
	case len(l.rows) == 0:
		return append(out, "  "+f.styled(sMuted, "no pod matches the filter"))
	}
	for i := first; i < min(first+rows, len(l.rows)); i++ {
		out = append(out, pickerRow(f, c, l.rows[i], i == cur))
	}
	return out
}

// title is the picker's first line: PODS, the filter and the order, and on the right how many
// pods are listed and which of them are shown, rows from first.
func (pk picker) title(f *frame, l *pickerList, first, rows int) string {
	title := f.styled(sTableHeader, "PODS")
	if pk.filter != "" || pk.typing {
		title += f.styled(sMuted, " · filter ") + present.Safe(pk.filter)
	}
	if pk.slowest {
		title += f.styled(sMuted, " · slowest gap first")
	}
	count := strconv.Itoa(len(l.rows)) + " pods"
	if len(l.rows) != l.total {
		count = strconv.Itoa(len(l.rows)) + " of " + strconv.Itoa(l.total) + " pods"
	}
	if len(l.rows) > rows && rows > 0 {
		count = strconv.Itoa(first+1) + "-" + strconv.Itoa(first+rows) + " of " + count
	}
	return joinRight(title, f.styled(sMuted, count), f.width)
}

// pickerRow is the picker's line of a pod: marked when it is the pod shown, and under the cursor.
func pickerRow(f *frame, c pickerCols, in *podInfo, cursor bool) string {
	sel, style, styled := " ", sHighlight, false
	if in.uid == f.view.pod {
		sel, styled = f.st.Glyphs.Selected, true
	}
	if cursor {
		sel, style, styled = f.st.Glyphs.Cursor, sCursor, true
	}
	status := f.statusStyled(in.status)
	if styled {
		status = in.status // the row's style applies to it all
	}
	if in.deleted {
		status += ", deleted"
	}
	gapValue := in.gapValue
	if in.slowest == nil {
		gapValue = "-"
	}
	line := strings.TrimRight(c.line(sel, in.name, status, gapValue, in.gapName), " ")
	if styled {
		line = f.styled(style, line)
	}
	return line
}

// pickerCols are the widths of the picker's columns.
type pickerCols struct{ name, status, gap, rest int }

func newPickerCols(l *pickerList, width int) pickerCols {
	c := pickerCols{name: min(l.nameW, max(width/3, 12)), status: min(l.statusW, 22), gap: max(l.gapW, 1)}
	if width < 60 {
		c.status = min(c.status, 12)
	}
	c.rest = max(width-1-c.name-1-c.status-1-c.gap-1, 0)
	return c
}

// line lays out one row of the picker.
func (c pickerCols) line(sel, name, status, gapValue, gapName string) string {
	s := sel + pad(name, c.name) + " " + pad(status, c.status) + " "
	if c.gap > 0 {
		s += padLeft(gapValue, c.gap) + " "
	}
	return s + truncate(gapName, c.rest)
}

// joinRight is left and right on one line of width cells, right at the end; left is cut to
// make room, and right goes when there is none.
func joinRight(left, right string, width int) string {
	room := width - cellWidth(right) - 1
	if room < cellWidth(left) && room < width/2 {
		return truncate(left, width)
	}
	return pad(truncate(left, room), width-cellWidth(right)) + right
}
