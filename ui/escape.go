package ui

import (
	"strings"

	"github.com/sidecar-top/sidecar-top/present"
)

// safeFields is s made safe with every run of white space (newlines included) one space: for a
// message shown on one line.
func safeFields(s string) string {
	return present.Safe(strings.Join(strings.Fields(s), " "))
}
