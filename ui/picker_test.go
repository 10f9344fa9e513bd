package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/google/go-cmp/cmp"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// jobSnapshot is the snapshot of a Job of n synthetic pods, each with a main container that
// restarts twice, with the receive time of its last observation.
func jobSnapshot(n int) (timeline.Snapshot, time.Time) {
	obs := jobObservations(n)
	_, s := build(obs)
	return s, obs[len(obs)-1].Received
}

// pickerNames are the names of the pods m's picker lists, in order.
func pickerNames(m Model) []string {
	l := m.pickerList(m.picker.filter, m.picker.slowest)
	var out []string
	for _, in := range l.rows {
		out = append(out, in.name)
	}
	return out
}

func TestPickerKeys(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
	m = press(t, m, "P")
	if !m.picker.open || m.picker.cursor != "uid-x7k2p" {
		t.Fatalf("P: open %v cursor %q, want open on the pod shown", m.picker.open, m.picker.cursor)
	}
	if diff := cmp.Diff(pickerNames(m), []string{"sc-b1-x7k2p", "sc-a"}); diff != "" {
		t.Errorf("listed (-got +want):\n%s", diff)
	}
	// Keys that mean something else outside the picker move in it, or do nothing.
	m = press(t, m, "j", "n", "tab", "+")
	if m.picker.cursor != "uid-sc-a" || m.view.pod != "uid-x7k2p" || m.view.zoom != 0 {
		t.Errorf("after j n tab +: cursor %q pod %q zoom %v, want the cursor on sc-a and nothing else changed",
			m.picker.cursor, m.view.pod, m.view.zoom)
	}
	m = press(t, m, "esc")
	if m.picker.open || m.view.pod != "uid-x7k2p" {
		t.Errorf("esc: open %v pod %q, want closed and the pod kept", m.picker.open, m.view.pod)
	}
	// Filter by typing: q and j are letters there; esc goes back to the filter before.
	m = press(t, m, "P", "/", "s", "c", "-", "a")
	if got := pickerNames(m); !m.picker.typing || m.picker.filter != "sc-a" || !cmp.Equal(got, []string{"sc-a"}) {
		t.Errorf("typing sc-a: typing %v filter %q listed %v", m.picker.typing, m.picker.filter, got)
	}
	m = press(t, m, "q", "j", "esc")
	if m.picker.typing || m.picker.filter != "" {
		t.Errorf("esc while typing: typing %v filter %q, want the filter before (empty)", m.picker.typing, m.picker.filter)
	}
	// Enter picks the pod under the cursor, which the filter put on the only pod listed.
	m = press(t, m, "/", "R", "U", "N", "backspace", "N", "enter")
	if m.picker.open || m.view.pod != "uid-sc-a" || m.view.autoPod {
		t.Errorf("enter: open %v pod %q autoPod %v, want closed on sc-a, picked", m.picker.open, m.view.pod, m.view.autoPod)
	}
	// The filter stays for the next time; o orders by the slowest gap; P closes.
	m = press(t, m, "P")
	if m.picker.filter != "RUN" {
		t.Errorf("filter on reopening = %q, want RUN kept", m.picker.filter)
	}
	m = press(t, m, "/", "backspace", "backspace", "backspace", "enter")
	if m.picker.open || m.view.pod != "uid-sc-a" {
		t.Fatalf("enter with no filter: open %v pod %q, want closed on the pod under the cursor", m.picker.open, m.view.pod)
	}
	m = press(t, m, "P", "o")
	if diff := cmp.Diff(pickerNames(m), []string{"sc-b1-x7k2p", "sc-a"}); diff != "" || !m.picker.slowest {
		t.Errorf("slowest first (sc-a has no gap, so it goes last) (-got +want):\n%s", diff)
	}
	m = press(t, m, "P")
	if m.picker.open {
		t.Error("P did not close the picker")
	}
}

func TestPickerPages(t *testing.T) {
	s, now := jobSnapshot(100)
	m := liveModel(s, now, s.Pods.At(0).UID, 80, 24, plainStyles())
	page := pickerRows(24, true) - 1
	m = press(t, m, "P", "pgdown", "pgdown", "down", "pgup")
	want := s.Pods.At(page + 1).UID
	if m.picker.cursor != want {
		t.Errorf("cursor after pgdn pgdn ↓ pgup = %q, want %q (a page is %d rows)", m.picker.cursor, want, page)
	}
	m = press(t, m, "/", "0", "0", "9", "9", "enter")
	if m.view.pod != "uid-batch-0099" {
		t.Errorf("picked %q, want uid-batch-0099", m.view.pod)
	}
	// Up past the first and down past the last stay there.
	m = press(t, m, "P", "esc", "pgup", "pgup", "pgup", "pgup", "pgup", "pgup", "up")
	if !m.picker.open || m.picker.filter != "" {
		t.Fatalf("esc with a filter: open %v filter %q, want the filter cleared and the picker open", m.picker.open, m.picker.filter)
	}
	if got := m.picker.cursor; got != s.Pods.At(0).UID {
		t.Errorf("cursor after paging up past the top = %q, want the first pod", got)
	}
}

// TestQuitEverywhere: ctrl+c quits in every mode; q does too, except while a search or a filter
// is typed, where it is a letter.
func TestQuitEverywhere(t *testing.T) {
	for _, tc := range []struct {
		name, key string
		before    []string
		quits     bool
	}{
		{"picker q", "q", []string{"P"}, true},
		{"picker ctrl+c", "ctrl+c", []string{"P"}, true},
		{"picker filter q", "q", []string{"P", "/"}, false},
		{"picker filter ctrl+c", "ctrl+c", []string{"P", "/"}, true},
		{"search q", "q", []string{"/", "x", "enter"}, true},
		{"search typing q", "q", []string{"/"}, false},
		{"search typing ctrl+c", "ctrl+c", []string{"/", "x"}, true},
		{"help q", "q", []string{"?"}, true},
		{"events q", "q", []string{"e", "pgup"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
			m = press(t, m, tc.before...)
			msg := keyMsg(tc.key)
			if tc.key == "ctrl+c" {
				msg = tea.KeyMsg{Type: tea.KeyCtrlC}
			}
			next, cmd := m.Update(msg)
			quits := false
			if cmd != nil {
				_, quits = cmd().(tea.QuitMsg)
			}
			if quits != tc.quits {
				t.Errorf("%s after %v: quits %v, want %v", tc.key, tc.before, quits, tc.quits)
			}
			if !tc.quits {
				if n := next.(Model); n.view.search.query != "q" && n.picker.filter != "q" {
					t.Errorf("q was not typed: query %q filter %q", n.view.search.query, n.picker.filter)
				}
			}
		})
	}
}

// manyJobPods is a snapshot of the fixture's job with n pods like its own, named batch-0000 on,
// whose STATUS and named gaps vary from pod to pod.
func manyJobPods(n int) timeline.Snapshot {
	s := fixture()
	statuses := []string{"Completed", "Running", "CrashLoopBackOff", "Init:1/2", "Error"}
	pods := make([]*timeline.Pod, n)
	for i := range pods {
		p := jobPod()
		p.Name, p.UID = fmt.Sprintf("batch-%04d", i), fmt.Sprintf("uid-batch-%04d", i)
		p.Status = statuses[(i*7)%len(statuses)]
		p.Deleted = i%97 == 5
		p.Gaps = append([]timeline.Gap(nil), p.Gaps...)
		for j := range p.Gaps {
			k := time.Duration(1 + (i*31+j*17)%23)
			g := &p.Gaps[j]
			g.Span = timeline.Span{Value: g.Span.Value * k, Min: g.Span.Min * k, Max: g.Span.Max * k}
		}
		pods[i] = p
	}
	s.Pods = timeline.SeqOf(pods...)
	return s
}

// TestViewPicker draws the picker over a Job of 1,000 pods: the first rows, the rows around a
// cursor far down, a filter, and slowest first.
func TestViewPicker(t *testing.T) {
	s, now := manyJobPods(1000), at(42)
	for _, tc := range []struct {
		name string
		w, h int
		keys []string
	}{
		{"open", 80, 24, []string{"P"}},
		{"far", 100, 20, []string{"P", "pgdown", "pgdown", "pgdown", "down"}},
		{"filter", 80, 16, []string{"P", "/", "0", "9", "9"}},
		{"status", 120, 16, []string{"P", "/", "c", "r", "a", "s", "h", " ", "0", "0", "enter"}},
		{"slowest", 60, 18, []string{"P", "o"}},
		{"none", 40, 10, []string{"P", "/", "n", "o", "n", "e"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := liveModel(s, now, s.Pods.At(0).UID, tc.w, tc.h, plainStyles())
			m = press(t, m, tc.keys...)
			v := m.View()
			checkFits(t, tc.name, v, tc.w, tc.h)
			golden(t, v)
		})
	}
	// What the picker lists does not depend on the window: only what it shows does.
	m := liveModel(s, now, s.Pods.At(0).UID, 80, 24, plainStyles())
	m = press(t, m, "P", "/", "0", "0", "7")
	if got := len(pickerNames(m)); got != 11 {
		t.Errorf("filter 007 lists %d pods, want 11 (batch-0007, batch-0070 to 0079)", got)
	}
	if v := m.View(); !strings.Contains(v, "11 of 1000 pods") {
		t.Errorf("the title does not count what is listed:\n%s", v)
	}
}

// TestPickerMemo: the list is made once per snapshot and filter, and a new snapshot looks again
// only at the pods that changed.
func TestPickerMemo(t *testing.T) {
	s, _ := jobSnapshot(20)
	memo := newNavMemo()
	a := memo.pickerList(s.Pods, "", false)
	if b := memo.pickerList(s.Pods, "", false); a != b {
		t.Error("the same snapshot and filter made the list again")
	}
	next := s.Pods.Slice()
	changed := *next[3]
	changed.Status = "Changed"
	next[3] = &changed
	nextPods := timeline.SeqOf(next...)
	b := memo.pickerList(nextPods, "", false)
	if a == b {
		t.Fatal("a snapshot with a changed pod got the old list")
	}
	for i := range next {
		same := a.rows[i] == b.rows[i]
		if same != (i != 3) {
			t.Errorf("pod %d: info kept %v, want kept only for the pods that did not change", i, same)
		}
	}
	if got := b.rows[3].status; got != "Changed" {
		t.Errorf("changed pod's status %q, want Changed", got)
	}
	if got := fmt.Sprint(len(memo.pickerList(nextPods, "changed", false).rows)); got != "1" {
		t.Errorf("filter on STATUS lists %s pods, want 1", got)
	}
}

// TestPickerOverHelp: P and / close the help, which would hide what they show; with no pod yet
// the picker says so.
func TestPickerOverHelp(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
	if m = press(t, m, "?", "P"); m.helpScreen.open || !m.picker.open {
		t.Errorf("? P: help %v picker %v, want the picker alone", m.helpScreen.open, m.picker.open)
	}
	if m = press(t, m, "esc", "?", "/"); m.helpScreen.open || !m.view.search.typing {
		t.Errorf("? /: help %v typing %v, want the search alone", m.helpScreen.open, m.view.search.typing)
	}
	empty := liveModel(timeline.Snapshot{}, at(0), "", 80, 24, plainStyles())
	if v := press(t, empty, "P", "down", "enter", "P").View(); !strings.Contains(v, "no pod yet") {
		t.Errorf("the picker with no pod:\n%s", v)
	}
}
