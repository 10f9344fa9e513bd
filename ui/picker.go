package ui

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// pickerState is the pod picker: every pod of the snapshot with its STATUS and slowest named
// gap, filtered by the words typed after `/`, in the snapshot's order or slowest first.
type pickerState struct {
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
		slices.SortStableFunc(l.rows, func(a, b *podInfo) int {
			switch {
			case a.slowest == nil || b.slowest == nil:
				return boolCmp(a.slowest == nil, b.slowest == nil)
			case a.slowest.Span.Value > b.slowest.Span.Value:
				return -1
			case a.slowest.Span.Value < b.slowest.Span.Value:
				return 1
			}
			return 0
		})
	}
	l.nameW, l.statusW = len("NAME"), len("STATUS")
	for _, in := range l.rows {
		l.nameW = max(l.nameW, cellWidth(in.name))
		l.statusW = max(l.statusW, cellWidth(in.status)+boolInt(in.deleted)*len(", deleted"))
		l.gapW = max(l.gapW, len(in.gapValue))
	}
	n.picker.last = l
	return l
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

// openPicker opens the picker with its cursor on the pod shown.
func (m *Model) openPicker() {
	m.helpScreen.open = false
	m.view.picker.open, m.view.picker.typing = true, false
	m.view.picker.cursor = m.view.pod
}

// pickerKey handles a key while the picker is open.
func (m *Model) pickerKey(msg tea.KeyMsg) {
	k, pk := m.keys, &m.view.picker
	if pk.typing {
		switch {
		case key.Matches(msg, k.Accept):
			m.pickPod()
		case key.Matches(msg, k.Cancel):
			pk.filter, pk.typing = pk.prevFilter, false
		case msg.Type == tea.KeyUp, msg.Type == tea.KeyDown, msg.Type == tea.KeyPgUp, msg.Type == tea.KeyPgDown:
			m.movePicker(msg) // letters are text while typing, arrows still move
		default:
			pk.filter, _ = editQuery(pk.filter, msg)
		}
		return
	}
	switch {
	case key.Matches(msg, k.Accept):
		m.pickPod()
	case key.Matches(msg, k.Cancel) && pk.filter != "":
		pk.filter = "" // esc clears the filter first, then closes
	case key.Matches(msg, k.Cancel), key.Matches(msg, k.Pods):
		pk.open = false
	case key.Matches(msg, k.Search):
		pk.prevFilter, pk.typing = pk.filter, true
	case key.Matches(msg, k.Order):
		pk.slowest = !pk.slowest
	default:
		m.movePicker(msg)
	}
}

// movePicker moves the picker's cursor a row or a page.
func (m *Model) movePicker(msg tea.KeyMsg) {
	k := m.keys
	l := m.currentPickerList()
	if len(l.rows) == 0 {
		return
	}
	page := max(pickerRows(m.height, m.selectedPod() >= 0)-1, 1)
	d := 0
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
	i := min(max(l.at(m.view.picker.cursor)+d, 0), len(l.rows)-1)
	m.view.picker.cursor = l.rows[i].uid
}

// pickPod shows the pod under the picker's cursor and closes the picker.
func (m *Model) pickPod() {
	l := m.currentPickerList()
	m.view.picker.open, m.view.picker.typing = false, false
	if len(l.rows) == 0 {
		return
	}
	uid := l.rows[l.at(m.view.picker.cursor)].uid
	for i, p := range m.snap.Pods.Items() {
		if p.UID == uid {
			m.movePod(i - max(m.selectedPod(), 0))
			return
		}
	}
}

// currentPickerList is the picker's list for the model's snapshot, filter and order.
func (m *Model) currentPickerList() *pickerList {
	pk := m.view.picker
	return m.navMemo().pickerList(m.snap.Pods, pk.filter, pk.slowest)
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
