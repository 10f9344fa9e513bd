package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/google/go-cmp/cmp"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// press sends key presses to m: single characters as runes, else named keys.
func press(t testing.TB, m Model, keys ...string) Model {
	t.Helper()
	named := map[string]tea.KeyType{
		"tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab, "space": tea.KeySpace, "up": tea.KeyUp,
		"down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "home": tea.KeyHome,
		"end": tea.KeyEnd, "ctrl+c": tea.KeyCtrlC, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"esc": tea.KeyEsc, "enter": tea.KeyEnter, "backspace": tea.KeyBackspace,
	}
	for _, k := range keys {
		msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		if typ, ok := named[k]; ok {
			msg = tea.KeyMsg{Type: typ}
		}
		next, _ := m.Update(msg)
		m = next.(Model)
	}
	return m
}

func TestListen(t *testing.T) {
	ch := make(chan play.Frame, 1)
	boom := errors.New("boom")
	ch <- play.Frame{WatchErr: boom}
	if got := Listen(ch)(); got.(FrameMsg).WatchErr != boom {
		t.Errorf("Listen() = %v, want the frame with the watch error", got)
	}
	close(ch)
	if got := Listen(ch)(); got != (FeedEndedMsg{}) {
		t.Errorf("Listen() on a closed channel = %#v, want FeedEndedMsg{}", got)
	}
	if Listen(nil) != nil {
		t.Error("Listen(nil) is not nil")
	}
}

func TestQuit(t *testing.T) {
	for _, msg := range []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("q")}, {Type: tea.KeyCtrlC}} {
		m := liveModel(fixture(), at(42), "", 80, 24, plainStyles())
		_, cmd := m.Update(msg)
		if cmd == nil {
			t.Fatalf("%s: no command", msg)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%s: command gives %T, want tea.QuitMsg", msg, cmd())
		}
	}
}

func TestSelectLane(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
	var got []string
	for _, k := range []string{"j", "j", "down", "j", "k", "up", "k", "k"} {
		m = press(t, m, k)
		got = append(got, m.view.lane)
	}
	want := []string{"init-sleep", "sidecar", "app", "app", "sidecar", "init-sleep", "", ""}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("lanes (-got +want):\n%s", diff)
	}
}

func TestSwitchPod(t *testing.T) {
	m := liveModel(fixture(), at(42), "", 80, 24, plainStyles())
	if m.view.pod != "uid-sc-a" {
		t.Fatalf("first selected pod %q, want the newest, uid-sc-a", m.view.pod)
	}
	m = press(t, m, "j", "j") // the sidecar lane exists in both pods
	var got []string
	for _, k := range []string{"tab", "tab", "shift+tab", "left", "l", "h"} {
		m = press(t, m, k)
		got = append(got, m.view.pod)
	}
	want := []string{"uid-x7k2p", "uid-sc-a", "uid-x7k2p", "uid-sc-a", "uid-x7k2p", "uid-sc-a"}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("pods (-got +want):\n%s", diff)
	}
	if m.view.lane != "sidecar" || m.view.autoPod {
		t.Errorf("after switching: lane %q autoPod %v, want sidecar and false", m.view.lane, m.view.autoPod)
	}
	// A new snapshot keeps the user's pick even when a newer pod appears.
	m = press(t, m, "tab")
	s := fixture()
	newer := runningPod()
	newer.UID, newer.Created = "uid-sc-a-2", at(50)
	s.Pods = timeline.SeqOf(append(s.Pods.Slice(), newer)...)
	m.snap = s
	m.syncSelection()
	if m.view.pod != "uid-x7k2p" {
		t.Errorf("after a new pod: selected %q, want uid-x7k2p kept", m.view.pod)
	}
}

func TestZoomAndFollow(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
	var got []time.Duration
	for _, k := range []string{"+", "+", "=", "-", "-", "-", "-"} {
		m = press(t, m, k)
		got = append(got, m.view.zoom)
	}
	// The fit span is 41.9s: zooming in goes 30s, 15s, 10s; out 15s, 30s, then fit (0).
	want := []time.Duration{30 * time.Second, 15 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second, 0, 0}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("zoom (-got +want):\n%s", diff)
	}
	m = press(t, m, "f")
	if m.view.follow || !m.view.frozenEnd.Equal(at(42)) {
		t.Errorf("after f: follow %v frozen at %v, want false and %v", m.view.follow, m.view.frozenEnd, at(42))
	}
	// Time goes on; the frozen axis stays where it was.
	next, _ := m.Update(tickMsg{at(60)})
	m = next.(Model)
	f := m.frameView()
	if _, end := f.axisSpan(f.pod(), f.jobOf(f.pod())); !end.Equal(at(42)) {
		t.Errorf("frozen axis ends at %v, want %v", end, at(42))
	}
	m = press(t, m, "f")
	f = m.frameView()
	if _, end := f.axisSpan(f.pod(), f.jobOf(f.pod())); !end.Equal(at(60)) {
		t.Errorf("following axis ends at %v, want now %v", end, at(60))
	}
}

func TestMilestoneCursor(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
	n := len(fixture().Pods.At(0).Rows())
	var got []int
	for _, k := range []string{"p", "p", "n", "n", "n", "n"} {
		m = press(t, m, k)
		got = append(got, m.view.cursor)
	}
	want := []int{n - 1, n - 2, n - 1, -1, 0, 1}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("cursor (-got +want):\n%s", diff)
	}
	m = press(t, m, "tab")
	if m.view.cursor != -1 {
		t.Errorf("cursor after switching pods = %d, want -1", m.view.cursor)
	}
}

func TestHelpToggle(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
	m = press(t, m, "?")
	if !m.helpScreen.open || !strings.Contains(m.View(), "zoom in") {
		t.Fatalf("? did not show the full help:\n%s", m.View())
	}
	golden(t, m.View())
	if m = press(t, m, "?"); m.helpScreen.open {
		t.Error("? again did not hide the help")
	}
}

func TestResize(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
	m = resize(m, 120, 40)
	if m.width != 120 || m.height != 40 || m.help.Width != 120 {
		t.Errorf("size %dx%d, help width %d; want 120x40 and 120", m.width, m.height, m.help.Width)
	}
	if got := len(strings.Split(m.View(), "\n")); got != 40 {
		t.Errorf("view has %d lines, want 40", got)
	}
	m = resize(m, 30, 8)
	if got, want := m.View(), "too small: need 40x10"; got != want {
		t.Errorf("tiny view = %q, want %q", got, want)
	}
	if m := NewModel(Config{Styles: plainStyles()}); m.View() != "" {
		t.Errorf("view before the first size = %q, want empty", m.View())
	}
}

// fakeControl notes what the view asks of a replay.
type fakeControl struct{ calls []string }

func (c *fakeControl) TogglePause()       { c.calls = append(c.calls, "pause") }
func (c *fakeControl) CycleSpeed()        { c.calls = append(c.calls, "cycle") }
func (c *fakeControl) SetSpeed(s float64) { c.calls = append(c.calls, "speed "+speedLabel(s)) }
func (c *fakeControl) SeekEnd()           { c.calls = append(c.calls, "end") }
func (c *fakeControl) Restart()           { c.calls = append(c.calls, "restart") }
func (c *fakeControl) Step(dir int, uids ...string) {
	c.calls = append(c.calls, fmt.Sprintf("step %d %v", dir, uids))
}

// TestReplayKeys: in replay the keys steer the player; the frames it sends are what is drawn.
func TestReplayKeys(t *testing.T) {
	c := &fakeControl{}
	m := NewModel(Config{Target: "job/sc-b1", Namespace: "sc-b", Mode: Replay, Control: c, Styles: plainStyles()})
	m = resize(m, 80, 24)
	next, _ := m.Update(FrameMsg{Snapshot: fixture(), Now: at(20), Replay: &play.ReplayState{
		Pos: 20 * time.Second, Total: 42 * time.Second, Speed: 2, Paused: true}})
	m = next.(Model)
	m = press(t, m, "space", "s", "1", "2", "0", "m", "G", "g", "n", "p", "tab", "n")
	want := []string{"pause", "cycle", "speed 1×", "speed 2×", "speed 10×", "speed max", "end", "restart",
		"step 1 [uid-sc-a]", "step -1 [uid-sc-a]", "step 1 [uid-x7k2p uid-job]"}
	if diff := cmp.Diff(want, c.calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	f := m.frameView()
	if got, want := modeBadge(&f), "replay ‖ paused 2× 20.00s/42.00s"; got != want {
		t.Errorf("badge %q, want %q", got, want)
	}
}

func TestLiveFeed(t *testing.T) {
	ch := make(chan play.Frame)
	m := NewModel(Config{Target: "pod/web", Namespace: "ns", Frames: ch, Styles: plainStyles()})
	m = resize(m, 80, 24)
	golden(t, m.View())

	s := fixture()
	s.Pods = timeline.SeqOf(s.Pods.Slice()[1:]...)
	next, cmd := m.Update(FrameMsg{Snapshot: s, Now: at(41.5)})
	m = next.(Model)
	if cmd == nil {
		t.Error("no command after a frame: the player is not listened to again")
	}
	if m.snap.Pods.Len() != 1 || m.view.pod != "uid-sc-a" || !m.now.Equal(at(41.5)) {
		t.Fatalf("after a frame: %d pods, selected %q, now %v", m.snap.Pods.Len(), m.view.pod, m.now)
	}
	next, cmd = m.Update(FrameMsg{Snapshot: s, Now: at(41.5), WatchErr: errors.New("connection refused")})
	m = next.(Model)
	if cmd == nil || !strings.Contains(m.View(), "watch error: connection refused") {
		t.Errorf("watch error: command %v, view:\n%s", cmd, m.View())
	}
	next, _ = m.Update(tickMsg{at(44)})
	m = next.(Model)
	next, cmd = m.Update(FeedEndedMsg{})
	m = next.(Model)
	if cmd != nil || !strings.Contains(m.View(), "watch ended") {
		t.Errorf("feed ended: command %v, view:\n%s", cmd, m.View())
	}
	if !m.now.Equal(at(44)) {
		t.Errorf("now = %v, want the last tick %v", m.now, at(44))
	}
}
