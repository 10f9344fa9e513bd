package ui

import (
	"io"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
	"github.com/muesli/termenv"
	"github.com/sidecar-top/sidecar-top/present"
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
	s.Glyphs = present.ASCIIGlyphs()
	m := liveModel(fixture(), at(42), "uid-x7k2p", 80, 24, s)
	golden(t, m.View())
}
