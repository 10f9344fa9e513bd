package ui

import (
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// readRecording translates an embedded real recording, as replay does.
func readRecording(t *testing.T, name string) []timeline.Observation {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, items, _, err := watch.ReadAll(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return watch.Observations(items)
}

// TestViewRecordings: each real recording replayed to its end, drawn at two sizes.
func TestViewRecordings(t *testing.T) {
	for _, name := range recordings.Names() {
		obs := readRecording(t, name)
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, sz[0], sz[1]), func(t *testing.T) {
				m := NewModel(Config{Target: name, Mode: Replay, Recording: obs, Speed: 0, Styles: plainStyles()})
				m = resize(m, sz[0], sz[1])
				next, _ := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("G")})
				m = next.(Model)
				golden(t, m.View())
			})
		}
	}
}
