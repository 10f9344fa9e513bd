package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/google/go-cmp/cmp"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// press sends key presses to m: single characters as runes, else named keys.
func press(t *testing.T, m Model, keys ...string) Model {
	t.Helper()
	named := map[string]tea.KeyType{
		"tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab, "space": tea.KeySpace, "up": tea.KeyUp,
		"down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "home": tea.KeyHome,
		"end": tea.KeyEnd, "ctrl+c": tea.KeyCtrlC,
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
	ch := make(chan tea.Msg, 1)
	boom := errors.New("boom")
	ch <- WatchErrorMsg{Err: boom}
	if got, want := Listen(ch)(), (WatchErrorMsg{Err: boom}); got != want {
		t.Errorf("Listen() = %v, want %v", got, want)
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
	s.Pods = append(s.Pods, newer)
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
	f := m.frame()
	if _, end := f.axisSpan(f.pod(), f.jobOf(f.pod())); !end.Equal(at(42)) {
		t.Errorf("frozen axis ends at %v, want %v", end, at(42))
	}
	m = press(t, m, "f")
	f = m.frame()
	if _, end := f.axisSpan(f.pod(), f.jobOf(f.pod())); !end.Equal(at(60)) {
		t.Errorf("following axis ends at %v, want now %v", end, at(60))
	}
}

func TestMilestoneCursor(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
	n := len(milestoneRows(fixture().Pods[0]))
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
	if !m.view.showHelp || !strings.Contains(m.View(), "zoom in") {
		t.Fatalf("? did not show the full help:\n%s", m.View())
	}
	golden(t, m.View())
	if m = press(t, m, "?"); m.view.showHelp {
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

// podObs is a watch event of pod "web" received s seconds after t0.
func podObs(s float64, typ timeline.WatchType, phase, status string, init, side, app *timeline.ContainerStatus, conds ...timeline.Condition) timeline.Observation {
	return timeline.Observation{Received: at(s), Type: typ, Pod: &timeline.PodObservation{
		UID: "uid-web", Namespace: "ns", Name: "web", ResourceVersion: status, Node: "node-1",
		Created: t0, GracePeriod: 30, RestartPolicy: "Never", Phase: phase, Status: status, Conditions: conds,
		Containers: []timeline.ContainerObservation{
			{Name: "init", Kind: timeline.KindInit, Status: init},
			{Name: "side", Kind: timeline.KindSidecar, HasStartupProbe: true, Status: side},
			{Name: "app", Kind: timeline.KindApp, Status: app},
		},
	}}
}

func running(s int) *timeline.ContainerStatus {
	f := false
	return &timeline.ContainerStatus{Started: &f, Running: &timeline.Running{StartedAt: at(float64(s))}}
}

func ready(s int) *timeline.ContainerStatus {
	tr := true
	return &timeline.ContainerStatus{Started: &tr, Ready: true, Running: &timeline.Running{StartedAt: at(float64(s))}}
}

func exited(from, to int) *timeline.ContainerStatus {
	f := false
	return &timeline.ContainerStatus{Started: &f, Terminated: &timeline.Terminated{
		Reason: "Completed", StartedAt: at(float64(from)), FinishedAt: at(float64(to))}}
}

func waiting(reason string) *timeline.ContainerStatus {
	return &timeline.ContainerStatus{Waiting: &timeline.Waiting{Reason: reason}}
}

// recording is a pod whose init container runs, then its sidecar with a startup probe, then
// its app, which exits; the pod is deleted.
func recording() []timeline.Observation {
	cond := func(typ string, s int) timeline.Condition {
		return timeline.Condition{Type: typ, Status: "True", LastTransition: at(float64(s))}
	}
	return []timeline.Observation{
		podObs(0.2, timeline.Added, "Pending", "Pending", nil, nil, nil),
		podObs(0.4, timeline.Modified, "Pending", "Init:0/2", waiting("PodInitializing"), waiting("PodInitializing"), waiting("PodInitializing"), cond("PodScheduled", 0)),
		podObs(1.3, timeline.Modified, "Pending", "Init:0/2", running(1), waiting("PodInitializing"), waiting("PodInitializing"), cond("PodScheduled", 0)),
		podObs(3.2, timeline.Modified, "Pending", "Init:1/2", exited(1, 3), running(3), waiting("PodInitializing"), cond("PodScheduled", 0)),
		podObs(5.1, timeline.Modified, "Running", "Running", exited(1, 3), ready(3), running(5), cond("PodScheduled", 0), cond("Initialized", 5)),
		podObs(6.3, timeline.Modified, "Running", "Running", exited(1, 3), ready(3), ready(5), cond("PodScheduled", 0), cond("Initialized", 5), cond("Ready", 6)),
		podObs(9.4, timeline.Modified, "Succeeded", "Completed", exited(1, 3), exited(3, 9), exited(5, 9), cond("PodScheduled", 0), cond("Initialized", 5)),
		podObs(10.0, timeline.Deleted, "Succeeded", "Completed", exited(1, 3), exited(3, 9), exited(5, 9), cond("PodScheduled", 0), cond("Initialized", 5)),
	}
}

func replayModel(speed float64) Model {
	m := NewModel(Config{Target: "pod/web", Namespace: "ns", Mode: Replay, Recording: recording(),
		Speed: speed, Styles: plainStyles()})
	return resize(m, 80, 24)
}

func tick(m Model, n int) Model {
	for range n {
		next, _ := m.Update(tickMsg{})
		m = next.(Model)
	}
	return m
}

func TestReplayPlayPauseSpeed(t *testing.T) {
	m := replayModel(1)
	if !m.now.Equal(at(0.2)) || len(m.snap.Pods) != 1 || m.rp.applied != 1 {
		t.Fatalf("start: now %v, %d pods, %d applied; want %v, 1, 1", m.now, len(m.snap.Pods), m.rp.applied, at(0.2))
	}
	type state struct {
		Playhead time.Duration
		Speed    string
		Paused   bool
		Badge    string
	}
	get := func(m Model) state {
		f := m.frame()
		return state{m.rp.playhead.Sub(t0), speedLabel(m.rp.speed), m.rp.paused, modeBadge(&f)}
	}
	var got []state
	m = tick(m, 2) // 1×: 0.1s a tick
	got = append(got, get(m))
	m = tick(press(t, m, "space"), 3) // paused
	got = append(got, get(m))
	m = tick(press(t, m, "2", "space"), 1)
	got = append(got, get(m))
	m = tick(press(t, m, "0"), 1)
	got = append(got, get(m))
	m = press(t, m, "s") // 10× → max
	got = append(got, get(m))
	m = press(t, m, "s", "1") // max → 1× (and 1 again)
	got = append(got, get(m))
	ms := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	want := []state{
		{ms(0.4), "1×", false, "replay ▶ 1× 0.20s/9.80s"},
		{ms(0.4), "1×", true, "replay ‖ paused 1× 0.20s/9.80s"},
		{ms(0.6), "2×", false, "replay ▶ 2× 0.40s/9.80s"},
		{ms(1.6), "10×", false, "replay ▶ 10× 1.40s/9.80s"},
		{ms(1.6), "max", false, "replay ▶ max 1.40s/9.80s"},
		{ms(1.6), "1×", false, "replay ▶ 1× 1.40s/9.80s"},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("replay states (-got +want):\n%s", diff)
	}
	if m.rp.applied != 3 {
		t.Errorf("at +1.6s %d observations applied, want 3", m.rp.applied)
	}
}

func TestReplayMaxAndEnd(t *testing.T) {
	m := tick(replayModel(0), 1)
	if !m.rp.atEnd() || !m.rp.paused || !m.now.Equal(at(10)) {
		t.Fatalf("max: at end %v paused %v now %v; want true, true, %v", m.rp.atEnd(), m.rp.paused, m.now, at(10))
	}
	if v := m.View(); !strings.Contains(v, "end of recording") || !strings.Contains(v, "■ end") {
		t.Errorf("view at the end does not say so:\n%s", v)
	}
	if !m.snap.Pods[0].Deleted {
		t.Error("the whole recording is applied but the pod is not deleted")
	}
	m = press(t, m, "g")
	if !m.now.Equal(at(0.2)) || m.rp.applied != 1 || m.rp.atEnd() {
		t.Errorf("after g: now %v applied %d", m.now, m.rp.applied)
	}
	m = press(t, m, "G")
	if !m.rp.atEnd() || !m.rp.paused {
		t.Error("G did not go to the end, paused")
	}
	m = press(t, m, "home", "end", "space") // space at the end plays again from the start
	if m.rp.paused || !m.now.Equal(at(0.2)) {
		t.Errorf("space at the end: paused %v now %v; want playing from %v", m.rp.paused, m.now, at(0.2))
	}
}

// milestoneCount counts the selected pod's milestones.
func milestoneCount(m Model) int {
	f := m.frame()
	if p := f.pod(); p != nil {
		return len(milestoneRows(p))
	}
	return 0
}

func TestReplayStep(t *testing.T) {
	m := replayModel(1)
	counts := []int{milestoneCount(m)}
	times := []time.Time{m.now}
	for range 20 {
		m = press(t, m, "n")
		if !m.rp.paused {
			t.Fatal("n did not pause")
		}
		counts = append(counts, milestoneCount(m))
		times = append(times, m.now)
		if m.rp.atEnd() {
			break
		}
	}
	if !m.rp.atEnd() {
		t.Fatal("20 steps did not reach the end")
	}
	for i := 1; i < len(counts); i++ {
		if !times[i].After(times[i-1]) || counts[i] <= counts[i-1] {
			t.Errorf("step %d: at %v with %d milestones, after %v with %d; want later and more",
				i, times[i].Sub(t0), counts[i], times[i-1].Sub(t0), counts[i-1])
		}
	}
	// Back again, step by step, through the same moments.
	for i := len(times) - 2; i >= 0; i-- {
		m = press(t, m, "p")
		if !m.now.Equal(times[i]) || milestoneCount(m) != counts[i] {
			t.Errorf("back to step %d: at %v with %d milestones, want %v with %d",
				i, m.now.Sub(t0), milestoneCount(m), times[i].Sub(t0), counts[i])
		}
	}
}

func TestLiveFeed(t *testing.T) {
	ch := make(chan tea.Msg)
	m := NewModel(Config{Target: "pod/web", Namespace: "ns", Feed: ch, Styles: plainStyles()})
	m = resize(m, 80, 24)
	golden(t, m.View())

	rec := recording()
	next, cmd := m.Update(ObservationsMsg(rec[:4]))
	m = next.(Model)
	if cmd == nil {
		t.Error("no command after observations: the feed is not listened to again")
	}
	if len(m.snap.Pods) != 1 || m.view.pod != "uid-web" || !m.now.Equal(at(3.2)) {
		t.Fatalf("after observations: %d pods, selected %q, now %v", len(m.snap.Pods), m.view.pod, m.now)
	}
	next, cmd = m.Update(WatchErrorMsg{Err: errors.New("connection refused")})
	m = next.(Model)
	if cmd == nil || !strings.Contains(m.View(), "watch error: connection refused") {
		t.Errorf("watch error: command %v, view:\n%s", cmd, m.View())
	}
	next, _ = m.Update(tickMsg{at(4)})
	m = next.(Model)
	next, cmd = m.Update(FeedEndedMsg{})
	m = next.(Model)
	if cmd != nil || !strings.Contains(m.View(), "watch ended") {
		t.Errorf("feed ended: command %v, view:\n%s", cmd, m.View())
	}
	if !m.now.Equal(at(4)) {
		t.Errorf("now = %v, want the last tick %v", m.now, at(4))
	}
}
