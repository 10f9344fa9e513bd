package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/sidecar-top/sidecar-top/fleet"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// FleetKeyMap are the fleet table's keys, in k9s's and the view's style.
type FleetKeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Open                                    key.Binding // open the pod's lanes
	Filter, Accept, Clear                   key.Binding // type a filter, end typing, clear it
	SortLeft, SortRight                     key.Binding // sort by the column left or right of the sorted one
	// SortPod, SortAge, SortStatus, SortRestarts and SortFinding sort by that column at once;
	// each key again reverses the order.
	SortPod, SortAge, SortStatus, SortRestarts, SortFinding key.Binding
}

// DefaultFleetKeyMap returns the fleet table's default keys.
func DefaultFleetKeyMap() FleetKeyMap {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	return FleetKeyMap{
		Up: b("up", "up", "k"), Down: b("down", "down", "j"),
		PageUp: b("page up", "pgup"), PageDown: b("page down", "pgdown"),
		Top: b("first", "home"), Bottom: b("last", "end"),
		Open: b("open the pod", "enter"), Filter: b("filter", "/"), Accept: b("done", "enter"),
		Clear:    b("clear filter", "esc"),
		SortLeft: b("sort by the column left", "<"), SortRight: b("sort by the column right", ">"),
		SortPod: b("sort by pod", "N"), SortAge: b("sort by age", "A"), SortStatus: b("sort by STATUS", "T"),
		SortRestarts: b("sort by sidecar restarts", "R"), SortFinding: b("sort by finding", "F"),
	}
}

// FleetTable is the table of every pod of a scope (namespace, cluster, selector): one row per
// pod (package fleet), sorted and filtered as the user asks. It is the view's first screen in a
// scope; enter opens a pod's lanes (OpenPodMsg). Like a bubbles component it has a KeyMap, an
// Update and a view; it holds view state only, and rows it keeps from frame to frame.
type FleetTable struct {
	KeyMap FleetKeyMap
	view   fleet.View
	rows   *fleet.Rows // shared by the table's copies; memoization only
	table  fleet.Table
	made   []*fleet.Row // the rows table was made from, with view
	cursor string       // the UID under the cursor; when it is gone, the row where it was
	at     int          // the cursor's row in table.Rows
	filter string
	typing bool
	page   int // rows a page moves; the view sets it from the height it draws in
	// The snapshot's pods kept as a count only (timeline.Snapshot.Hidden, Forgotten).
	hidden, forgotten int
}

// counts are what the header says: the table's, and the pods only counted.
func (t *FleetTable) counts() fleet.Counts {
	return t.table.Counts.WithOnlyCounted(t.hidden, t.forgotten)
}

// OpenPodMsg asks the root model to open a pod's lanes.
type OpenPodMsg struct{ UID string }

// NewFleetTable returns a table that hides pods without a sidecar when sidecarsOnly, sorted with
// the worst finding first.
func NewFleetTable(sidecarsOnly bool) FleetTable {
	return FleetTable{
		KeyMap: DefaultFleetKeyMap(), rows: &fleet.Rows{}, page: 10,
		view: fleet.View{SidecarsOnly: sidecarsOnly, Sort: fleet.KeyFinding, Desc: true},
	}
}

// SetSnapshot takes a frame's snapshot: the rows of its pods, hidden, filtered and sorted.
func (t *FleetTable) SetSnapshot(s timeline.Snapshot) {
	last := t.rows.Last()
	rows := t.rows.Of(s, nil)
	t.hidden, t.forgotten = s.Hidden, s.Forgotten
	if sameRows(t.made, last) {
		t.table = fleet.Remake(t.table, last, rows, t.rows.Changed(), t.view)
	} else {
		t.table = fleet.Make(rows, t.view)
	}
	t.made = rows
	t.follow()
}

// remake makes the table again from the rows of the last snapshot, for a new view.
func (t *FleetTable) remake() {
	t.made = t.rows.Last()
	t.table = fleet.Make(t.made, t.view)
	t.follow()
}

// sameRows reports whether a and b are the same list of rows (one Rows.Of's).
func sameRows(a, b []*fleet.Row) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// follow puts the cursor back on its pod, or on the row where it was when the pod is gone.
func (t *FleetTable) follow() {
	for i, r := range t.table.Rows {
		if r.UID == t.cursor {
			t.at = i
			return
		}
	}
	t.at = min(t.at, len(t.table.Rows)-1)
	t.at = max(t.at, 0)
	if len(t.table.Rows) > 0 {
		t.cursor = t.table.Rows[t.at].UID
	}
}

// Typing reports whether keys are the filter's text (q is a letter then).
func (t FleetTable) Typing() bool { return t.typing }

// Selected is the UID under the cursor, "" when the table is empty.
func (t FleetTable) Selected() string { return t.cursor }

// Update handles a key.
func (t FleetTable) Update(msg tea.KeyMsg) (FleetTable, tea.Cmd) {
	k := t.KeyMap
	if t.typing {
		switch {
		case key.Matches(msg, k.Accept):
			t.typing = false
		case key.Matches(msg, k.Clear):
			t.typing, t.filter = false, ""
		default:
			t.filter, _ = editQuery(t.filter, msg)
		}
		t.refilter()
		return t, nil
	}
	switch {
	case key.Matches(msg, k.Open):
		if t.cursor != "" {
			uid := t.cursor
			return t, func() tea.Msg { return OpenPodMsg{uid} }
		}
	case key.Matches(msg, k.Filter):
		t.typing = true
	case key.Matches(msg, k.Clear):
		t.filter = ""
		t.refilter()
	case t.sortKey(msg):
		t.remake()
	default:
		t.move(msg)
	}
	return t, nil
}

// refilter applies the filter as typed.
func (t *FleetTable) refilter() {
	if t.view.Filter != t.filter {
		t.view.Filter = t.filter
		t.remake()
	}
}

// sortKey applies a sort key, if msg is one.
func (t *FleetTable) sortKey(msg tea.KeyMsg) bool {
	k := t.KeyMap
	by := func(key fleet.Key) {
		if t.view.Sort == key {
			t.view.Desc = !t.view.Desc
		} else {
			t.view.Sort, t.view.Desc = key, key == fleet.KeyFinding || key == fleet.KeySidecarRestarts
		}
	}
	switch {
	case key.Matches(msg, k.SortLeft):
		t.view.Sort = (t.view.Sort + fleet.Key(fleet.Keys) - 1) % fleet.Key(fleet.Keys)
	case key.Matches(msg, k.SortRight):
		t.view.Sort = (t.view.Sort + 1) % fleet.Key(fleet.Keys)
	case key.Matches(msg, k.SortPod):
		by(fleet.KeyPod)
	case key.Matches(msg, k.SortAge):
		by(fleet.KeyAge)
	case key.Matches(msg, k.SortStatus):
		by(fleet.KeyStatus)
	case key.Matches(msg, k.SortRestarts):
		by(fleet.KeySidecarRestarts)
	case key.Matches(msg, k.SortFinding):
		by(fleet.KeyFinding)
	default:
		return false
	}
	return true
}

// move moves the cursor a row, a page, or to an end.
func (t *FleetTable) move(msg tea.KeyMsg) {
	k, n := t.KeyMap, len(t.table.Rows)
	if n == 0 {
		return
	}
	switch {
	case key.Matches(msg, k.Up):
		t.at--
	case key.Matches(msg, k.Down):
		t.at++
	case key.Matches(msg, k.PageUp):
		t.at -= t.page
	case key.Matches(msg, k.PageDown):
		t.at += t.page
	case key.Matches(msg, k.Top):
		t.at = 0
	case key.Matches(msg, k.Bottom):
		t.at = n - 1
	default:
		return
	}
	t.at = min(max(t.at, 0), n-1)
	t.cursor = t.table.Rows[t.at].UID
}

// keyGroup is the table's keys as the ? screen and README list them.
func (k FleetKeyMap) keyGroup() keyGroup {
	return keyGroup{"Fleet table (-A, -n NS)", []key.Binding{k.Open, k.Filter, k.Clear, k.SortFinding, k.SortRestarts,
		k.SortPod, k.SortAge, k.SortStatus, k.SortLeft, k.SortRight, k.Top, k.Bottom}}
}

// ShortHelp is the status line's help while the table shows.
func (k FleetKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Filter, k.SortFinding, k.SortRestarts, k.SortAge, k.SortLeft, k.SortRight}
}
