package ui

import (
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// endModel is the view of an embedded recording replayed to its end, at w×h.
func endModel(t *testing.T, name string, w, h int) Model {
	t.Helper()
	e := play.NewEngine()
	for _, o := range readRecording(t, name) {
		e.Apply(o)
	}
	m := NewModel(Config{Target: name, Mode: Live, Styles: plainStyles()})
	m = resize(m, w, h)
	next, _ := m.Update(FrameMsg(play.Frame{Snapshot: e.Final(), Now: e.Now()}))
	return next.(Model)
}

// TestInspector: enter on a milestone row shows its whole why, its evidence with their times,
// its interval and the gaps that start or end there; n moves on, enter closes.
func TestInspector(t *testing.T) {
	m := endModel(t, "startup-probe", 100, 30)
	p := m.currentPod()
	for i, r := range p.Rows() {
		if r.Lane == "sidecar" && r.Milestone.Kind == timeline.MStarted {
			m.view.cursor = i
		}
	}
	m = press(t, m, "enter")
	if !m.inspector.open {
		t.Fatal("enter did not open the inspector")
	}
	view := m.View()
	checkSafe(t, "inspector", view, 100, 30)
	for _, want := range []string{"MILESTONE sidecar started · run 0", "within +", "why", "evidence",
		"Δ sidecar start → sidecar started", "ends here", "Δ sidecar started → app start", "starts here"} {
		if !strings.Contains(view, want) {
			t.Errorf("the inspector lacks %q:\n%s", want, view)
		}
	}
	if why := p.Rows()[m.inspector.row].Milestone.Why; why == "" || !strings.Contains(strings.Join(strings.Fields(view), " "), strings.Join(strings.Fields(why), " ")) {
		t.Errorf("the inspector does not show the whole why %q:\n%s", why, view)
	}
	row := m.inspector.row
	m = press(t, m, "n")
	if m.inspector.row != row+1 || m.view.cursor != row+1 {
		t.Errorf("n: inspecting row %d (cursor %d), want %d", m.inspector.row, m.view.cursor, row+1)
	}
	m = press(t, m, "enter")
	if m.inspector.open || strings.Contains(m.View(), "evidence") {
		t.Error("enter did not close the inspector")
	}
	small := resize(press(t, m, "enter"), 60, 12)
	checkSafe(t, "inspector at 60x12", small.View(), 60, 12)
}
