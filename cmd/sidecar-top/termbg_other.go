//go:build !linux && !darwin

package main

import (
	"os"
	"time"
)

// askDarkBackground asks nothing here: the view takes COLORFGBG, or a dark background.
func askDarkBackground(*os.File, string, time.Duration) (dark, known bool) { return false, false }
