package ui

import (
	gocontext "context"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/play"
)

// TestRestartReplay: G and g steer a real play.Replay: G goes to the end and pauses, g plays it
// again from the start; the frames it sends afterwards are what the view draws.
func TestRestartReplay(t *testing.T) {
	ctx, cancel := gocontext.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	r := play.NewReplay(readRecording(t, "termination-order"), 1, true, 0)
	go r.Run(ctx)
	m := NewModel(Config{Target: "pod/sc-c", Mode: Replay, Frames: r.Frames(), Control: r, Styles: plainStyles()})
	m = resize(m, 100, 30)
	// next takes frames until one satisfies ok, and shows it.
	next := func(what string, ok func(*play.ReplayState) bool) {
		t.Helper()
		for {
			select {
			case f := <-r.Frames():
				up, _ := m.Update(FrameMsg(f))
				m = up.(Model)
				if ok(f.Replay) {
					return
				}
			case <-ctx.Done():
				t.Fatalf("no frame where %s", what)
			}
		}
	}
	m = press(t, m, "G")
	next("the replay is at its end", func(s *play.ReplayState) bool { return s.AtEnd && s.Paused })
	m = press(t, m, "g")
	next("the replay plays again from before its end",
		func(s *play.ReplayState) bool { return !s.Paused && !s.AtEnd && s.Pos < s.Total })
	if v := m.View(); !strings.Contains(v, "replay ▶ 1×") {
		t.Errorf("after g the header does not say it plays:\n%s", v)
	}
}

func TestIdleText(t *testing.T) {
	cut := play.IdleCut{From: 10 * time.Second, To: 15 * time.Second, Gap: 150 * time.Second}
	for _, tc := range []struct {
		name string
		r    *play.ReplayState
		want string
	}{
		{"no replay", nil, ""},
		{"no cut", &play.ReplayState{Pos: 12 * time.Second, IdleLimit: 5 * time.Second}, ""},
		{"before", &play.ReplayState{Pos: 9 * time.Second, Idle: cut}, ""},
		{"at its start", &play.ReplayState{Pos: 10 * time.Second, Idle: cut}, "… 2m30s idle, skipped"},
		{"in it", &play.ReplayState{Pos: 14 * time.Second, Idle: cut}, "… 2m30s idle, skipped"},
		{"just after", &play.ReplayState{Pos: 16900 * time.Millisecond, Idle: cut}, "… 2m30s idle, skipped"},
		{"2s after", &play.ReplayState{Pos: 17 * time.Second, Idle: cut}, ""},
		{"a short pause", &play.ReplayState{Pos: 10 * time.Second,
			Idle: play.IdleCut{From: 10 * time.Second, To: 15 * time.Second, Gap: 7250 * time.Millisecond}}, "… 7.3s idle, skipped"},
		{"years", &play.ReplayState{Pos: 10 * time.Second,
			Idle: play.IdleCut{From: 10 * time.Second, To: 1<<63 - 1, Gap: 1<<63 - 1}}, "… 106751d idle, skipped"},
	} {
		if got := idleText(tc.r); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestViewIdle: while a cut pause plays, the status line says how long the recording paused,
// and the help says that the replay's clock is cut.
func TestViewIdle(t *testing.T) {
	m := NewModel(Config{Target: "job/sc-b1", Namespace: "sc-b", Mode: Replay, Control: &fakeControl{}, Styles: plainStyles()})
	next, _ := m.Update(FrameMsg{Snapshot: fixture(), Now: at(20), Replay: &play.ReplayState{
		Pos: 12 * time.Second, Total: 40 * time.Second, Speed: 1, IdleLimit: 5 * time.Second,
		Idle: play.IdleCut{From: 10 * time.Second, To: 15 * time.Second, Gap: 150 * time.Second}}})
	m = resize(next.(Model), 100, 24)
	golden(t, m.View())
	m = press(t, m, "?")
	f := m.frameView()
	if help := strings.Join(helpLines(&f), " "); !strings.Contains(help, "replay clock") {
		t.Errorf("the replay's help does not say the clock is cut:\n%s", help)
	}
}
