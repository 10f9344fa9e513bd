package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// keyFocus is the part of the view a key goes to first.
type keyFocus uint8

const (
	toRoot      keyFocus = iota // the lanes, the axis, the tables and the replay
	toFleet                     // the fleet table
	toInspector                 // the milestone inspector
	toPicker                    // the pod picker
	toSearch                    // a search being typed
	toHelp                      // the ? screen
	toSummary                   // the workload's summary
)

// focus is the sub-model msg goes to: the one shown on top, or the search being typed. Over the
// fleet table, ? and S are the root's (they open the help and the summary over it), unless the
// table's filter is being typed (they are letters of it then); the picker opened over the table
// has the keys; the inspector gives way to the help shown over it.
func (m *Model) focus(msg tea.KeyMsg) keyFocus {
	switch {
	case m.inTable() && !m.helpScreen.open && !m.summary.open && !m.picker.open &&
		(m.fleet.Typing() || !key.Matches(msg, m.keys.Help, m.keys.Summary)):
		return toFleet
	case m.inspector.open && !m.helpScreen.open:
		return toInspector
	case m.picker.open:
		return toPicker
	case m.view.search.typing:
		return toSearch
	case m.helpScreen.open:
		return toHelp
	case m.summary.open:
		return toSummary
	}
	return toRoot
}

// quits reports whether msg quits: ctrl+c always, q but while text is typed (a search, the
// picker's filter or the fleet table's), where it is a letter and esc ends the typing.
func (m *Model) quits(msg tea.KeyMsg) bool {
	typing := m.view.search.typing || (m.picker.open && m.picker.typing) || (m.inTable() && m.fleet.Typing())
	return msg.Type == tea.KeyCtrlC || (key.Matches(msg, m.keys.Quit) && !(typing && msg.Type == tea.KeyRunes))
}

// handleKey applies a key press: it goes to the sub-model with the focus; the help leaves the
// keys that are not its own to the summary when shown over it, else to the root, and the summary
// leaves the root the replay's, so the lanes' keys work under the help and the replay's under
// both.
func (m Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.quits(msg) {
		return m, tea.Quit
	}
	var (
		cmd tea.Cmd
		own = true
		uid string // a pod a sub-model chose to show
	)
	switch m.focus(msg) {
	case toFleet:
		m.fleet, cmd = m.fleet.Update(msg)
	case toInspector:
		var moved bool
		if m.inspector, moved = m.inspector.Update(msg, m.currentPod()); moved {
			m.view.cursor = m.inspector.row // the table's cursor follows
		}
	case toPicker:
		m.picker, uid = m.picker.Update(msg, m.pickerList, m.pickerPage())
	case toSearch:
		m.view.search = m.view.search.Update(msg, m.tableCursor(), m.matchRows)
	case toHelp:
		uid, own = m.helpKey(msg)
	case toSummary:
		uid, own = m.summaryKey(msg)
	default:
		own = false
	}
	if uid != "" {
		m.selectPod(uid)
	}
	if !own {
		m.rootKey(msg)
	}
	return m, cmd
}

// helpKey gives msg to the help, and what the help does not take to the summary when the help
// is shown over it: the summary is what the help hides, and it leaves the root only the keys
// that make sense under it (a search started would be typed behind it). It returns what the
// summary returns: a pod to show, and whether the key was taken.
func (m *Model) helpKey(msg tea.KeyMsg) (uid string, own bool) {
	if m.helpScreen, own = m.helpScreen.Update(msg, m.helpPage(), m.helpLines); own || !m.summary.open {
		return "", own
	}
	return m.summaryKey(msg)
}
