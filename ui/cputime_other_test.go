//go:build !unix

package ui

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
