package ui

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// shownRows reads "first-last of n" from the milestone table's heading in view: how many rows
// the table shows.
func shownRows(t *testing.T, view string) int {
	t.Helper()
	m := regexp.MustCompile(`(\d+)-(\d+) of \d+\n`).FindStringSubmatch(view)
	if m == nil {
		t.Fatalf("no rows count in the table's heading:\n%s", view)
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	return b - a + 1
}

// TestPageMilestones: PgUp from the newest rows starts a page above the last row; each page is
// the rows shown less one; PgDn past the last row follows the newest rows again.
func TestPageMilestones(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 100, 30, plainStyles())
	page := shownRows(t, m.View()) - 1
	n := len(fixture().Pods.At(0).Rows())
	keys := []string{"pgup", "pgup", "pgup", "pgup", "pgup", "pgdown", "pgdown", "pgdown"}
	m, got := cursors(t, m, keys...)
	var want []int
	c := -1
	for _, k := range keys {
		switch {
		case k == "pgup" && c < 0:
			c = max(n-1-page, 0)
		case k == "pgup":
			c = max(c-page, 0)
		case c >= 0 && c+page < n:
			c += page
		default:
			c = -1
		}
		want = append(want, c)
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("cursor, a page of %d of %d rows (-got +want):\n%s", page, n, diff)
	}
	for range n {
		m = press(t, m, "pgdown")
	}
	if m.view.cursor != -1 {
		t.Errorf("cursor after paging down past the end = %d, want -1", m.view.cursor)
	}
	if _, got := cursors(t, m, "pgdown"); got[0] != -1 {
		t.Errorf("pgdn on the newest rows moved the cursor to %d", got[0])
	}
}

// TestPageEvents: e puts the Events in focus, which then take the room before the table, and
// PgUp/PgDn page them as they do the milestones.
func TestPageEvents(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 30, plainStyles())
	m = press(t, m, "e")
	events := regexp.MustCompile(`EVENTS .* (\d+)-(\d+) of (\d+)\n`).FindStringSubmatch(m.View())
	if events == nil {
		t.Fatalf("the Events' heading does not say which are shown:\n%s", m.View())
	}
	a, _ := strconv.Atoi(events[1])
	b, _ := strconv.Atoi(events[2])
	n, _ := strconv.Atoi(events[3])
	page := b - a
	keys := []string{"pgup", "pgup", "pgup", "pgdown", "pgdown", "pgdown", "pgdown"}
	m, got := cursors(t, m, keys...)
	want := []int{n - 1 - page, max(n-1-2*page, 0), max(n-1-3*page, 0)}
	for range 4 {
		c := want[len(want)-1]
		if c < 0 || c+page >= n {
			c = -1
		} else {
			c += page
		}
		want = append(want, c)
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("events cursor, %d of %d shown (-got +want):\n%s", b-a+1, n, diff)
	}
	if m.view.cursor != -1 {
		t.Errorf("the milestone cursor moved to %d", m.view.cursor)
	}
	m = press(t, m, "pgup", "pgup")
	golden(t, m.View())
}

// TestPan: zoomed in, ←/→ (and h/l) move the window a quarter of its span, freeze the axis where
// they stop and follow now again once it is reached; the window stops at the origin. At fit
// they move between pods (TestSwitchPod).
func TestPan(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
	m = press(t, m, "+", "+", "+") // 10s
	if m.view.zoom != 10*time.Second {
		t.Fatalf("zoom %v, want 10s", m.view.zoom)
	}
	end := func(m Model) string {
		f := m.frameView()
		start, end := f.axisSpan(f.pod(), f.jobOf(f.pod()))
		return fmt.Sprintf("%v-%v follow=%v", start.Sub(t0), end.Sub(t0), m.view.follow)
	}
	var got []string
	for _, k := range []string{"h", "left", "l", "right", "h"} {
		m = press(t, m, k)
		got = append(got, end(m))
	}
	want := []string{
		"29.5s-39.5s follow=false", "27s-37s follow=false", "29.5s-39.5s follow=false",
		"32s-42s follow=true", "29.5s-39.5s follow=false",
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("windows (-got +want):\n%s", diff)
	}
	for range 20 {
		m = press(t, m, "h")
	}
	if got, want := end(m), "0s-10s follow=false"; got != want {
		t.Errorf("panned to the start: %s, want %s", got, want)
	}
	golden(t, m.View())
	if m.view.pod != "uid-x7k2p" {
		t.Errorf("panning changed the pod to %q", m.view.pod)
	}
}

func TestPageCursor(t *testing.T) {
	for _, tc := range []struct{ c, n, size, d, want int }{
		{-1, 27, 10, -1, 16},
		{16, 27, 10, -1, 6},
		{6, 27, 10, -1, 0},
		{0, 27, 10, 1, 10},
		{20, 27, 10, 1, -1},
		{-1, 27, 10, 1, -1},
		{-1, 0, 10, -1, -1},
	} {
		if got := pageCursor(tc.c, tc.n, tc.size, tc.d); got != tc.want {
			t.Errorf("pageCursor(%d, %d, %d, %d) = %d, want %d", tc.c, tc.n, tc.size, tc.d, got, tc.want)
		}
	}
}
