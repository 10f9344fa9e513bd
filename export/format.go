package export

import (
	"strings"

	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// evidenceSummary is a milestone's evidence in one line: each fact's field or Event, and its note.
func evidenceSummary(m *timeline.Milestone) string {
	var parts []string
	for _, e := range m.Evidence {
		p := e.What
		if e.Precision != "" {
			p += " (" + e.Precision + ")"
		}
		if e.Note != "" {
			p += ": " + e.Note
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

// safe is present.Safe: text from the cluster made safe for a terminal (and for a reader's eye:
// bidi overrides, zero-width characters and controls shown as escapes).
func safe(s string) string { return present.Safe(s) }
