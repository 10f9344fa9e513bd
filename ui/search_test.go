package ui

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sidecar-top/sidecar-top/play"
)

// cursors presses keys one at a time and notes the cursor of the table in focus after each.
func cursors(t *testing.T, m Model, keys ...string) (Model, []int) {
	t.Helper()
	var got []int
	for _, k := range keys {
		m = press(t, m, k)
		got = append(got, *m.tableCursor())
	}
	return m, got
}

// In the fixture's job pod, rows 4, 13, 16, 19, 23 and 25 are exits; 24 and 25 say SIGTERM.

func TestSearchMilestones(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 100, 30, plainStyles())
	m, got := cursors(t, m, "/", "e", "x", "i", "t", "enter", "n", "n", "N", "N", "N", "esc", "n")
	// Typing goes to the first match from the top; enter keeps it; n and N go round the matches;
	// esc ends the search, and n is the next milestone again.
	want := []int{-1, 0, 4, 4, 4, 4, 13, 16, 13, 4, 25, 25, 26}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("cursor (-got +want):\n%s", diff)
	}
	if m.view.search.query != "" || m.searching() {
		t.Errorf("after esc: query %q, want none", m.view.search.query)
	}

	// A search starts from the cursor, and esc while typing goes back to it and the query before.
	m.view.cursor = 14
	m, got = cursors(t, m, "/", "s", "i", "g", "enter", "/", "e", "x", "i", "t", "esc")
	want = []int{14, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("cursor from row 14 (-got +want):\n%s", diff)
	}
	if m.view.search.query != "sig" || m.view.search.typing {
		t.Errorf("esc while typing: query %q typing %v, want sig kept", m.view.search.query, m.view.search.typing)
	}

	// z matches "initialized" only (wrapping round), zq nothing: the cursor goes back to where the
	// search began and the status line says so; backspace past the start ends the typing as esc
	// does.
	m, got = cursors(t, m, "/", "z", "q")
	if !cmp.Equal(got, []int{16, 6, 16}) || !strings.Contains(m.View(), "/zq_  no match") {
		t.Errorf("no match: cursor %v, view:\n%s", got, m.View())
	}
	m = press(t, m, "backspace", "backspace", "backspace")
	if m.view.search.typing || m.view.search.query != "sig" {
		t.Errorf("backspace past the start: typing %v query %q, want sig back", m.view.search.typing, m.view.search.query)
	}

	// Another pod keeps the query and starts its table anew.
	m = press(t, m, "tab", "n")
	if m.view.pod != "uid-sc-a" || m.view.search.query != "sig" {
		t.Errorf("after tab: pod %q query %q", m.view.pod, m.view.search.query)
	}
}

func TestSearchEvents(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 100, 30, plainStyles())
	// The job pod's Events and its job's: 3, 4 and 5 are Started, 7 says "will be restarted".
	m, got := cursors(t, m, "e", "/", "s", "t", "a", "r", "t", "e", "d", "enter", "n", "n", "n", "N")
	want := []int{-1, -1, 0, 3, 3, 3, 3, 3, 3, 3, 4, 5, 7, 5}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("events cursor (-got +want):\n%s", diff)
	}
	if m.view.cursor != -1 {
		t.Errorf("the milestone cursor moved to %d; the search was of the Events", m.view.cursor)
	}
	golden(t, m.View())
	// e again: the milestone table is in focus, and the query searches it.
	m, got = cursors(t, m, "e", "n")
	if !cmp.Equal(got, []int{-1, 7}) {
		t.Errorf("after e: milestone cursor %v, want -1, then 7 (sidecar started)", got)
	}
}

// TestSearchView: the rows a search matches are marked, the cursor on the one it went to.
func TestSearchView(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 100, 30, plainStyles())
	m = press(t, m, "/", "e", "x", "i", "t", " ", "1", "3", "7", "enter", "n")
	golden(t, m.View())
}

// TestSearchInReplay: while a search holds, n and N go to the matches and do not step the
// replay; once it ends, they step again.
func TestSearchInReplay(t *testing.T) {
	c := &fakeControl{}
	m := NewModel(Config{Target: "job/sc-b1", Namespace: "sc-b", Mode: Replay, Control: c, Styles: plainStyles()})
	m = resize(m, 100, 30)
	next, _ := m.Update(FrameMsg{Snapshot: fixture(), Now: at(42), Replay: &play.ReplayState{Pos: 42e9, Total: 42e9, Paused: true}})
	m = next.(Model)
	m = press(t, m, "tab") // the job's pod
	m = press(t, m, "/", "e", "x", "i", "t", "enter", "n", "N")
	if len(c.calls) != 0 || m.view.cursor != 4 {
		t.Errorf("searching: replay calls %v cursor %d, want none and row 4", c.calls, m.view.cursor)
	}
	m = press(t, m, "esc", "n")
	if diff := cmp.Diff(c.calls, []string{"step 1 [uid-x7k2p uid-job]"}); diff != "" {
		t.Errorf("after the search, n (-got +want):\n%s", diff)
	}
}

func TestQuery(t *testing.T) {
	for _, tc := range []struct {
		q, text string
		want    bool
	}{
		{"exit", "sidecar exit exit 137 (SIGKILL)", true},
		{"EXIT sigkill", "sidecar exit exit 137 (SIGKILL)", true},
		{"exit sigterm", "sidecar exit exit 137 (SIGKILL)", false},
		{"", "anything", false},
		{"  ", "anything", false},
	} {
		if got := newQuery(tc.q).match(tc.text); got != tc.want {
			t.Errorf("%q matches %q = %v, want %v", tc.q, tc.text, got, tc.want)
		}
	}
}
