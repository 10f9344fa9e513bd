package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/sidecar-top/sidecar-top/internal/hostile"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// hostileText are strings a container, a pod's author or a recording can put where the view shows
// text: terminal commands (OSC 52 sets the clipboard, OSC 0 the window title, CSI moves the
// cursor and clears the screen, C1 CSI does the same on some terminals), text that reads
// otherwise than it is (a bidi override, isolates, zero-width characters), controls, bytes that
// are not UTF-8, wide characters, and a message of 10 kB.
var hostileText = []string{
	"\x1b]52;c;cm0gLXJmIH4vKgo=\x07",
	"\x1b]0;you have been pwned\x1b\\",
	"\x1b[2J\x1b[H\x1b[31mfake output\x1b[0m",
	"\u009b2J\u009d0;title\u009c",
	"invoice\u202egpj.exe",
	"\u2066isolated\u2069 \u2067rtl\u2069",
	"zero\u200bwidth\u200djoiner\u2060\ufeff",
	"line one\nline two\r\tbell\a\x00del\x7f",
	"bad utf8 \xff\xfe\xc0",
	"日本語のコンテナ名前",
	"tags\U000e0041\U000e007f and \u00adsoft\u180e",
	strings.Repeat("10kB\x1b[1m message 容器 ", 400),
}

// hostileSnapshot is the fixture with a hostile string in every text the view or plain output
// shows: names, statuses, reasons, messages, Events, gaps, findings, notes.
func hostileSnapshot() timeline.Snapshot {
	h := func(i int) string { return hostileText[i%len(hostileText)] }
	s := fixture()
	p := hostile.Pod(*jobPod(), h)
	p.Owner = &timeline.OwnerRef{Kind: "Job", Name: "sc-b1"}
	evs := append(p.Events.Slice(), timeline.Event{At: at(20), Object: h(9), Reason: h(10), Message: h(11), Type: "Warning", Count: 2})
	p.Events = timeline.SeqOf(evs...)
	p = p.WithFindings([]timeline.Finding{
		{Severity: timeline.SeverityWarning, Pod: p.Name, Container: p.Containers[1].Name, Text: h(5) + " restarted"},
		{Severity: timeline.SeverityInfo, Pod: h(9), Container: h(10), Text: h(11)},
	})
	j := hostile.Conditions(*fixtureJob(), h, 3) // a condition's type, which any writer of the Job's status picks
	j.Name, j.Status = "sc-b1", h(8)
	s.Pods = timeline.SeqOf([]*timeline.Pod{p, s.Pods.At(1)}...)
	s.Jobs = []*timeline.Job{j}
	s.Notes = []string{h(0), h(2)}
	return s
}

// checkSafe fails the test if out holds a control character (a newline aside), an escape
// sequence, or a character that changes how text reads, or if a line is wider than width (when
// width > 0) or there are more than height lines (when height > 0).
func checkSafe(t *testing.T, what, out string, width, height int) {
	t.Helper()
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			t.Fatalf("%s: byte %#x at %d is not UTF-8: %q", what, out[i], i, context(out, i))
		case r == '\n':
		case r < 0x20 || r == 0x7f:
			t.Fatalf("%s: control %#x at %d: %q", what, r, i, context(out, i))
		case present.Unsafe(r):
			t.Fatalf("%s: %U at %d: %q", what, r, i, context(out, i))
		}
		i += size
	}
	lines := strings.Split(out, "\n")
	if height > 0 && len(lines) > height {
		t.Errorf("%s: %d lines, want at most %d", what, len(lines), height)
	}
	for i, l := range lines {
		if width > 0 && lipgloss.Width(l) > width {
			t.Errorf("%s: line %d is %d cells wide, want at most %d: %q", what, i, lipgloss.Width(l), width, l)
		}
	}
}

func context(s string, i int) string { return s[max(i-30, 0):min(i+30, len(s))] }

// TestHostileView draws a pod whose every text is hostile, at several sizes, with each lane and
// the help shown, a watch error and its end: nothing hostile reaches the terminal raw, the
// escaped text is there to read, and every line fits.
func TestHostileView(t *testing.T) {
	s := hostileSnapshot()
	sizes := append([][2]int{{200, 60}, {MinWidth, MinHeight}, {45, 12}}, goldenSizes...)
	seen := map[string]bool{}
	for _, sz := range sizes {
		m := liveModel(s, at(42), s.Pods.At(0).UID, sz[0], sz[1], plainStyles())
		next, _ := m.Update(FrameMsg{Snapshot: s, Now: at(42), WatchErr: errors.New(hostileText[0] + hostileText[4])})
		m = next.(Model)
		for _, keys := range [][]string{nil, {"j"}, {"j"}, {"j"}, {"n", "n"}, {"?"}, {"?", "tab"}} {
			m = press(t, m, keys...)
			v := m.View()
			checkSafe(t, fmt.Sprintf("%dx%d after %v", sz[0], sz[1], keys), v, sz[0], sz[1])
			for _, esc := range []string{`\x1b]52`, `\u202e`, `\u200b`, `\x07`, "日本語"} {
				if strings.Contains(v, esc) {
					seen[esc] = true
				}
			}
		}
		next, _ = m.Update(FrameMsg{Snapshot: s, Now: at(42), Ended: true, Err: errors.New(hostileText[2])})
		checkSafe(t, fmt.Sprintf("%dx%d ended", sz[0], sz[1]), next.(Model).View(), sz[0], sz[1])
	}
	for _, esc := range []string{`\x1b]52`, `\u202e`, `\u200b`, `\x07`, "日本語"} {
		if !seen[esc] {
			t.Errorf("no view shows %q: the hostile text did not reach the view, or was dropped", esc)
		}
	}
}

// TestHostileWaiting: the view before a pod is seen shows a hostile target, job and Events safely.
func TestHostileWaiting(t *testing.T) {
	s := hostileSnapshot()
	s.Pods = timeline.Seq[*timeline.Pod]{}
	s.Orphans = s.Jobs[0].Events.Slice()
	s.Orphans = append(s.Orphans, timeline.Event{At: at(3), Object: hostileText[1], Reason: hostileText[2], Message: hostileText[3]})
	m := NewModel(Config{Target: "pod/" + hostileText[0], Namespace: hostileText[4], Styles: plainStyles()})
	next, _ := m.Update(FrameMsg{Snapshot: s, Now: at(10)})
	m = resize(next.(Model), 120, 30)
	checkSafe(t, "waiting", m.View(), 120, 30)
}

// TestHostileColour: with colours, every escape sequence in the view is one lipgloss wrote: a
// colour or attribute (SGR), never one that came with the text.
func TestHostileColour(t *testing.T) {
	s := hostileSnapshot()
	for _, sz := range goldenSizes {
		m := liveModel(s, at(42), s.Pods.At(0).UID, sz[0], sz[1], colourStyles())
		m = press(t, m, "j", "n")
		v := m.View()
		for i := strings.IndexByte(v, 0x1b); i >= 0; i = strings.IndexByte(v, 0x1b) {
			j := i + 2
			for j < len(v) && (v[j] >= '0' && v[j] <= '9' || v[j] == ';') {
				j++
			}
			if !strings.HasPrefix(v[i:], "\x1b[") || j >= len(v) || v[j] != 'm' {
				t.Fatalf("%dx%d: an escape sequence that is not a colour: %q", sz[0], sz[1], context(v, i))
			}
			v = v[:i] + v[j+1:]
		}
		checkSafe(t, fmt.Sprintf("colour %dx%d", sz[0], sz[1]), v, sz[0], sz[1])
	}
}

// TestHostilePlain: plain output escapes what the view escapes, line by line, and keeps one line
// per milestone.
func TestHostilePlain(t *testing.T) {
	var b strings.Builder
	p := NewPlain(&b)
	s := hostileSnapshot()
	p.Update(s)
	p.Summary(s)
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	checkSafe(t, "plain", out, 0, 0)
	rows := 0
	for _, pod := range s.Pods.Items() {
		rows += len(pod.Rows())
	}
	for _, j := range s.Jobs {
		rows += len(j.Milestones)
	}
	lines := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "pod-") || strings.HasPrefix(l, "sc-a ") || strings.HasPrefix(l, "job/") {
			lines++
		}
	}
	if lines != rows {
		t.Errorf("plain printed %d milestone lines for %d milestones: a newline in the text split one", lines, rows)
	}
	if !strings.Contains(out, `\x1b]52`) || !strings.Contains(out, `\u202e`) {
		t.Errorf("plain output lacks the escaped text:\n%s", out)
	}
}

// TestWideNames: East Asian wide names keep the lanes and the table aligned: every lane's bar
// starts in the same column.
func TestWideNames(t *testing.T) {
	s := fixture()
	p := jobPod()
	p.Containers = append([]timeline.Container(nil), p.Containers...)
	p.Containers[0].Name, p.Containers[1].Name = "初期化", "サイドカー容器"
	s = withPod(s, 0, p)
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		m := liveModel(s, at(42), p.UID, sz[0], sz[1], plainStyles())
		v := m.View()
		checkSafe(t, "wide", v, sz[0], sz[1])
		lines := strings.Split(v, "\n")
		var starts []int
		for _, l := range lines[2 : 2+laneCount(p, s.Jobs[0])] {
			// The bar starts after the label: the cell where the first bar glyph is.
			lw := newLaneLayout(measureLanes(p), s.Jobs[0], sz[0]).labelW
			starts = append(starts, lipgloss.Width(truncate(l, lw)))
		}
		for i, st := range starts {
			if st != starts[0] {
				t.Errorf("%dx%d: lane %d's label is %d cells, lane 0's %d:\n%s", sz[0], sz[1], i, st, starts[0], v)
			}
		}
	}
}

// TestAbsurdTimes: a pod with no creation time, and milestones in 1970 and 2099, after G and +:
// the view draws at once, says what it did, and no offset is absurd.
func TestAbsurdTimes(t *testing.T) {
	s := fixture()
	p := jobPod()
	p.Created = time.Time{}
	ms := p.Milestones.Slice()
	ms[2].At, ms[3].At = time.Unix(0, 0), time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)
	p.Milestones = timeline.SeqOf(ms...)
	p.Deleted = true
	s = withPod(s, 0, p)
	for _, mode := range []Mode{Live, Replay} {
		m := NewModel(Config{Target: "job/sc-b1", Mode: mode, Control: &fakeControl{}, Styles: plainStyles()})
		next, _ := m.Update(FrameMsg{Snapshot: s, Now: time.Date(2099, 6, 1, 0, 0, 0, 0, time.UTC),
			Replay: &play.ReplayState{Paused: true}})
		m = resize(next.(Model), 120, 50)
		m = press(t, m, "tab", "G", "+", "+", "+", "f", "+", "-", "-", "-", "-", "-", "-", "-")
		v := m.View()
		checkSafe(t, "absurd", v, 120, 50)
		for _, want := range []string{"no creation time", "2 milestones over a day off", "1970-01-01", "2099-01-01"} {
			if !strings.Contains(v, want) {
				t.Errorf("mode %d: the view does not say %q:\n%s", mode, want, v)
			}
		}
		if strings.Contains(v, "2562047h") {
			t.Errorf("mode %d: a saturated offset is shown:\n%s", mode, v)
		}
	}
}

// TestManyContainers: a pod of 10,000 containers draws at most maxLanes lanes, says which, and
// every lane can be reached.
func TestManyContainers(t *testing.T) {
	s := fixture()
	p := jobPod()
	c := p.Containers[2]
	p.Containers = make([]timeline.Container, 10000)
	for i := range p.Containers {
		p.Containers[i] = c
		p.Containers[i].Name = fmt.Sprintf("c-%05d", i)
	}
	s = withPod(s, 0, p)
	m := liveModel(s, at(42), p.UID, 120, 200, plainStyles())
	v := m.View()
	checkSafe(t, "many", v, 120, 200)
	lines := strings.Split(v, "\n")
	lanes := 0
	for lanes+2 < len(lines) && !strings.HasPrefix(lines[lanes+2], " fit") {
		lanes++ // the lanes go from under the header to the axis
	}
	if lanes != maxLanes {
		t.Errorf("%d lanes drawn, want %d:\n%s", lanes, maxLanes, v)
	}
	if !strings.Contains(v, "lanes 1–64 of 10002") {
		t.Errorf("the status line does not say which lanes are shown:\n%s", v)
	}
	for range 9998 {
		m = press(t, m, "j")
	}
	if v := m.View(); !strings.Contains(v, "c-09997") || !strings.Contains(v, "of 10002") {
		t.Errorf("after 9,998 lanes down the view does not show c-09997:\n%s", v)
	}
}

// TestLongFinding: a finding holding kilobytes of text takes at most maxFindingLines lines, the
// last ending in an ellipsis.
func TestLongFinding(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, plainStyles())
	f := m.frameView()
	fs := []timeline.Finding{{Severity: timeline.SeverityWarning, Text: hostileText[len(hostileText)-1]}}
	lines := findingLines(&f, func(yield func(*timeline.Finding) bool) { yield(&fs[0]) }, "", 100)
	if len(lines) != maxFindingLines || !strings.HasSuffix(lines[len(lines)-1], "…") {
		t.Errorf("a 10 kB finding takes %d lines, want %d ending in an ellipsis:\n%s", len(lines), maxFindingLines,
			strings.Join(lines, "\n"))
	}
}
