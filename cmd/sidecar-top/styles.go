package main

import (
	"os"

	"github.com/charmbracelet/lipgloss"

	"github.com/sidecar-top/sidecar-top/ui"
)

// viewStyles are the view's styles for the standard output, with the background the terminal
// was already asked about. Bubble Tea v1 asks the terminal for its background colour (and then
// its cursor position) when it is loaded, before main runs, and lipgloss keeps the answer; the
// renderer ui.NewRenderer makes would ask again, and a terminal that answers neither would then
// hold the view another 5 s (termenv.OSCTimeout) while the keys typed meanwhile were read and
// dropped. Without colour there is nothing to ask.
func viewStyles(s streams, mode ui.ColorMode) ui.Styles {
	r := ui.NewRenderer(s.Out, mode, os.Getenv("NO_COLOR"))
	if f, ok := s.Out.(*os.File); ok && f == os.Stdout {
		r.SetHasDarkBackground(lipgloss.HasDarkBackground())
	}
	return ui.NewStyles(r)
}
