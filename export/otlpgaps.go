package export

import (
	"strings"

	"go.opentelemetry.io/otel/attribute"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// gapAttrs are a named gap's numbers as attributes of the pod's root span, so that a backend
// can filter and aggregate on them (sidecar_top.gaps holds the same gaps as text):
// sidecar_top.gap.NAME.seconds, and .min_seconds and .max_seconds where the gap has those bounds.
// NAME is the gap's name as a key: "sidecar started → app start" is sidecar_started_to_app_start.
func gapAttrs(g timeline.Gap) []attribute.KeyValue {
	key := "sidecar_top.gap." + GapKey(g.Name)
	attrs := []attribute.KeyValue{attribute.Float64(key+".seconds", g.Span.Value.Seconds())}
	if g.Span.Min != timeline.NoMin {
		attrs = append(attrs, attribute.Float64(key+".min_seconds", g.Span.Min.Seconds()))
	}
	if g.Span.Max != timeline.NoMax {
		attrs = append(attrs, attribute.Float64(key+".max_seconds", g.Span.Max.Seconds()))
	}
	return attrs
}

// GapKey is a gap's name as an attribute key's part: lower case letters, digits and _, its
// arrow as _to_.
func GapKey(name string) string {
	name = strings.ReplaceAll(strings.ToLower(name), "→", "to")
	var b strings.Builder
	under := false
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		switch {
		case ok:
			b.WriteRune(r)
			under = false
		case !under && b.Len() > 0:
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}
