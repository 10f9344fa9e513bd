package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestFocus: a key goes to the sub-model on top, or to the search being typed; over the fleet
// table ? and S are the root's, and the help shown over the inspector or the summary takes the
// keys first.
func TestFocus(t *testing.T) {
	pod := func() Model { return liveModel(fixture(), at(42), "uid-x7k2p", 100, 30, plainStyles()) }
	table := func() Model { return fleetModel(t, 100, 30, false) }
	for _, tc := range []struct {
		name  string
		m     Model
		keys  []string // pressed first
		key   string
		focus keyFocus
	}{
		{"the lanes", pod(), nil, "j", toRoot},
		{"the inspector", pod(), []string{"enter"}, "n", toInspector},
		{"the help over the inspector", pod(), []string{"?", "enter"}, "j", toHelp},
		{"the picker", pod(), []string{"P"}, "j", toPicker},
		{"the picker's filter", pod(), []string{"P", "/"}, "q", toPicker},
		{"a search typed", pod(), []string{"/"}, "q", toSearch},
		{"a search kept", pod(), []string{"/", "x", "enter"}, "n", toRoot},
		{"the help", pod(), []string{"?"}, "j", toHelp},
		{"the summary", pod(), []string{"S"}, "j", toSummary},
		{"the help over the summary", pod(), []string{"S", "?"}, "j", toHelp},
		{"the fleet table", table(), nil, "j", toFleet},
		{"? over the fleet table", table(), nil, "?", toRoot},
		{"S over the fleet table", table(), nil, "S", toRoot},
		{"the help over the fleet table", table(), []string{"?"}, "j", toHelp},
		{"S typed in the fleet table's filter", table(), []string{"/"}, "S", toFleet},
		{"? typed in the fleet table's filter", table(), []string{"/"}, "?", toFleet},
		{"the picker over the fleet table", table(), []string{"?", "P"}, "j", toPicker},
		{"a pod opened from the table", table(), []string{"enter"}, "j", toRoot},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := pressRun(t, tc.m, tc.keys...)
			if got := m.focus(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(tc.key)}); got != tc.focus {
				t.Errorf("after %q, %q goes to %d, want %d", tc.keys, tc.key, got, tc.focus)
			}
		})
	}
}

// TestHelpOverSummaryKeepsKeys: what the help shown over the summary does not take goes to the
// summary, not past it to the root, so / starts no search typed behind the hidden summary; the
// keys the summary leaves to the root (? here) still reach it.
func TestHelpOverSummaryKeepsKeys(t *testing.T) {
	for _, tc := range []struct {
		keys                  []string
		summary, help, typing bool
	}{
		{[]string{"S", "?", "/"}, true, true, false},
		{[]string{"S", "?", "/", "x"}, true, true, false},
		{[]string{"S", "?", "?"}, true, false, false},
		{[]string{"S", "?", "esc"}, true, false, false},
		{[]string{"?", "/"}, false, false, true}, // the help alone leaves / to the root
	} {
		m := pressRun(t, liveModel(fixture(), at(42), "uid-x7k2p", 100, 30, plainStyles()), tc.keys...)
		if m.summary.open != tc.summary || m.helpScreen.open != tc.help || m.view.search.typing != tc.typing {
			t.Errorf("after %q: summary %v, help %v, search typed %v; want %v, %v, %v", tc.keys,
				m.summary.open, m.helpScreen.open, m.view.search.typing, tc.summary, tc.help, tc.typing)
		}
	}
}
