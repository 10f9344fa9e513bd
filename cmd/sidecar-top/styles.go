package main

import (
	"os"

	"github.com/sidecar-top/sidecar-top/ui"
)

// viewStyles are the view's styles for the standard output. Only the view asks the terminal for
// its background colour, once, through its own renderer, before the program owns the terminal
// (ui.NewStyles); Bubble Tea's own question when it is loaded is kept from being asked
// (internal/quietterm), so that no other command waits for a terminal that never answers.
// Without colour there is nothing to ask.
func viewStyles(s streams, mode ui.ColorMode) ui.Styles {
	return ui.NewStyles(ui.NewRenderer(s.Out, mode, os.Getenv("NO_COLOR")))
}
