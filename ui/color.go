package ui

import (
	"fmt"
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

const asciiProfile = termenv.Ascii

// ColorMode is the user's choice of colour: the --color flag.
type ColorMode int

// The colour modes.
const (
	ColorAuto   ColorMode = iota // colour when writing to a terminal and NO_COLOR is unset
	ColorAlways                  // colour even when not writing to a terminal
	ColorNever                   // never colour
)

// String returns the flag value of m.
func (m ColorMode) String() string {
	switch m {
	case ColorAlways:
		return "always"
	case ColorNever:
		return "never"
	}
	return "auto"
}

// ParseColorMode parses a --color flag value: auto, always or never.
func ParseColorMode(s string) (ColorMode, error) {
	switch s {
	case "", "auto":
		return ColorAuto, nil
	case "always":
		return ColorAlways, nil
	case "never":
		return ColorNever, nil
	}
	return ColorAuto, fmt.Errorf("invalid color mode %q: want auto, always or never", s)
}

// NewRenderer returns the lipgloss renderer for output w under mode. noColor is the value of the
// NO_COLOR environment variable, which the caller reads: any non-empty value turns colour off
// in auto mode (https://no-color.org). ColorNever and NO_COLOR give the termenv.Ascii profile,
// with no escape sequences at all; ColorAlways colours with at least 256 colours even when w is
// not a terminal.
func NewRenderer(w io.Writer, mode ColorMode, noColor string) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(w)
	// The profile is set on the renderer itself: lipgloss ignores termenv.WithProfile.
	switch {
	case mode == ColorNever, mode == ColorAuto && noColor != "":
		r.SetColorProfile(termenv.Ascii)
	case mode == ColorAlways:
		p := termenv.NewOutput(w, termenv.WithTTY(true)).ColorProfile()
		if p > termenv.ANSI256 { // termenv orders profiles from TrueColor (0) to Ascii
			p = termenv.ANSI256
		}
		r.SetColorProfile(p)
	}
	return r
}
