// Package quietterm keeps Bubble Tea's package initialization from asking the terminal for its
// background colour. Bubble Tea v1 asks in an init function (tea_init.go), in every program that
// links it, whatever the program then does: off an interactive terminal that never answers
// (script, CI) every command waited 5 s (termenv's OSCTimeout) and left the query's bytes in its
// output. termenv does not ask a terminal whose TERM is dumb; this package's init, which runs
// before Bubble Tea's (it imports nothing but os, TestQuietInit), says TERM=dumb for that long,
// and Restore, first thing in main, puts it back. The view asks later, for itself, through its
// own renderer (ui.NewStyles).
package quietterm

import "os"

// term is TERM as it was, and set whether it was set at all.
var (
	term, set = os.LookupEnv("TERM")
	quieted   = quiet()
)

func quiet() bool { return os.Setenv("TERM", "dumb") == nil }

// Restore puts TERM back as it was before the program's packages were initialized.
func Restore() {
	if !quieted {
		return
	}
	if set {
		_ = os.Setenv("TERM", term)
	} else {
		_ = os.Unsetenv("TERM")
	}
}
