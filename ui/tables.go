package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// tables are the milestone table and the Events under the lanes: which of them has the focus
// (the page keys and the search act on it) and the cursor of each. They are embedded in the
// root's view state, not beside it: the lanes, the search and the inspector move the cursors
// too, and the tables' renderers read them there.
type tables struct {
	keys     tablesKeyMap
	focus    tableFocus // the table PgUp/PgDn and search act on
	cursor   int        // the milestone cursor's row; -1 follows the newest rows
	evCursor int        // the Events table's cursor, an index in eventList; -1 follows the newest
}

// tablesKeyMap are the tables' keys.
type tablesKeyMap struct {
	Next, Prev       key.Binding // move the milestone cursor
	PageUp, PageDown key.Binding // page the table in focus
	Switch           key.Binding // move the focus to the other table
	Inspect          key.Binding // open the inspector on the milestone cursor's row
}

func newTables(k KeyMap) tables {
	return tables{cursor: -1, evCursor: -1, keys: tablesKeyMap{
		Next: k.Next, Prev: k.Prev, PageUp: k.PageUp, PageDown: k.PageDown, Switch: k.Events, Inspect: k.Accept,
	}}
}

// tablePages is what paging needs of the pod shown: how many Events it has, and how many rows a
// page of each table moves.
type tablePages struct{ events, rowsPage, eventsPage int }

// Update handles a key of the tables of a pod with rows milestones; pages says the rest when a
// page key needs it (false without a pod). It reports whether the inspector is to open, on the
// milestone cursor's row.
func (t tables) Update(msg tea.KeyMsg, rows int, pages func() (tablePages, bool)) (tables, bool) {
	k := t.keys
	switch {
	case key.Matches(msg, k.PageUp, k.PageDown):
		d := 1
		if key.Matches(msg, k.PageUp) {
			d = -1
		}
		if pg, ok := pages(); ok && t.focus == focusEvents {
			t.evCursor = pageCursor(t.evCursor, pg.events, pg.eventsPage, d)
		} else if ok {
			t.cursor = pageCursor(t.cursor, rows, pg.rowsPage, d)
		}
	case key.Matches(msg, k.Switch):
		t.focus = 1 - t.focus
	case key.Matches(msg, k.Inspect) && t.focus == focusMilestones:
		return t, true
	case key.Matches(msg, k.Next):
		t.cursor = moveCursor(t.cursor, rows, 1)
	case key.Matches(msg, k.Prev):
		t.cursor = moveCursor(t.cursor, rows, -1)
	}
	return t, false
}

// moveCursor is milestone cursor c of a table of n rows moved d rows: from following the newest
// rows, forward goes to the first row and back to the last; forward past the last row follows
// the newest rows again.
func moveCursor(c, n, d int) int {
	if n == 0 {
		return c
	}
	switch {
	case c < 0 && d > 0:
		c = 0
	case c < 0:
		c = n - 1
	default:
		c = max(c+d, 0)
	}
	if c >= n {
		c = -1
	}
	return c
}

// pageCursor is cursor c of a table of n rows moved size rows on (back when d < 0). -1 follows
// the newest rows: paging up from there starts at the last row, and paging down past the last
// row follows them again.
func pageCursor(c, n, size, d int) int {
	if n == 0 || (c < 0 && d > 0) {
		return -1
	}
	if c < 0 {
		c = n - 1
	}
	c += d * size
	if c >= n {
		return -1
	}
	return max(c, 0)
}

// tableKey hands a key to the tables: in a replay, n and p step the replay to the next or
// previous milestone instead of moving the cursor.
func (m *Model) tableKey(msg tea.KeyMsg) {
	k := m.view.tables.keys
	switch {
	case m.replaying() && key.Matches(msg, k.Next):
		m.step(1)
		return
	case m.replaying() && key.Matches(msg, k.Prev):
		m.step(-1)
		return
	}
	rows := 0
	if p := m.currentPod(); p != nil {
		rows = rowCount(p)
	}
	var inspect bool
	if m.view.tables, inspect = m.view.tables.Update(msg, rows, m.tablePages); inspect {
		m.inspector = m.inspector.openOn(m.currentPod(), m.view.cursor)
	}
}

// tablePages works out the tables' pages for the pod shown: a page is the rows a table shows,
// less one kept in view.
func (m *Model) tablePages() (tablePages, bool) {
	f := m.frameView()
	p := f.pod()
	if p == nil {
		return tablePages{}, false
	}
	job := f.jobOf(p)
	lay := layoutBody(&f, p, job, bodyHeight(&f, p))
	return tablePages{
		events:     len(m.navMemo().eventList(p, job)),
		rowsPage:   max(lay.got[secTable]-2, 1),
		eventsPage: max(lay.got[secEvents]-2, 1),
	}, true
}
