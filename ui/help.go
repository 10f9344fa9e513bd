package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// helpScreen is the `?` screen: every key, the legend and how to read the view, scrolled when it
// does not fit. It takes the keys that scroll it and esc; the root acts on the others, so the
// lanes' keys still work under it.
type helpScreen struct {
	keys helpKeyMap
	open bool
	top  int // the first line shown, when the screen does not fit
}

// helpKeyMap are the help screen's keys.
type helpKeyMap struct {
	Up, Down, PageUp, PageDown key.Binding // scroll a line or a page
	Close                      key.Binding
}

func newHelpScreen(k KeyMap) helpScreen {
	return helpScreen{keys: helpKeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Close: k.Cancel}}
}

// toggle shows the screen from its top, or hides it.
func (s helpScreen) toggle() helpScreen {
	s.open, s.top = !s.open, 0
	return s
}

// Update scrolls the screen, page lines at a time for a page, within its lines (which it asks for
// only when it scrolls), or closes it; it reports whether the key was one of its own.
func (s helpScreen) Update(msg tea.KeyMsg, page int, lines func() int) (helpScreen, bool) {
	k, d := s.keys, 0
	switch {
	case key.Matches(msg, k.Close):
		s.open = false
		return s, true
	case key.Matches(msg, k.Up):
		d = -1
	case key.Matches(msg, k.Down):
		d = 1
	case key.Matches(msg, k.PageUp):
		d = -max(page-1, 1)
	case key.Matches(msg, k.PageDown):
		d = max(page-1, 1)
	default:
		return s, false
	}
	s.top = min(max(s.top+d, 0), max(lines()-page, 0))
	return s, true
}

// render is the screen in h lines, scrolled to the line the user chose when it does not fit.
func (s helpScreen) render(f *frame, h int) []string {
	if h <= 0 {
		return nil
	}
	lines := helpLines(f)
	top := min(max(s.top, 0), max(len(lines)-h, 0))
	out := lines[top:min(top+h, len(lines))]
	if top+h < len(lines) {
		out = append(out[:h-1:h-1], " "+f.styled(sMuted, "… more below: ↓/pgdn, esc closes"))
	}
	return out
}

// helpLines are the whole `?` screen: the keys, the legend and how to read the table.
func helpLines(f *frame) []string {
	out := []string{""}
	out = append(out, keyColumns(f)...)
	out = append(out, "")
	for _, s := range wrapItems(legendItems(f.st, true, " "), f.width-1, 4, "  ") {
		out = append(out, " "+s)
	}
	text := []string{
		"OFFSET is from the pod's creation, Δ from the previous milestone; ± is how far the true " +
			"time can be from the one shown. A " + f.st.Glyphs.Inferred + " on a lane, or a milestone ending in ?, " +
			"is inferred: nobody reported it, it follows from the kubelet's rules.",
		"P lists every pod with its STATUS and its slowest named gap; / there filters them by name, " +
			"STATUS or node. / searches the table in focus (e switches between the milestones and the Events): " +
			"rows that match are marked " + matchMark + ", n and N go from one to the next. While a search or a " +
			"filter is typed, q is a letter: enter or esc ends the typing, and ctrl+c always quits.",
	}
	if f.mode == Replay {
		text = append(text, "The replay's position and length (top right) are on the replay clock: a pause of "+
			"the recording longer than the idle limit (--idle-limit) plays for that limit, and the status line "+
			"says so while it plays, e.g. \"… 2m30s idle, skipped\".")
	}
	for _, t := range text {
		out = append(out, "")
		for _, l := range wrapText(t, f.width-2) {
			out = append(out, " "+f.st.Muted.Render(l))
		}
	}
	return out
}

// helpColumn is a column of the help screen's keys: its lines and the cells it needs.
type helpColumn struct {
	lines []string
	width int
}

// keyColumns lays out the enabled keys a column per group, side by side as the width allows,
// the rest below: every key is on the screen at any width.
func keyColumns(f *frame) []string {
	var cols []helpColumn
	groups := f.keys.keyGroups()
	if f.fleetKeys != nil {
		groups = append([]keyGroup{f.fleetKeys.keyGroup()}, groups...)
	}
	for _, g := range groups {
		if c, ok := keyColumn(f, g); ok {
			cols = append(cols, c)
		}
	}
	const gap = "   "
	var out []string
	for len(cols) > 0 {
		n, w := 1, cols[0].width
		for n < len(cols) && w+len(gap)+cols[n].width <= f.width-1 {
			w += len(gap) + cols[n].width
			n++
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, sideBySide(cols[:n], gap)...)
		cols = cols[n:]
	}
	return out
}

// keyColumn is the column of group g's enabled keys under its title; false when it has none.
func keyColumn(f *frame, g keyGroup) (helpColumn, bool) {
	var bs []key.Binding
	kw := 0
	for _, b := range g.keys {
		if b.Enabled() {
			bs = append(bs, b)
			kw = max(kw, cellWidth(b.Help().Key))
		}
	}
	if len(bs) == 0 {
		return helpColumn{}, false
	}
	c := helpColumn{lines: []string{f.styled(sTableHeader, g.title)}, width: cellWidth(g.title)}
	for _, b := range bs {
		k, d := pad(b.Help().Key, kw), b.Help().Desc
		c.lines = append(c.lines, f.st.Help.FullKey.Render(k)+" "+f.st.Help.FullDesc.Render(d))
		c.width = max(c.width, kw+1+cellWidth(d))
	}
	return c, true
}

// sideBySide is cols on the same lines, gap between them.
func sideBySide(cols []helpColumn, gap string) []string {
	rows := 0
	for _, c := range cols {
		rows = max(rows, len(c.lines))
	}
	out := make([]string, 0, rows)
	for r := range rows {
		var b strings.Builder
		for i, c := range cols {
			cell := ""
			if r < len(c.lines) {
				cell = c.lines[r]
			}
			if i > 0 {
				b.WriteString(gap)
			}
			if i < len(cols)-1 {
				cell = pad(cell, c.width)
			}
			b.WriteString(cell)
		}
		out = append(out, " "+strings.TrimRight(b.String(), " "))
	}
	return out
}

// helpPage is how many lines of the help screen the window shows: the body's height.
func (m *Model) helpPage() int {
	f := m.frameView()
	return bodyHeight(&f, f.pod())
}

// helpLines is how many lines the whole help screen has at the window's width.
func (m *Model) helpLines() int {
	f := m.frameView()
	return len(helpLines(&f))
}
