package ui

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// plainStyles are the styles of the no-colour mode.
func plainStyles() Styles { return NewStyles(NewRenderer(io.Discard, ColorNever, "")) }

// colourStyles are styles with true colour on a dark background.
func colourStyles() Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	return NewStyles(r)
}

// liveModel is a live model showing snapshot s at now, sized w×h, with pod uid selected.
func liveModel(s timeline.Snapshot, now time.Time, uid string, w, h int, styles Styles) Model {
	m := NewModel(Config{Target: "job/sc-b1", Namespace: "sc-b", Styles: styles})
	m.snap, m.now = s, now
	if uid != "" {
		m.view.pod, m.view.autoPod = uid, false
	}
	m.syncSelection()
	return resize(m, w, h)
}

func resize(m Model, w, h int) Model {
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return next.(Model)
}

var goldenSizes = [][2]int{{40, 10}, {60, 18}, {80, 24}, {100, 30}, {120, 40}}

func TestViewJobPod(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := liveModel(fixture(), at(42), "uid-x7k2p", sz[0], sz[1], plainStyles())
			golden(t, m.View())
		})
	}
}

func TestViewRunningPod(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := liveModel(fixture(), at(42), "", sz[0], sz[1], plainStyles())
			golden(t, m.View())
		})
	}
}

// TestViewSizes draws sizes from 1x1 to 130x45 and checks each view fits: the job's pod with
// and without the help, the waiting view, a replay, and a pod with hardly any data.
func TestViewSizes(t *testing.T) {
	odd := timeline.Snapshot{Pods: timeline.SeqOf([]*timeline.Pod{{UID: "odd", Name: "odd",
		Containers: []timeline.Container{{Name: "a-container-with-a-very-long-name-indeed", Kind: "strange",
			Runs: timeline.SeqOf(&timeline.Run{
				Changes:    []timeline.StateChange{{State: timeline.StateRunning, At: at(5)}},
				Milestones: []timeline.Milestone{{Kind: "unheard-of", At: at(-3)}}})}},
		Events: timeline.SeqOf(timeline.Event{Object: "Pod/odd", Message: strings.Repeat("long ", 50)})}}...)}
	for _, styles := range []Styles{plainStyles(), colourStyles()} {
		models := map[string]Model{
			"job pod":   liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, styles),
			"waiting":   liveModel(timeline.Snapshot{}, time.Time{}, "", 80, 24, styles),
			"odd":       liveModel(odd, time.Time{}, "", 80, 24, styles),
			"replay":    replayingModel(styles),
			"many pods": liveModel(manyPods(), at(42), "", 80, 24, styles),
		}
		for name, m := range models {
			for _, w := range sweep(1, 130, 6, MinWidth) {
				for _, h := range sweep(1, 45, 4, MinHeight) {
					m := resize(m, w, h)
					checkFits(t, name, m.View(), w, h)
					m.helpScreen.open = true
					checkFits(t, name, m.View(), w, h)
				}
			}
		}
	}
}

// sweep is from, from+step, ... up to to, and the sizes around edge.
func sweep(from, to, step, edge int) []int {
	out := []int{edge - 1, edge, edge + 1, to}
	for i := from; i <= to; i += step {
		out = append(out, i)
	}
	return out
}

// manyPods is the fixture with a pod of twelve containers.
func manyPods() timeline.Snapshot {
	s := fixture()
	p := jobPod()
	p.UID = "uid-many"
	p.Containers = append([]timeline.Container(nil), p.Containers...)
	for i := range 9 {
		c := p.Containers[2]
		c.Name = fmt.Sprintf("app-%d", i)
		p.Containers = append(p.Containers, c)
	}
	s.Pods = timeline.SeqOf(append(s.Pods.Slice(), p)...)
	return s
}

func checkFits(t *testing.T, name, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Errorf("%s %dx%d: %d lines", name, w, h, len(lines))
	}
	for i, l := range lines {
		if lw := lipgloss.Width(l); lw > w {
			t.Errorf("%s %dx%d: line %d is %d wide: %q", name, w, h, i, lw, l)
		}
	}
}

// replayingModel is a replay of the fixture paused half way.
func replayingModel(styles Styles) Model {
	m := NewModel(Config{Target: "job/sc-b1", Namespace: "sc-b", Mode: Replay, Control: &fakeControl{}, Styles: styles})
	next, _ := m.Update(FrameMsg{Snapshot: fixture(), Now: at(20), Replay: &play.ReplayState{
		Pos: 20 * time.Second, Total: 42 * time.Second, Speed: 1, Paused: true}})
	return resize(next.(Model), 80, 24)
}
