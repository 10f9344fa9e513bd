package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/sidecar-top/sidecar-top/fleet"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// fleetDrop is the order the table's columns go in when the window is too narrow for them all;
// POD stays, cut if it must be.
var fleetDrop = []fleet.Key{fleet.KeyNamespace, fleet.KeyOwner, fleet.KeyAppRestarts, fleet.KeyGap + 2,
	fleet.KeyAge, fleet.KeyGap + 1, fleet.KeySidecarRestarts, fleet.KeyGap, fleet.KeyFinding, fleet.KeyStatus}

// fleetMaxW caps a column's width; names beyond it end in an ellipsis, never a number.
var fleetMaxW = map[fleet.Key]int{fleet.KeyNamespace: 20, fleet.KeyPod: 40, fleet.KeyOwner: 32, fleet.KeyStatus: 24,
	fleet.KeyFinding: 28}

// renderFleet draws the fleet table in h lines: the counts, the column headings, and the rows
// around the cursor. Only the rows shown are formatted.
func renderFleet(f *frame, t *FleetTable, h int) []string {
	if h <= 0 {
		return nil
	}
	out := []string{fleetCounts(f, t)}
	rows := max(h-2, 0)
	first := 0
	if n := len(t.table.Rows); n > rows {
		first = min(max(t.at-rows/2, 0), n-rows)
	}
	shown := t.table.Rows[first:min(first+rows, len(t.table.Rows))]
	cells := make([][fleet.Keys]string, len(shown))
	for i, r := range shown {
		cells[i] = r.Cells(f.now)
	}
	cols, widths := fleetLayout(cells, f.width-2)
	head := make([]string, len(cols))
	for i, k := range cols {
		title := fleet.Titles[k]
		if k == t.view.Sort {
			title += map[bool]string{true: "↓", false: "↑"}[t.view.Desc]
		}
		head[i] = pad(title, widths[i])
	}
	out = append(out, f.styled(sTableHeader, "  "+strings.Join(head, " ")))
	if len(t.table.Rows) == 0 {
		return append(out, "  "+f.styled(sMuted, fleetEmpty(t)))
	}
	for i, r := range shown {
		out = append(out, fleetLine(f, t, r, cells[i], cols, widths, first+i == t.at))
	}
	return out
}

// fleetLine is one row of the table.
func fleetLine(f *frame, t *FleetTable, r *fleet.Row, c [fleet.Keys]string, cols []fleet.Key, widths []int, cursor bool) string {
	parts := make([]string, len(cols))
	for i, k := range cols {
		text := c[k]
		if k >= fleet.KeySidecarRestarts && k < fleet.KeyFinding {
			parts[i] = padLeftNumber(text, widths[i])
		} else {
			parts[i] = pad(text, widths[i])
		}
		if !cursor && k == fleet.KeyStatus {
			parts[i] = f.paint(ink{what: inkStatus, text: r.Status}).render(parts[i])
		}
		if !cursor && k == fleet.KeyFinding && r.Worst() != nil && r.Worst().Severity == timeline.SeverityWarning {
			parts[i] = f.styled(sWarning, parts[i])
		}
	}
	line := strings.TrimRight(strings.Join(parts, " "), " ")
	if cursor {
		return f.styled(sCursor, f.st.Glyphs.Cursor+" "+ansi.Strip(line))
	}
	return "  " + line
}

// padLeftNumber right-aligns a numeric cell; a cell too wide for its column is not cut inside
// a number: it keeps its first word (the value) whole.
func padLeftNumber(s string, width int) string {
	if cellWidth(s) > width {
		if v, _, ok := strings.Cut(s, " "); ok && cellWidth(v) <= width {
			s = v
		}
	}
	return padLeft(s, width)
}

// fleetLayout picks the columns that fit in width (dropping them in fleetDrop's order) and their
// widths: each as wide as its title or its widest cell shown, up to its cap.
func fleetLayout(cells [][fleet.Keys]string, width int) ([]fleet.Key, []int) {
	var w [fleet.Keys]int
	for k := range fleet.Keys {
		w[k] = cellWidth(fleet.Titles[k]) + 1
		for _, c := range cells {
			w[k] = max(w[k], cellWidth(c[k]))
		}
		if m, ok := fleetMaxW[fleet.Key(k)]; ok {
			w[k] = min(w[k], m)
		}
	}
	keep := make([]bool, fleet.Keys)
	total := -1
	for k := range fleet.Keys {
		keep[k], total = true, total+w[k]+1
	}
	for _, k := range fleetDrop {
		if total <= width {
			break
		}
		keep[k], total = false, total-w[k]-1
	}
	var cols []fleet.Key
	var widths []int
	for k := range fleet.Keys {
		if keep[k] {
			cols, widths = append(cols, fleet.Key(k)), append(widths, w[k])
		}
	}
	if total > width { // POD alone is too wide: cut it
		widths[slices.Index(cols, fleet.KeyPod)] -= total - width
	}
	return cols, widths
}

// fleetCounts is the table's first line: how many pods, of which shape, hidden, shown, and
// the findings by rule.
func fleetCounts(f *frame, t *FleetTable) string {
	c := t.counts()
	s := fmt.Sprintf("%d pods · %d native sidecar · %d classic", c.Pods, c.Native, c.Classic)
	if c.Hidden > 0 {
		s += fmt.Sprintf(" · %d without a sidecar hidden", c.Hidden)
	}
	if c.Forgotten > 0 {
		s += fmt.Sprintf(" · %d finished, past --keep-finished", c.Forgotten)
	}
	if t.filter != "" || t.typing {
		s += " · filter " + present.Safe(t.filter)
		if t.typing {
			s += "▏"
		}
		s += " (" + strconv.Itoa(c.Shown) + " shown)"
	}
	ids := make([]string, 0, len(c.Findings))
	for id := range c.Findings {
		ids = append(ids, string(id))
	}
	slices.Sort(ids)
	for i, id := range ids {
		ids[i] = present.Safe(id) + " " + strconv.Itoa(c.Findings[timeline.FindingID(id)])
	}
	if len(ids) > 0 {
		s += " · " + f.styled(sWarning, "findings: ") + strings.Join(ids, ", ")
	}
	return s
}

// fleetEmpty says why the table has no row.
func fleetEmpty(t *FleetTable) string {
	c := t.counts()
	switch {
	case c.Pods == 0:
		return "no pod yet"
	case c.Hidden == c.Pods:
		return "no pod with a sidecar (" + strconv.Itoa(c.Hidden) + " hidden)"
	case c.Hidden+c.Forgotten == c.Pods:
		return "no pod to show: " + strconv.Itoa(c.Forgotten) + " finished past --keep-finished, " + strconv.Itoa(c.Hidden) + " without a sidecar hidden"
	}
	return "no pod matches the filter"
}

// status is what the status line says over the table: the filter being typed, and which of the
// table's helps (for the memo) with the help itself, the root's keys that act over the table
// last.
func (t *FleetTable) status(f *frame) (lead string, what uint8, hints func() []key.Binding) {
	if t.typing {
		lead = "filter: " + present.Safe(t.filter) + typingCaret(f)
	}
	k := f.keys
	return lead, 8 + boolUint8(t.typing), func() []key.Binding {
		if t.typing {
			return []key.Binding{t.KeyMap.Accept, t.KeyMap.Clear}
		}
		return append(t.KeyMap.ShortHelp(), k.Summary, k.Help, k.Quit)
	}
}
