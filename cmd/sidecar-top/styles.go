package main

import (
	"os"

	"github.com/muesli/termenv"

	"github.com/sidecar-top/sidecar-top/ui"
)

// viewStyles are the view's styles for the standard output. Only the view asks the terminal for
// its background colour, once, before the program owns the terminal, and waits backgroundWait
// at most for the answer (termenv, which lipgloss would ask through, waits 5 s); Bubble Tea's own
// question when it is loaded is kept from being asked (internal/quietterm), so that no other
// command waits for a terminal that never answers. Without colour there is nothing to ask.
func viewStyles(s streams, mode ui.ColorMode) ui.Styles {
	r := ui.NewRenderer(s.Out, mode, os.Getenv("NO_COLOR"))
	if r.ColorProfile() != termenv.Ascii {
		r.SetHasDarkBackground(darkBackground(s.Out))
	}
	return ui.NewStyles(r)
}

// darkBackground says whether out's background is dark: what the terminal answers within
// backgroundWait, else what COLORFGBG says, else dark, as termenv takes it.
func darkBackground(out any) bool {
	if tty, ok := out.(*os.File); ok {
		if dark, known := askDarkBackground(tty, os.Getenv("TERM"), backgroundWait); known {
			return dark
		}
	}
	if dark, known := darkFromEnv(os.Getenv("COLORFGBG")); known {
		return dark
	}
	return true
}
