package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// inspector is the milestone inspector: enter on a row of the milestone table opens it on
// that row (the newest while the cursor follows), enter or esc closes it, and the milestone
// cursor's keys inspect the next or previous row.
type inspector struct {
	keys inspectorKeyMap
	open bool
	row  int // the row inspected, an index in the pod's Rows
}

// inspectorKeyMap are the inspector's keys.
type inspectorKeyMap struct {
	Close, Back      key.Binding // enter, esc
	Next, Prev       key.Binding // the next or previous milestone, as in the table
	NextRow, PrevRow key.Binding // the same with the lanes' ↓ and ↑
	Help, Quit       key.Binding // for the status line
}

func newInspector(k KeyMap) inspector {
	return inspector{keys: inspectorKeyMap{
		Close: withDesc(k.Accept, "close"), Back: k.Cancel,
		Next: withDesc(k.Next, "next milestone"), Prev: withDesc(k.Prev, "previous milestone"), NextRow: k.Down, PrevRow: k.Up,
		Help: k.Help, Quit: k.Quit,
	}}
}

// ShortHelp is the status line's help while the inspector shows.
func (k inspectorKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Close, k.Next, k.Prev, k.Help, k.Quit}
}

// openOn opens the inspector on row cursor of p, or on its newest row when the cursor follows
// them; it stays closed when p has no row.
func (in inspector) openOn(p *timeline.Pod, cursor int) inspector {
	if p == nil || len(p.Rows()) == 0 {
		return in
	}
	if cursor < 0 || cursor >= len(p.Rows()) {
		cursor = len(p.Rows()) - 1
	}
	in.open, in.row = true, cursor
	return in
}

// Update handles a key while the inspector is open on a row of p (which closes it when nil); it
// reports whether the row changed, for the table's cursor to follow.
func (in inspector) Update(msg tea.KeyMsg, p *timeline.Pod) (inspector, bool) {
	k := in.keys
	switch {
	case key.Matches(msg, k.Close, k.Back), p == nil:
		in.open = false
	case key.Matches(msg, k.Next, k.NextRow):
		in.row = min(in.row+1, len(p.Rows())-1)
		return in, true
	case key.Matches(msg, k.Prev, k.PrevRow):
		in.row = max(in.row-1, 0)
		return in, true
	}
	return in, false
}

// currentPod is the selected pod, or nil.
func (m *Model) currentPod() *timeline.Pod {
	if i := m.selectedPod(); i >= 0 {
		return m.snap.Pods.At(i)
	}
	return nil
}

// render draws what is known of one milestone in h lines: what it is, its interval,
// why it came then (whole), what it rests on (each piece of evidence with its times), and the
// named gaps that start or end at it.
func (in inspector) render(f *frame, p *timeline.Pod, h int) []string {
	rows := p.Rows()
	if h <= 0 || len(rows) == 0 {
		return nil
	}
	r := rows[min(max(in.row, 0), len(rows)-1)]
	m := r.Milestone
	pt, _ := f.cache.podTimes(p)
	lane := "pod"
	if r.Lane != "" {
		lane = present.Safe(r.Lane)
	}
	title := fmt.Sprintf("%s %s", lane, present.Safe(m.KindName()))
	if r.Lane != "" {
		title += fmt.Sprintf(" · run %d", m.Attempt)
	}
	if d := m.Detail(); d != "" {
		title += " · " + present.Safe(d)
	}
	out := []string{f.styled(sTableHeader, "MILESTONE ") + f.styled(sText, title)}
	out = append(out, " "+f.styled(sMuted, "at ")+textfmt.Span(offsetOf(pt.origin, m))+
		f.styled(sMuted, "  within ")+bound(pt.origin, m.Earliest)+" … "+bound(pt.origin, m.Latest)+
		f.styled(sMuted, "  source ")+present.Safe(string(m.Source)))
	if m.Why != "" {
		out = append(out, wrapIndented(f, "why ", present.Safe(m.Why))...)
	}
	if m.Message != "" {
		out = append(out, wrapIndented(f, "message ", present.Safe(strings.Join(strings.Fields(m.Message), " ")))...)
	}
	out = append(out, evidenceLines(f, pt.origin, m.Evidence)...)
	out = append(out, gapsAt(f, p, m)...)
	if len(out) > h {
		out = append(out[:h-1], f.styled(sMuted, fmt.Sprintf(" … %d more lines in a taller window", len(out)-h+1)))
	}
	return out
}

// offsetOf is the milestone's offset from origin, with its bounds.
func offsetOf(origin time.Time, m *timeline.Milestone) timeline.Span {
	s := timeline.Span{Value: m.At.Sub(origin), Min: m.At.Sub(origin), Max: m.At.Sub(origin)}
	if !m.Earliest.IsZero() {
		s.Min = m.Earliest.Sub(origin)
	}
	if !m.Latest.IsZero() {
		s.Max = m.Latest.Sub(origin)
	}
	return s
}

// bound is one end of an interval as an offset, or "?" when it is not known.
func bound(origin, t time.Time) string {
	if t.IsZero() {
		return "?"
	}
	return textfmt.Signed(t.Sub(origin))
}

// evidenceLines list what the milestone rests on: each status field, Event or log line, with
// the server's time, the time in an Event's name, the receive time and a log stamp it has.
func evidenceLines(f *frame, origin time.Time, ev []timeline.Evidence) []string {
	if len(ev) == 0 {
		return nil
	}
	out := []string{" " + f.styled(sMuted, "evidence")}
	for _, e := range ev {
		parts := []string{present.Safe(e.What)}
		for _, t := range []struct {
			name string
			at   time.Time
		}{{"api", e.API}, {"name", e.NameTime}, {"received", e.Received}, {"stamp", e.At}} {
			if !t.at.IsZero() {
				parts = append(parts, f.styled(sMuted, t.name+" ")+textfmt.Signed(t.at.Sub(origin)))
			}
		}
		if e.Precision != "" {
			parts = append(parts, f.styled(sMuted, "to "+present.Safe(e.Precision)))
		}
		if e.Note != "" {
			parts = append(parts, present.Safe(e.Note))
		}
		out = append(out, wrapIndented(f, "  · ", strings.Join(parts, "  "))...)
	}
	return out
}

// gapsAt lists the named gaps that start or end at m.
func gapsAt(f *frame, p *timeline.Pod, m *timeline.Milestone) []string {
	var out []string
	at := timeline.MilestoneRef{Container: m.Container, Kind: m.Kind, Attempt: m.Attempt}
	for _, g := range p.Gaps {
		end := ""
		switch at {
		case g.From:
			end = "starts here"
		case g.To:
			end = "ends here"
		default:
			continue
		}
		if len(out) == 0 {
			out = append(out, " "+f.styled(sMuted, "gaps"))
		}
		line := "Δ " + present.Safe(g.Name) + " " + f.styled(sText, textfmt.Gap(g.Span)) + f.styled(sMuted, "  "+end)
		if g.Why != "" {
			line += f.styled(sMuted, ": ") + present.Safe(g.Why)
		}
		out = append(out, wrapIndented(f, "  ", line)...)
	}
	return out
}

// wrapIndented wraps text after a lead to the frame's width, the lines after the first indented
// under the text.
func wrapIndented(f *frame, lead, text string) []string {
	width := max(f.width-2-cellWidth(lead), 10)
	lines := strings.Split(ansi.Wordwrap(text, width, " "), "\n")
	for i, l := range lines {
		if i == 0 {
			lines[i] = " " + f.styled(sMuted, lead) + l
		} else {
			lines[i] = " " + strings.Repeat(" ", cellWidth(lead)) + l
		}
	}
	return lines
}
