package ui

import (
	"fmt"
	"os"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// loggedPod is a pod whose one container is ready from 0 s to 10 s and wrote a line at 1.5 s,
// thirty in the third second, none for two seconds, then two, the last at 5.25 s.
func loggedPod() *timeline.Pod {
	p := &timeline.Pod{Name: "p", UID: "uid-p", Created: at(0)}
	c := fixtureLane(timeline.Container{Name: "app", Kind: timeline.KindApp}, at(0), nil,
		[]timeline.Segment{seg(timeline.StateReady, "", 0, 10), seg(timeline.StateTerminated, "", 10, -1)})
	c.Runs.At(0).Log = &timeline.RunLog{First: at(1.5), Last: at(5.25), Lines: 33, PerSecond: timeline.SeqOf(
		timeline.LogCount{At: at(1), Lines: 1}, timeline.LogCount{At: at(2), Lines: 30}, timeline.LogCount{At: at(5), Lines: 2})}
	p.Containers = []timeline.Container{c}
	return p
}

func TestPlaceLogs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		glyphs present.Glyphs
		from   float64
		to     float64
		width  int
		want   string
	}{
		{"a cell a second", present.UnicodeGlyphs(), 0, 12, 12, "█╷╻██╷████──"},
		{"ascii", present.ASCIIGlyphs(), 0, 12, 12, "#,;##,####__"},
		// Half a second a cell: the first line is at 1.5 s, the last at 5.25 s.
		{"zoomed in", present.UnicodeGlyphs(), 0, 6, 12, "███╷╻╻████╷█"},
		// Three seconds a cell: 31 lines in the first three, 2 in the next three.
		{"zoomed out", present.UnicodeGlyphs(), 0, 12, 4, "╻╷█─"},
		{"after the lines", present.UnicodeGlyphs(), 6, 12, 6, "████──"},
		// A tenth of a second a cell: the one line of the second second is at its start (the
		// run's first line); the thirty of the third fill it; the last two are spread, the last at 5.25 s.
		{"a tenth a cell", present.UnicodeGlyphs(), 1.4, 2.4, 10, "█╷████╻╻╻╻"},
		{"the last lines", present.UnicodeGlyphs(), 5, 5.5, 10, "█╷███╷████"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := plainStyles()
			st.Glyphs = tc.glyphs
			f := &frame{st: st, cache: newViewCache(), width: tc.width}
			w := newWindow(at(tc.from), at(tc.to), tc.width)
			got := ansi.Strip(containerBar(f, loggedPod(), 0, &w, at(12), rowEnds{}))
			if got != tc.want {
				t.Errorf("bar %q, want %q", got, tc.want)
			}
		})
	}
}

// A container without a log read, or that wrote nothing, keeps its plain fill.
func TestPlaceLogsSilent(t *testing.T) {
	p := loggedPod()
	p.Containers[0].Runs.At(0).Log = nil
	f := &frame{st: plainStyles(), cache: newViewCache(), width: 12}
	w := newWindow(at(0), at(12), 12)
	if got := ansi.Strip(containerBar(f, p, 0, &w, at(12), rowEnds{})); got != "██████████──" {
		t.Errorf("bar %q", got)
	}
}

// TestViewLogsDemo: a real recording made with --logs and marks (see watch/testdata), replayed
// to its end: the app's lane is dense while it warms up, then sparse; the silent init
// container's is plain; the marked lines are milestones of their own.
func TestViewLogsDemo(t *testing.T) {
	const name = "../watch/testdata/logs-demo.jsonl"
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, obs, _, err := recfile.ReadObservations(f, name)
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			r := play.NewReplay(obs, play.SpeedMax, false, 0)
			r.SeekEnd()
			go r.Run(t.Context())
			m := NewModel(Config{Target: "pod/logs-demo", Mode: Replay, Control: r, Styles: plainStyles()})
			m = resize(m, sz[0], sz[1])
			for f := range r.Frames() {
				if f.Replay.AtEnd && f.Replay.Paused {
					next, _ := m.Update(FrameMsg(f))
					m = next.(Model)
					break
				}
			}
			golden(t, m.View())
		})
	}
}

// laneLogs cuts each second to the run's first and last line.
func TestLaneLogs(t *testing.T) {
	got := laneLogs(loggedPod(), 0)
	ns := func(s float64) int64 { return at(s).UnixNano() }
	want := []logSpan{
		{from: ns(1.5), to: ns(2) - 1, lines: 1, exactFrom: true},
		{from: ns(2), to: ns(3) - 1, lines: 30},
		{from: ns(5), to: ns(5.25), lines: 2, exactTo: true},
	}
	if diff := cmp.Diff(got, want, cmp.AllowUnexported(logSpan{})); diff != "" {
		t.Errorf("(-got +want):\n%s", diff)
	}
}
