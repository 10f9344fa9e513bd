package export

import (
	"strconv"
	"testing"

	"github.com/sidecar-top/sidecar-top/recordings"
)

// TestOTLPGapNumbers: each pod's root span carries each named gap of the pod's timeline as
// numbers (seconds, and the bounds), keyed by the gap's name, so that a backend can query them.
func TestOTLPGapNumbers(t *testing.T) {
	seen := 0
	for _, name := range recordings.Names() {
		in := recording(t, name)
		roots := map[string]dumpSpan{}
		for _, s := range traces(t, in) {
			if s.Parent == "" {
				roots[s.Name] = s
			}
		}
		for _, p := range in.Snapshot.Pods.Slice() {
			root, ok := roots["pod "+p.Name]
			if !ok {
				t.Fatalf("%s: no root span for pod %s", name, p.Name)
			}
			for _, g := range p.Gaps {
				key := "sidecar_top.gap." + GapKey(g.Name)
				for suffix, want := range map[string]float64{".seconds": g.Span.Value.Seconds(), ".min_seconds": g.Span.Min.Seconds(), ".max_seconds": g.Span.Max.Seconds()} {
					got, err := strconv.ParseFloat(root.Attrs[key+suffix], 64)
					if err != nil || got != want {
						t.Errorf("%s: pod %s: %s%s = %q, want %v", name, p.Name, key, suffix, root.Attrs[key+suffix], want)
					}
				}
				seen++
			}
		}
	}
	if seen == 0 {
		t.Fatal("no gap in the recordings")
	}
	if got := GapKey("sidecar started → app start"); got != "sidecar_started_to_app_start" {
		t.Errorf("gapKey = %q", got)
	}
}
