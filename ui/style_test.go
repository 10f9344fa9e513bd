package ui

import (
	"io"
	"testing"

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
