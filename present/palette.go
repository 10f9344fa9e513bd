package present

import "github.com/charmbracelet/lipgloss"

// The palette. Every colour is given for a light and a dark background, each in true colour, in
// xterm's 256 colours and in the 16 ANSI colours, so that no profile has to convert one: a
// conversion turned the dark red of failures into near-black on 256-colour terminals. The
// 256-colour and ANSI values are the nearest ones that keep the colour's hue and stay clear of
// the background (TestPaletteContrast).
var (
	Muted   = color("#8A8A8A", "245", "8", "#7A7A7A", "243", "8")
	Faint   = color("#B8B8B8", "250", "7", "#4E4E4E", "239", "8")
	Yellow  = color("#9A6700", "136", "3", "#E5C07B", "221", "11")
	Blue    = color("#1F5FD6", "26", "4", "#61AFEF", "75", "12")
	Cyan    = color("#0B7A85", "30", "6", "#56B6C2", "73", "6")
	Green   = color("#23803A", "29", "2", "#98C379", "114", "2")
	Orange  = color("#B6480C", "130", "1", "#E8A15A", "209", "3")
	Red     = color("#C4262E", "160", "9", "#E06C75", "203", "9")
	Magenta = color("#8B36D9", "98", "5", "#C678DD", "176", "13")
	Accent  = color("#5A3FD6", "62", "5", "#B4A7FF", "147", "13")
)

// Background is the dark background the pictures (SVG) are drawn on, and Text their text colour.
const (
	Background = "#1B1D23"
	Text       = "#D7DAE0"
)

func color(light, light256, light16, dark, dark256, dark16 string) lipgloss.CompleteAdaptiveColor {
	return lipgloss.CompleteAdaptiveColor{
		Light: lipgloss.CompleteColor{TrueColor: light, ANSI256: light256, ANSI: light16},
		Dark:  lipgloss.CompleteColor{TrueColor: dark, ANSI256: dark256, ANSI: dark16},
	}
}

// DarkHex is the colour's true-colour value on a dark background ("" for none): what a picture
// drawn on Background uses.
func DarkHex(c lipgloss.TerminalColor) string {
	switch c := c.(type) {
	case lipgloss.CompleteAdaptiveColor:
		return c.Dark.TrueColor
	case lipgloss.AdaptiveColor:
		return c.Dark
	case lipgloss.Color:
		return string(c)
	}
	return ""
}
