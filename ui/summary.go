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

// summaryScreen is the workload's summary view (S): every named gap over the pods, one selected,
// and its pods, the slowest first, with a cursor that enter follows to the pod's lanes.
type summaryScreen struct {
	keys   summaryKeyMap
	open   bool
	owner  string // in a fleet view, the workload summarised (fleet.Group's Key); "" for every pod
	gap    string // the selected gap's name; when it is gone, the first
	cursor string // the UID under the cursor in the selected gap's pods; when gone, the slowest
}

// summaryKeyMap are the summary's keys. The help, the replay's keys and n and p are left to the
// root (Pass), and so is the picker's key, which closes the summary first (a pod picked is
// shown); the other keys, which act on the lanes and tables hidden, do nothing.
type summaryKeyMap struct {
	Show                       key.Binding // show the pod under the cursor
	Close, Back                key.Binding // S, esc
	Picker                     key.Binding // close, and leave the key to the root
	PrevGap, NextGap           key.Binding
	NextOwner, PrevOwner       key.Binding // a fleet view's workloads (summaryowner.go)
	Up, Down, PageUp, PageDown key.Binding // move in the selected gap's pods
	Pass                       key.Binding // keys the root acts on while the summary shows
	Pause, Help, Quit          key.Binding // for the status line
}

func newSummaryScreen(k KeyMap, open bool) summaryScreen {
	nextOwner, prevOwner := summaryOwnerKeys()
	return summaryScreen{open: open, keys: summaryKeyMap{
		Show: withDesc(k.Accept, "show the pod"), Close: withDesc(k.Summary, "close"), Back: k.Cancel, Picker: k.Pods,
		PrevGap: either(k.Left, k.PrevPod), NextGap: either(k.Right, k.NextPod),
		Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		NextOwner: nextOwner, PrevOwner: prevOwner,
		Pass:  either(k.Help, k.Pause, k.Speed, k.Speed1, k.Speed2, k.Speed10, k.SpeedMax, k.End, k.Start, k.Next, k.Prev),
		Pause: k.Pause, Help: k.Help, Quit: k.Quit,
	}}
}

// ShortHelp is the status line's help while the summary shows.
func (k summaryKeyMap) ShortHelp() []key.Binding {
	move := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "pod"))
	gaps := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "gap"))
	return []key.Binding{k.Show, move, gaps, k.Close, k.Pause, k.Help, k.Quit}
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
func (st summaryScreen) selected(sum timeline.Summary) int {
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
func (st summaryScreen) podAt(g timeline.GapSummary) int {
	for i, v := range g.Values {
		if v.UID == st.cursor {
			return i
		}
	}
	return 0
}

// toggle shows the summary, or hides it.
func (st summaryScreen) toggle() summaryScreen {
	st.open = !st.open
	return st
}

// Update handles a key while the summary of sum shows in a window height rows tall. It returns
// the UID of a pod to show (enter, which closes the summary), and whether the key was its own:
// when not, the root acts on it.
// owners are the workloads w and W step through (summaryOwners), nil outside a fleet view.
func (st summaryScreen) Update(msg tea.KeyMsg, sum timeline.Summary, owners []string, height int) (_ summaryScreen, show string, own bool) {
	k := st.keys
	gi := st.selected(sum)
	switch {
	case key.Matches(msg, k.Close, k.Back):
		st.open = false
	case owners != nil && key.Matches(msg, k.NextOwner):
		st = st.stepOwner(owners, 1)
	case owners != nil && key.Matches(msg, k.PrevOwner):
		st = st.stepOwner(owners, -1)
	case key.Matches(msg, k.Picker):
		st.open = false
		return st, "", false
	case key.Matches(msg, k.Pass):
		return st, "", false
	case gi < 0:
	case key.Matches(msg, k.PrevGap):
		st.gap, st.cursor = sum.Gaps[max(gi-1, 0)].Name, ""
	case key.Matches(msg, k.NextGap):
		st.gap, st.cursor = sum.Gaps[min(gi+1, len(sum.Gaps)-1)].Name, ""
	case key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown):
		g := sum.Gaps[gi]
		d := 1
		if key.Matches(msg, k.Up, k.PageUp) {
			d = -1
		}
		if key.Matches(msg, k.PageUp, k.PageDown) {
			d *= max(summaryPodRows(height, len(sum.Gaps))-1, 1)
		}
		st.gap, st.cursor = g.Name, g.Values[min(max(st.podAt(g)+d, 0), len(g.Values)-1)].UID
	case key.Matches(msg, k.Show):
		g := sum.Gaps[gi]
		st.open = false
		return st, g.Values[st.podAt(g)].UID, true
	}
	return st, "", true
}

// openSummary shows the summary, or hides it.
func (m *Model) openSummary() {
	m.summary = m.summary.toggle()
	m.helpScreen.open = false
	if m.summary.open && m.cfg.Fleet {
		m.summary.owner = m.fleet.rows.GroupKey(m.fleet.Selected()) // the workload of the row under the cursor
		m.summary.gap, m.summary.cursor = "", ""
	}
}

// summaryNow is the summary S shows now, and the workload's name (summaryNow).
func (m *Model) summaryNow() (timeline.Summary, string) {
	var fleet *FleetTable
	if m.cfg.Fleet {
		fleet = &m.fleet
	}
	return summaryNow(fleet, m.summary.owner, m.navMemo(), m.snap)
}

// summaryKey gives msg to the summary shown now.
func (m *Model) summaryKey(msg tea.KeyMsg) (uid string, own bool) {
	sum, _ := m.summaryNow()
	var owners []string
	if m.cfg.Fleet {
		owners = summaryOwners(&m.fleet)
	}
	m.summary, uid, own = m.summary.Update(msg, sum, owners, m.height)
	return uid, own
}

// summaryPodRows is how many of a gap's pods the summary lists in a window height rows tall,
// with n gaps: the header, the status line, the title, the gaps' table, the strip and the
// pods' heading take the rest.
func summaryPodRows(height, n int) int {
	return max(height-2-1-(1+n)-1-2-1, 0)
}

// render draws the workload's summary in h lines: a title, a table of every named gap
// (pods, min, p50, p90, max), the selected gap's pods as dots on a strip, and its pods, the
// slowest first, around the cursor. Only the rows shown are drawn; the summary is the memo's,
// kept frame after frame at the cost of what changed.
func (st summaryScreen) render(f *frame, memo *navMemo, h int) []string {
	if h <= 0 {
		return nil
	}
	sum, workload := summaryNow(f.fleet, st.owner, memo, f.snap)
	gi := st.selected(sum)
	title := f.styled(sTableHeader, "SUMMARY")
	switch {
	case workload != "":
		title += " " + present.Safe(workload) + f.styled(sMuted, " · w/W: another workload")
	case f.fleet != nil:
		title += " every pod" + f.styled(sMuted, " · w/W: by workload")
	}
	title += f.styled(sMuted, " · "+podsText(sum.Pods)+" · each named gap over the pods that have it · [the same rank of the pods' bounds]")
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
		out = append(out, summaryGapRow(f, c, g, i == gi))
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
	return append(out, st.podRows(f, c, g, h-len(out)-1)...)
}

// summaryGapRow is the gap table's line of g, highlighted when it is the gap selected.
func summaryGapRow(f *frame, c summaryCols, g timeline.GapSummary, selected bool) string {
	sel := " "
	if selected {
		sel = f.st.Glyphs.Cursor
	}
	stats := [4]string{c.statText(0, g.Min), c.statText(1, g.P50), c.statText(2, g.P90), c.statText(3, g.Max)}
	line := strings.TrimRight(c.line(sel, present.Safe(g.Name), strconv.Itoa(g.Count), stats), " ")
	if selected {
		line = f.styled(sHighlight, line)
	}
	return line
}

// podRows are gap g's pods, the slowest first, as many as fit in rows lines around the cursor,
// under their heading; none when rows is not positive.
func (st summaryScreen) podRows(f *frame, c summaryCols, g timeline.GapSummary, rows int) []string {
	if rows <= 0 {
		return nil
	}
	cur := st.podAt(g)
	n := min(rows, len(g.Values))
	first := min(max(cur-n/2, 0), len(g.Values)-n)
	head := " " + pad("SLOWEST PODS", c.pod) + " " + "VALUE [BOUNDS]"
	if n < len(g.Values) {
		head = withPosition(head, first, n, len(g.Values), f.width)
	}
	out := []string{f.styled(sTableHeader, head)}
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
