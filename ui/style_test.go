package ui

import (
	"io"
	"math"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
	"github.com/muesli/termenv"
	"github.com/sidecar-top/sidecar-top/timeline"
)

func TestParseColorMode(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    ColorMode
		wantErr bool
	}{
		{"", ColorAuto, false}, {"auto", ColorAuto, false}, {"always", ColorAlways, false},
		{"never", ColorNever, false}, {"sometimes", ColorAuto, true},
	} {
		got, err := ParseColorMode(tc.in)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("ParseColorMode(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
		if tc.in != "" && err == nil && got.String() != tc.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
}

func TestNewRenderer(t *testing.T) {
	for _, tc := range []struct {
		mode    ColorMode
		noColor string
		ascii   bool
	}{
		{ColorNever, "", true},
		{ColorAuto, "1", true},     // NO_COLOR, any non-empty value
		{ColorAlways, "1", false},  // --color always wins over NO_COLOR
		{ColorAlways, "", false},   // colours even when not a terminal
		{ColorNever, "yes", true},  //
		{ColorAuto, "false", true}, // any non-empty value
	} {
		r := NewRenderer(io.Discard, tc.mode, tc.noColor)
		if got := r.ColorProfile() == termenv.Ascii; got != tc.ascii {
			t.Errorf("NewRenderer(%v, NO_COLOR=%q): profile %v, want Ascii %v", tc.mode, tc.noColor, r.ColorProfile(), tc.ascii)
		}
		s := NewStyles(r)
		styled := s.States[timeline.StateReady].Render("x")
		if (styled == "x") != tc.ascii {
			t.Errorf("NewRenderer(%v, NO_COLOR=%q): ready renders %q", tc.mode, tc.noColor, styled)
		}
	}
}

// TestGlyphs checks every glyph is one cell wide, and every lane state and milestone kind has
// its own.
func TestGlyphs(t *testing.T) {
	states := []timeline.LaneState{timeline.StatePending, timeline.StateWaiting, timeline.StateRunning,
		timeline.StateStarted, timeline.StateReady, timeline.StateTerminating, timeline.StateTerminated}
	kinds := []timeline.MilestoneKind{timeline.MCreated, timeline.MWaiting, timeline.MStart, timeline.MRestart,
		timeline.MStarted, timeline.MReady, timeline.MNotReady, timeline.MProbeFailed, timeline.MBackOff,
		timeline.MSigterm, timeline.MExit, timeline.MScheduled, timeline.MInitialized, timeline.MContainersReady,
		timeline.MDeleting, timeline.MDeleted, timeline.MPhase, timeline.MCondition}
	for name, g := range map[string]Glyphs{"unicode": UnicodeGlyphs(), "ascii": ASCIIGlyphs()} {
		all := []string{g.ExitFailed, g.Inferred, g.Condition, g.PodFill, g.Tick, g.Cursor, g.Selected, g.Restarts}
		seen := map[string]timeline.LaneState{}
		for _, s := range states {
			gl, ok := g.States[s]
			if !ok {
				t.Errorf("%s: no glyph for state %s", name, s)
			}
			if other, dup := seen[gl]; dup {
				t.Errorf("%s: states %s and %s share %q", name, s, other, gl)
			}
			seen[gl] = s
			all = append(all, gl)
		}
		for _, k := range kinds {
			gl, ok := g.Markers[k]
			if !ok {
				t.Errorf("%s: no marker for %s", name, k)
			}
			all = append(all, gl)
		}
		for _, c := range g.Conditions {
			all = append(all, c)
		}
		for _, gl := range all {
			if lipgloss.Width(gl) != 1 || len([]rune(gl)) != 1 {
				t.Errorf("%s: glyph %q is not one cell", name, gl)
			}
			if name == "ascii" && (len(gl) != 1 || gl[0] < ' ' || gl[0] > '~') {
				t.Errorf("ascii: glyph %q is not printable ASCII", gl)
			}
		}
	}
}

// TestColourLayout checks colours change nothing but colours: the view with colours, stripped,
// is the view without.
func TestColourLayout(t *testing.T) {
	for _, sz := range goldenSizes {
		for _, uid := range []string{"uid-x7k2p", "uid-sc-a"} {
			plain := liveModel(fixture(), at(42), uid, sz[0], sz[1], plainStyles())
			colour := liveModel(fixture(), at(42), uid, sz[0], sz[1], colourStyles())
			plain.view.cursor, colour.view.cursor = 3, 3
			got := colour.View()
			if got == ansi.Strip(got) {
				t.Fatalf("%dx%d: the colour view has no colour", sz[0], sz[1])
			}
			if diff := cmp.Diff(ansi.Strip(got), plain.View()); diff != "" {
				t.Errorf("%s %dx%d: colour view, stripped, differs (-colour +plain):\n%s", uid, sz[0], sz[1], diff)
			}
		}
	}
}

func TestViewASCII(t *testing.T) {
	s := plainStyles()
	s.Glyphs = ASCIIGlyphs()
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, s)
	golden(t, m.View())
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{fmtDur(250e6), "0.25s"}, {fmtDur(4140e6), "4.14s"}, {fmtDur(62500e6), "1m02.5s"},
		{fmtDur(3723e9), "1h02m03s"}, {fmtSigned(-500e6), "-0.50s"}, {fmtSigned(0), "+0.00s"},
		{fmtPlus(0), ""}, {fmtPlus(500e6), "±0.50"}, {fmtPlus(90e9), "±1m30.0s"},
		{fmtSpan(timeline.Span{Value: 4140e6, Min: 3640e6, Max: 4240e6}), "+4.14s ±0.50"},
		{fmtTick(0), "+0s"}, {fmtTick(5e9), "+5s"}, {fmtTick(500e6), "+0.5s"}, {fmtTick(90e9), "+1m30s"},
		{fmtTick(120e9), "+2m"}, {fmtTick(-5e9), "-5s"}, {fmtTick(5400e9), "+1h30m"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestFormatEdges: durations that round up to the next unit, and saturated ones, read right.
func TestFormatEdges(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{59996 * time.Millisecond, "1m00.0s"}, {59994 * time.Millisecond, "59.99s"},
		{time.Hour - 30*time.Millisecond, "1h00m00s"}, {119960 * time.Millisecond, "2m00.0s"},
		{math.MaxInt64, "2562047h47m16s"}, {math.MinInt64, "-2562047h47m16s"},
	} {
		if got := fmtDur(tc.d); got != tc.want {
			t.Errorf("fmtDur(%d) = %q, want %q", tc.d, got, tc.want)
		}
	}
	if got, want := fmtPlus(59999*time.Millisecond), "±1m00.0s"; got != want {
		t.Errorf("fmtPlus(59.999s) = %q, want %q", got, want)
	}
}
