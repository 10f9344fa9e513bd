package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// fleetModel is a fleet view of every embedded recording's pods at once, at w×h.
func fleetModel(t *testing.T, w, h int, sidecarsOnly bool) Model {
	t.Helper()
	e := play.NewEngine()
	for _, name := range recordings.Names() {
		for _, o := range readRecording(t, name) {
			e.Apply(o)
		}
	}
	m := NewModel(Config{Target: "all namespaces", Mode: Live, Fleet: true, SidecarsOnly: sidecarsOnly, Styles: plainStyles()})
	m = resize(m, w, h)
	next, _ := m.Update(FrameMsg(play.Frame{Snapshot: e.Final(), Now: at(0)}))
	m = next.(Model)
	m.now = e.Now()
	return m
}

// pressRun is press, and runs the command a key returns (enter's OpenPodMsg) into the model.
func pressRun(t *testing.T, m Model, keys ...string) Model {
	t.Helper()
	for _, k := range keys {
		msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		switch k {
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "down":
			msg = tea.KeyMsg{Type: tea.KeyDown}
		case "backspace":
			msg = tea.KeyMsg{Type: tea.KeyBackspace}
		}
		next, cmd := m.Update(msg)
		m = next.(Model)
		if cmd != nil {
			if out, ok := cmd().(OpenPodMsg); ok {
				next, _ = m.Update(out)
				m = next.(Model)
			}
		}
	}
	return m
}

func TestFleetView(t *testing.T) {
	for _, sz := range [][2]int{{60, 14}, {100, 20}, {200, 20}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := fleetModel(t, sz[0], sz[1], false)
			out := m.View()
			checkSafe(t, "fleet view", out, sz[0], sz[1])
			golden(t, out)
		})
	}
}

// rowOf is the table's line holding s, or "".
func rowOf(view, s string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// TestFleetKeys: sort, filter, open a pod and come back to the same row.
func TestFleetKeys(t *testing.T) {
	m := fleetModel(t, 160, 20, false)
	lines := func(m Model) []string { return strings.Split(m.View(), "\n") }
	first := func(m Model) string { return lines(m)[3] } // header, counts, headings, then rows
	if !strings.Contains(first(m), "›") || !strings.Contains(first(m), "warning") && !strings.Contains(first(m), "crash-loop") &&
		!strings.Contains(first(m), "classic") && !strings.Contains(first(m), "killed") {
		t.Errorf("worst finding first, cursor on it: %q", first(m))
	}
	m = pressRun(t, m, "R")
	if !strings.Contains(first(m), "sc-e") {
		t.Errorf("R sorts by sidecar restarts, most first: %q", first(m))
	}
	m = pressRun(t, m, "N")
	if !strings.Contains(first(m), "sc-a") {
		t.Errorf("N sorts by pod name: %q", first(m))
	}
	m = pressRun(t, m, "N")
	if !strings.Contains(first(m), "sc-e") {
		t.Errorf("N again reverses: %q", first(m))
	}
	m = pressRun(t, m, "/", "s", "c", "-", "b", "enter")
	if got := strings.Count(m.View(), "sc-b"); got < 2 || strings.Contains(m.View(), "sc-e ") {
		t.Errorf("filter sc-b: %d rows\n%s", got, m.View())
	}
	m = pressRun(t, m, "esc", "down")
	at := m.fleet.Selected()
	m = pressRun(t, m, "enter")
	if !m.view.inPod || m.view.pod != at {
		t.Fatalf("enter opens the pod under the cursor %s: inPod %v, pod %s", at, m.view.inPod, m.view.pod)
	}
	if !strings.Contains(m.View(), "status") {
		t.Errorf("the pod's view after enter:\n%s", m.View())
	}
	m = pressRun(t, m, "esc")
	if m.view.inPod || m.fleet.Selected() != at {
		t.Errorf("esc: back to the table at the same row (%s), got inPod %v at %s", at, m.view.inPod, m.fleet.Selected())
	}
	m = pressRun(t, m, "/", "q")
	if !m.fleet.Typing() {
		t.Errorf("q while typing the filter is a letter, not quit")
	}
}

// TestFleetHelp: ? over the table lists the table's keys.
func TestFleetHelp(t *testing.T) {
	m := pressRun(t, fleetModel(t, 160, 40, false), "?")
	for _, want := range []string{"Fleet table", "open the pod", "sort by finding", "clear filter"} {
		if !strings.Contains(m.View(), want) {
			t.Errorf("help lacks %q:\n%s", want, m.View())
		}
	}
	if m = pressRun(t, m, "?"); strings.Contains(m.View(), "Fleet table") {
		t.Error("? again did not close the help")
	}
}

// TestFleetSummary: S over the table opens the summary grouped by owner, on the workload of the
// row under the cursor (here a pod of its own in namespace sc-e), with the summary's keys in the
// status line; w and W step through the workloads and every pod, around; S again comes back to
// the table.
func TestFleetSummary(t *testing.T) {
	m := pressRun(t, fleetModel(t, 120, 30, false), "S")
	v := m.View()
	if !strings.Contains(v, "SUMMARY sc-e: pods of their own") || !strings.Contains(v, "· 1 pod ·") || strings.Contains(v, "sort by finding") {
		t.Errorf("S: the summary of the cursor's workload with its own keys:\n%s", v)
	}
	steps := []struct{ key, want string }{
		{"w", "SUMMARY every pod · w/W: by workload · 5 pods"}, // after the last workload, every pod
		{"w", "SUMMARY sc-a: pods of their own"},
		{"w", "SUMMARY sc-b1: Job/sc-b1"},
		{"W", "SUMMARY sc-a: pods of their own"},
		{"W", "SUMMARY every pod"},
	}
	for _, st := range steps {
		if m = pressRun(t, m, st.key); !strings.Contains(m.View(), st.want) {
			t.Errorf("%s: want %q:\n%s", st.key, st.want, m.View())
		}
	}
	if m = pressRun(t, m, "S"); !strings.Contains(m.View(), "FINDING") {
		t.Errorf("S again: back to the table:\n%s", m.View())
	}
}

// TestFleetSidecarsOnly: a pod without a sidecar is hidden and counted in the header.
func TestFleetSidecarsOnly(t *testing.T) {
	m := fleetModel(t, 160, 20, true)
	if !strings.Contains(m.View(), "5 pods") {
		t.Errorf("header counts every pod:\n%s", m.View())
	}
}

// TestFleetFocus: the view tells Config.Focus of the pod it opens and of its going back to the
// table; a pod opened while the run holds only its brief says its timeline is on its way, not
// lanes made of the brief.
func TestFleetFocus(t *testing.T) {
	e := play.NewEngine()
	e.Brief(func(*timeline.Pod) bool { return false })
	for _, name := range recordings.Names() {
		for _, o := range readRecording(t, name) {
			e.Apply(o)
		}
	}
	var told []string
	m := NewModel(Config{Target: "all namespaces", Mode: Live, Fleet: true, Styles: plainStyles(),
		Focus: func(uid string) { told = append(told, uid) }})
	m = resize(m, 120, 20)
	next, _ := m.Update(FrameMsg(play.Frame{Snapshot: e.Snapshot(), Now: at(0)}))
	m = next.(Model)
	at := m.fleet.Selected()
	m = pressRun(t, m, "enter")
	if len(told) != 1 || told[0] != at {
		t.Fatalf("enter on %s told the focus %q", at, told)
	}
	if v := m.View(); !strings.Contains(v, "deriving the pod's timeline") {
		t.Errorf("a brief opened:\n%s", v)
	}
	m = pressRun(t, m, "esc")
	if len(told) != 2 || told[1] != "" {
		t.Errorf("esc back to the table told the focus %q", told)
	}
}
