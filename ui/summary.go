package ui

import (
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// summaryState is the workload's summary view (S): every named gap over the pods, one selected,
// and its pods, the slowest first, with a cursor that enter follows to the pod's lanes.
type summaryState struct {
	open   bool
	gap    string // the selected gap's name; when it is gone, the first
	cursor string // the UID under the cursor in the selected gap's pods; when gone, the slowest
}

// summaryMemo keeps a Summarizer for the view's snapshots: a summary costs what changed since
// the last frame, and nothing when the snapshot is the same. Locked like navMemo, whose part
// it is.
type summaryMemo struct {
	mu sync.Mutex
	z  timeline.Summarizer
}

// summary is the workload's summary of s.
func (m *summaryMemo) summary(s timeline.Snapshot) timeline.Summary {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.z.Summary(s)
}

// selected is the index of the gap shown in sum: the one named, else the first; -1 when there is
// no gap.
func (st summaryState) selected(sum timeline.Summary) int {
	for i, g := range sum.Gaps {
		if g.Name == st.gap {
			return i
		}
	}
	if len(sum.Gaps) == 0 {
		return -1
	}
	return 0
}

// podAt is the index of the pod under the cursor in g's values: the UID named, else 0.
func (st summaryState) podAt(g timeline.GapSummary) int {
	for i, v := range g.Values {
		if v.UID == st.cursor {
			return i
		}
	}
	return 0
}

// openSummary shows the summary, or hides it.
func (m *Model) openSummary() {
	m.view.summary.open = !m.view.summary.open
	m.helpScreen.open = false
}

// summaryKey handles a key while the summary is shown, and reports whether it did. The help,
// the picker (which closes the summary: a pod picked is shown) and the replay's keys are left
// to the rest of the view; the other keys, which act on the lanes and tables hidden, do nothing.
func (m *Model) summaryKey(msg tea.KeyMsg) bool {
	k, st := m.keys, &m.view.summary
	sum := m.navMemo().sums.summary(m.snap)
	gi := st.selected(sum)
	switch {
	case key.Matches(msg, k.Summary), key.Matches(msg, k.Cancel):
		st.open = false
	case key.Matches(msg, k.Pods):
		st.open = false
		return false
	case key.Matches(msg, k.Help, k.Pause, k.Speed, k.Speed1, k.Speed2, k.Speed10, k.SpeedMax, k.End, k.Start, k.Next, k.Prev):
		return false
	case gi < 0:
	case key.Matches(msg, k.Left, k.PrevPod):
		st.gap, st.cursor = sum.Gaps[max(gi-1, 0)].Name, ""
	case key.Matches(msg, k.Right, k.NextPod):
		st.gap, st.cursor = sum.Gaps[min(gi+1, len(sum.Gaps)-1)].Name, ""
	case key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown):
		g := sum.Gaps[gi]
		d := 1
		if key.Matches(msg, k.Up, k.PageUp) {
			d = -1
		}
		if key.Matches(msg, k.PageUp, k.PageDown) {
			d *= max(summaryPodRows(m.height, len(sum.Gaps))-1, 1)
		}
		st.gap, st.cursor = g.Name, g.Values[min(max(st.podAt(g)+d, 0), len(g.Values)-1)].UID
	case key.Matches(msg, k.Accept):
		g := sum.Gaps[gi]
		m.showPod(g.Values[st.podAt(g)].UID)
	}
	return true
}

// showPod closes the summary and shows the pod with uid, if the snapshot has it.
func (m *Model) showPod(uid string) {
	m.view.summary.open = false
	m.selectPod(uid)
}

// summaryPodRows is how many of a gap's pods the summary lists in a window height rows tall,
// with n gaps: the header, the status line, the title, the gaps' table, the strip and the
// pods' heading take the rest.
func summaryPodRows(height, n int) int {
	return max(height-2-1-(1+n)-1-2-1, 0)
}

// summaryHelp are the keys the summary's status line offers.
func summaryHelp(k KeyMap) []key.Binding {
	as := func(b key.Binding, desc string) key.Binding {
		b.SetHelp(b.Help().Key, desc)
		return b
	}
	move := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "pod"))
	gaps := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "gap"))
	return []key.Binding{as(k.Accept, "show the pod"), move, gaps, as(k.Summary, "close"), k.Pause, k.Help, k.Quit}
}

// renderSummary draws the workload's summary in h lines: a title, a table of every named gap
// (pods, min, p50, p90, max), the selected gap's pods as dots on a strip, and its pods, the
// slowest first, around the cursor. Only the rows shown are drawn; the summary is the memo's,
// kept frame after frame at the cost of what changed.
func renderSummary(f *frame, memo *navMemo, h int) []string {
	if h <= 0 {
		return nil
	}
	sum := memo.sums.summary(f.snap)
	st := f.view.summary
	gi := st.selected(sum)
	title := f.styled(sTableHeader, "SUMMARY") + f.styled(sMuted, " · "+podsText(sum.Pods)+
		" · each named gap over the pods that have it · [the same rank of the pods' bounds]")
	out := []string{truncate(title, f.width)}
	if gi < 0 {
		return append(out, "  "+f.styled(sMuted, "no named gap yet"))
	}
	c := newSummaryCols(sum, f.width)
	out = append(out, f.styled(sTableHeader, strings.TrimRight(c.line(" ", "GAP", "PODS", [4]string{"MIN", "P50", "P90", "MAX"}), " ")))
	for i, g := range sum.Gaps {
		if len(out) >= h {
			return out
		}
		sel := " "
		if i == gi {
			sel = f.st.Glyphs.Cursor
		}
		stats := [4]string{c.statText(0, g.Min), c.statText(1, g.P50), c.statText(2, g.P90), c.statText(3, g.Max)}
		line := strings.TrimRight(c.line(sel, present.Safe(g.Name), strconv.Itoa(g.Count), stats), " ")
		if i == gi {
			line = f.styled(sHighlight, line)
		}
		out = append(out, line)
	}
	g := sum.Gaps[gi]
	switch {
	case len(out)+2 > h:
	case g.Min.Value == g.Max.Value:
		out = append(out, "", " "+present.Safe(g.Name)+f.styled(sMuted, ": "+allText(g.Count)+" at "+textfmt.Dur(g.Min.Value)))
	default:
		out = append(out, "", " "+present.Safe(g.Name)+f.styled(sMuted, ": each pod a dot, "+stripLegend))
		if len(out) < h {
			out = append(out, " "+stripText(g, max(f.width-2-len(textfmt.Dur(g.Min.Value))-len(textfmt.Dur(g.Max.Value))-2, 1)))
		}
	}
	rows := h - len(out) - 1
	if rows <= 0 {
		return out
	}
	cur := st.podAt(g)
	n := min(rows, len(g.Values))
	first := min(max(cur-n/2, 0), len(g.Values)-n)
	head := " " + pad("SLOWEST PODS", c.pod) + " " + "VALUE [BOUNDS]"
	if n < len(g.Values) {
		head = withPosition(head, first, n, len(g.Values), f.width)
	}
	out = append(out, f.styled(sTableHeader, head))
	for i := first; i < first+n; i++ {
		v := g.Values[i]
		sel := " "
		if i == cur {
			sel = f.st.Glyphs.Cursor
		}
		line := sel + pad(present.Safe(v.Pod), c.pod) + " " + boundsText(v.Span)
		if v.UID == f.view.pod {
			line += f.styled(sMuted, "  (shown)")
		}
		if i == cur {
			line = f.styled(sCursor, line)
		}
		out = append(out, line)
	}
	return out
}

// summaryCols are the widths of the summary's gap table: each statistic with its bounds when
// they all fit the width; else the median's and p90's only; else the values alone, the gaps'
// names taking what is left.
type summaryCols struct {
	name, pods, pod int
	stat            [4]int  // min, p50, p90, max
	bounds          [4]bool // which are shown with their bounds
}

func newSummaryCols(sum timeline.Summary, width int) summaryCols {
	c := summaryCols{name: len("GAP"), pods: len("PODS"), pod: len("SLOWEST PODS")}
	withB, alone := 0, len("MIN")
	for _, g := range sum.Gaps {
		c.name = max(c.name, cellWidth(present.Safe(g.Name)))
		c.pods = max(c.pods, len(strconv.Itoa(g.Count)))
		for _, s := range []timeline.Span{g.Min, g.P50, g.P90, g.Max} {
			withB, alone = max(withB, len(boundsText(s))), max(alone, len(textfmt.Dur(s.Value)))
		}
		for _, v := range g.Values[:min(len(g.Values), 50)] { // the widest of those likely shown
			c.pod = max(c.pod, cellWidth(present.Safe(v.Pod)))
		}
	}
	c.pod = min(c.pod, max(width/2, 16))
	for _, b := range [][4]bool{{true, true, true, true}, {false, true, true, false}, {}} {
		used := 1 + c.pods
		for i := range c.stat {
			c.bounds[i], c.stat[i] = b[i], alone
			if b[i] {
				c.stat[i] = withB
			}
			used += 1 + c.stat[i]
		}
		if used+1+c.name <= width || b == [4]bool{} {
			c.name = min(c.name, max(width-used-1, len("GAP")))
			break
		}
	}
	return c
}

// statText is statistic i (min, p50, p90, max) as the table shows it.
func (c summaryCols) statText(i int, s timeline.Span) string {
	if c.bounds[i] {
		return boundsText(s)
	}
	return textfmt.Dur(s.Value)
}

// line lays out a row of the gap table.
func (c summaryCols) line(sel, name, pods string, stats [4]string) string {
	var b strings.Builder
	b.WriteString(sel + pad(name, c.name) + " " + padLeft(pods, c.pods))
	for i, s := range stats {
		b.WriteString(" " + pad(s, c.stat[i]))
	}
	return b.String()
}

// allText is "1 pod" or "all n pods".
func allText(n int) string {
	if n == 1 {
		return podsText(1)
	}
	return "all " + podsText(n)
}
