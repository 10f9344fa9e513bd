package ui

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// picker is the pod picker: every pod of the snapshot with its STATUS and slowest named gap,
// filtered by the words typed after `/`, in the snapshot's order or slowest first. Enter picks
// the pod under the cursor, which the root then shows.
type picker struct {
	keys       pickerKeyMap
	open       bool
	filter     string // the words a pod's name, STATUS or node must hold; empty lists every pod
	typing     bool   // the filter is being typed
	prevFilter string // what esc while typing goes back to
	cursor     string // the UID under the cursor; when it is not listed, the first pod listed
	slowest    bool   // slowest gap first, else the snapshot's order
}

// podInfo is what the picker shows of a pod, made once per *timeline.Pod.
type podInfo struct {
	uid, name, status string // made safe
	deleted           bool
	slowest           *timeline.Gap // the longest named gap; nil when there is none
	gapValue, gapName string        // the slowest gap's, made safe
	text              string        // what the filter looks at: name, STATUS and node
	order             int           // the pod's place in the snapshot
}

func newPodInfo(p *timeline.Pod, order int) *podInfo {
	in := &podInfo{uid: p.UID, name: present.Safe(p.Name), status: present.Safe(p.Status), deleted: p.Deleted, order: order}
	for i := range p.Gaps {
		if g := &p.Gaps[i]; in.slowest == nil || g.Span.Value > in.slowest.Span.Value {
			in.slowest = g
		}
	}
	if g := in.slowest; g != nil {
		in.gapValue, in.gapName = textfmt.Dur(g.Span.Value), present.Safe(g.Name)
	}
	in.text = in.name + " " + in.status + " " + present.Safe(p.Node)
	return in
}

// pickerList is the picker's list for one snapshot, filter and order: read only once made.
type pickerList struct {
	rows                 []*podInfo
	total                int // the pods of the snapshot
	nameW, statusW, gapW int // the widths the rows listed need
	filter               string
	slowest              bool
	pods                 timeline.Seq[*timeline.Pod] // the snapshot's, to know it again
	infos                map[*timeline.Pod]*podInfo
}

// pickerMemo is the last list made.
type pickerMemo struct{ last *pickerList }

// pickerList is the picker's list of pods for the filter and order: made again only when the
// snapshot's pods, the filter or the order changed, and then only the pods that changed are
// looked at again.
func (n *navMemo) pickerList(pods timeline.Seq[*timeline.Pod], filter string, slowest bool) *pickerList {
	n.mu.Lock()
	defer n.mu.Unlock()
	last := n.picker.last
	if last != nil && last.filter == filter && last.slowest == slowest && last.pods.Same(pods) {
		return last
	}
	l := &pickerList{total: pods.Len(), filter: filter, slowest: slowest, pods: pods,
		infos: make(map[*timeline.Pod]*podInfo, pods.Len())}
	q := newQuery(filter)
	for i, p := range pods.Items() {
		var in *podInfo
		if last != nil {
			in = last.infos[p]
		}
		if in == nil || in.order != i {
			in = newPodInfo(p, i)
		}
		l.infos[p] = in
		if len(q) == 0 || q.match(in.text) {
			l.rows = append(l.rows, in)
		}
	}
	if slowest {
		slices.SortStableFunc(l.rows, bySlowestGap)
	}
	l.measure()
	n.picker.last = l
	return l
}

// bySlowestGap orders pods by their slowest named gap, the longest first, those without last.
func bySlowestGap(a, b *podInfo) int {
	switch {
	case a.slowest == nil || b.slowest == nil:
		return boolCmp(a.slowest == nil, b.slowest == nil)
	case a.slowest.Span.Value > b.slowest.Span.Value:
		return -1
	case a.slowest.Span.Value < b.slowest.Span.Value:
		return 1
	}
	return 0
}

// measure works out the widths the rows listed need.
func (l *pickerList) measure() {
	l.nameW, l.statusW = len("NAME"), len("STATUS")
	for _, in := range l.rows {
		l.nameW = max(l.nameW, cellWidth(in.name))
		l.statusW = max(l.statusW, cellWidth(in.status)+boolInt(in.deleted)*len(", deleted"))
		l.gapW = max(l.gapW, len(in.gapValue))
	}
}

// boolCmp orders false before true.
func boolCmp(a, b bool) int { return boolInt(a) - boolInt(b) }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// at is the position of the pod with uid in the list; 0 when it is not listed.
func (l *pickerList) at(uid string) int {
	for i, in := range l.rows {
		if in.uid == uid {
			return i
		}
	}
	return 0
}

// pickerKeyMap are the picker's keys.
type pickerKeyMap struct {
	Up, Down, PageUp, PageDown key.Binding // move the cursor; the arrows move it while typing too
	Pick                       key.Binding // show the pod under the cursor
	Cancel                     key.Binding // clear the filter, then close; while typing, the filter before
	Close                      key.Binding // the key that opens the picker closes it
	Filter, Order              key.Binding // type a filter; slowest gap first or as listed
	Quit                       key.Binding // for the status line
}

func newPicker(k KeyMap) picker {
	return picker{keys: pickerKeyMap{
		Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		Pick: k.Accept, Cancel: k.Cancel, Close: k.Pods, Filter: k.Search, Order: k.Order, Quit: k.Quit,
	}}
}

// ShortHelp is the status line's help: the keys said as the picker uses them.
func (p picker) ShortHelp() []key.Binding {
	k := p.keys
	move := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move"))
	if p.typing {
		return []key.Binding{withDesc(k.Pick, "pick"), withDesc(k.Cancel, "cancel"), move}
	}
	page := key.NewBinding(key.WithKeys("pgup", "pgdown"), key.WithHelp("pgup/pgdn", "page"))
	order := withDesc(k.Order, "slowest first")
	if p.slowest {
		order = withDesc(k.Order, "as listed")
	}
	return []key.Binding{withDesc(k.Pick, "pick"), withDesc(k.Cancel, "close"), withDesc(k.Filter, "filter"), move, page, order, k.Quit}
}

// openOn opens the picker, not typing, with its cursor on the pod with uid.
func (p picker) openOn(uid string) picker {
	p.open, p.typing, p.cursor = true, false, uid
	return p
}

// Update handles a key while the picker is open: lists gives the pods listed for a filter and
// order, page is how many rows a page moves. It returns the UID of the pod picked, if one was.
func (p picker) Update(msg tea.KeyMsg, lists func(filter string, slowest bool) *pickerList, page int) (picker, string) {
	k := p.keys
	if p.typing {
		switch {
		case key.Matches(msg, k.Pick):
			return p.pick(lists(p.filter, p.slowest))
		case key.Matches(msg, k.Cancel):
			p.filter, p.typing = p.prevFilter, false
		case msg.Type == tea.KeyUp, msg.Type == tea.KeyDown, msg.Type == tea.KeyPgUp, msg.Type == tea.KeyPgDown:
			p.move(msg, lists(p.filter, p.slowest), page) // letters are text while typing, arrows still move
		default:
			p.filter, _ = editQuery(p.filter, msg)
		}
		return p, ""
	}
	switch {
	case key.Matches(msg, k.Pick):
		return p.pick(lists(p.filter, p.slowest))
	case key.Matches(msg, k.Cancel) && p.filter != "":
		p.filter = "" // esc clears the filter first, then closes
	case key.Matches(msg, k.Cancel, k.Close):
		p.open = false
	case key.Matches(msg, k.Filter):
		p.prevFilter, p.typing = p.filter, true
	case key.Matches(msg, k.Order):
		p.slowest = !p.slowest
	default:
		p.move(msg, lists(p.filter, p.slowest), page)
	}
	return p, ""
}

// move moves the cursor a row or a page of l.
func (p *picker) move(msg tea.KeyMsg, l *pickerList, page int) {
	if len(l.rows) == 0 {
		return
	}
	k, d := p.keys, 0
	switch {
	case key.Matches(msg, k.Up):
		d = -1
	case key.Matches(msg, k.Down):
		d = 1
	case key.Matches(msg, k.PageUp):
		d = -page
	case key.Matches(msg, k.PageDown):
		d = page
	default:
		return
	}
	i := min(max(l.at(p.cursor)+d, 0), len(l.rows)-1)
	p.cursor = l.rows[i].uid
}

// pick closes the picker and returns the UID under its cursor in l, "" when l lists none.
func (p picker) pick(l *pickerList) (picker, string) {
	p.open, p.typing = false, false
	if len(l.rows) == 0 {
		return p, ""
	}
	return p, l.rows[l.at(p.cursor)].uid
}

// status is what the status line says while the picker is open: the filter being typed, and
// which of the picker's helps (for the memo) with the help itself.
func (p picker) status(f *frame) (lead string, what uint8, hints func() []key.Binding) {
	if p.typing {
		lead = "filter: " + present.Safe(p.filter) + typingCaret(f)
	}
	return lead, 1 + boolUint8(p.typing) + 2*boolUint8(p.slowest), p.ShortHelp
}

// openPicker opens the picker with its cursor on the pod shown.
func (m *Model) openPicker() {
	m.helpScreen.open = false
	m.picker = m.picker.openOn(m.view.pod)
}

// pickerList is the picker's list for the model's snapshot, a filter and an order.
func (m *Model) pickerList(filter string, slowest bool) *pickerList {
	return m.navMemo().pickerList(m.snap.Pods, filter, slowest)
}

// pickerPage is how many rows a page of the picker moves: the rows it shows but one.
func (m *Model) pickerPage() int {
	return max(pickerRows(m.height, m.selectedPod() >= 0)-1, 1)
}

// pickerRows is how many pods the picker lists in a window height rows tall: the header, the
// picker's title and column headings, and the status line take the rest.
func pickerRows(height int, hasPod bool) int {
	h := height - 2 - 2
	if hasPod {
		h--
	}
	return max(h, 0)
}
