package present

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// paletteColors are every colour the view draws with, by name.
var paletteColors = map[string]lipgloss.TerminalColor{
	"Muted": Muted, "Faint": Faint, "Yellow": Yellow, "Blue": Blue, "Cyan": Cyan, "Green": Green,
	"Orange": Orange, "Red": Red, "Magenta": Magenta, "Accent": Accent,
}

// TestPaletteContrast draws each colour as a terminal would under each colour profile, on a
// light and a dark background, and measures the colour it shows against the background: none may
// come closer than minContrast (WCAG's contrast ratio; Faint, for fills and separators, only
// minFaint). It reads the colour back from the escape sequence Lip Gloss writes, so a profile
// that converts a colour badly fails here, as 256 colours once turned red into near-black.
func TestPaletteContrast(t *testing.T) {
	const minContrast, minFaint = 1.6, 1.25 // xterm's own yellow on white is 1.7
	for _, bg := range []struct {
		name string
		dark bool
		rgb  [3]float64
	}{{"light", false, [3]float64{255, 255, 255}}, {"dark", true, [3]float64{0, 0, 0}}, {"dark grey", true, [3]float64{0x1B, 0x1D, 0x23}}} {
		for _, profile := range []termenv.Profile{termenv.TrueColor, termenv.ANSI256, termenv.ANSI} {
			r := lipgloss.NewRenderer(io.Discard)
			r.SetColorProfile(profile)
			r.SetHasDarkBackground(bg.dark)
			for name, c := range paletteColors {
				out := r.NewStyle().Foreground(c).Render("x")
				rgb, err := shownColor(out)
				if err != nil {
					t.Fatalf("%s on %s, profile %d: %v", name, bg.name, profile, err)
				}
				want := minContrast
				if name == "Faint" {
					want = minFaint
				}
				if got := contrast(rgb, bg.rgb); got < want {
					t.Errorf("%s on a %s background, profile %d (%q): contrast %.2f, want at least %.1f", name, bg.name, profile, out, got, want)
				}
			}
		}
	}
}

var sgrColor = regexp.MustCompile(`\x1b\[([0-9;]+)m`)

// shownColor is the colour a terminal shows for the foreground Lip Gloss wrote in out, with
// xterm's default colours for the 16 and the 256.
func shownColor(out string) ([3]float64, error) {
	m := sgrColor.FindStringSubmatch(out)
	if m == nil {
		return [3]float64{}, fmt.Errorf("no colour in %q", out)
	}
	var p []int
	for _, f := range regexp.MustCompile(`;`).Split(m[1], -1) {
		n, _ := strconv.Atoi(f)
		p = append(p, n)
	}
	switch {
	case len(p) == 5 && p[0] == 38 && p[1] == 2:
		return [3]float64{float64(p[2]), float64(p[3]), float64(p[4])}, nil
	case len(p) == 3 && p[0] == 38 && p[1] == 5:
		return xterm256(p[2]), nil
	case len(p) == 1 && p[0] >= 30 && p[0] <= 37:
		return xterm256(p[0] - 30), nil
	case len(p) == 1 && p[0] >= 90 && p[0] <= 97:
		return xterm256(p[0] - 90 + 8), nil
	}
	return [3]float64{}, fmt.Errorf("unexpected colour sequence %q", out)
}

// xterm256 is xterm's default colour n.
func xterm256(n int) [3]float64 {
	base := [16][3]float64{{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205},
		{0, 205, 205}, {229, 229, 229}, {127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255},
		{255, 0, 255}, {0, 255, 255}, {255, 255, 255}}
	switch {
	case n < 16:
		return base[n]
	case n < 232:
		levels := [6]float64{0, 95, 135, 175, 215, 255}
		n -= 16
		return [3]float64{levels[n/36], levels[n/6%6], levels[n%6]}
	}
	v := float64(8 + 10*(n-232))
	return [3]float64{v, v, v}
}

// contrast is WCAG 2's contrast ratio of two colours, from 1 (the same) to 21.
func contrast(a, b [3]float64) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

func luminance(c [3]float64) float64 {
	var l [3]float64
	for i, v := range c {
		v /= 255
		if v <= 0.03928 {
			l[i] = v / 12.92
		} else {
			l[i] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}
