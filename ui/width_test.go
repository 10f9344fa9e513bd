package ui

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
)

// TestCellWidth holds the fast width to lipgloss's: every rune it measures itself, alone and
// between others, and text it leaves to lipgloss.
func TestCellWidth(t *testing.T) {
	for r := rune(0x20); r < 0x30000; r++ {
		if !narrowRune(r) && r >= 0x7f {
			continue
		}
		for _, s := range []string{string(r), "a" + string(r) + "─", "\x1b[1;38;5;2m" + string(r) + "\x1b[0m"} {
			if got, want := cellWidth(s), lipgloss.Width(s); got != want {
				t.Errorf("cellWidth(%q) = %d, lipgloss.Width %d", s, got, want)
			}
		}
	}
	for _, s := range []string{"", "plain", "日本語のポッド", "e\u0301", "a\u200db", "👩\u200d👩", "\x1b]0;t\x07x",
		"\x1b[", "x\x1b[31", "ok ✅ ⌚", "\u0483x"} {
		if got, want := cellWidth(s), lipgloss.Width(s); got != want {
			t.Errorf("cellWidth(%q) = %d, lipgloss.Width %d", s, got, want)
		}
	}
}
