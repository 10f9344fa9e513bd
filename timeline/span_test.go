package timeline

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestSpanUnbounded: a side of a span with no bound known is NoMin or NoMax whichever side
// the missing bound is on (an unbounded upper end of the first milestone made the lower
// bound +292 years), JSON leaves it out rather than write the sentinel as a bound, and
// reading it back gives the span again.
func TestSpanUnbounded(t *testing.T) {
	at := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	bounded := Milestone{At: at, Earliest: at.Add(-time.Second), Latest: at.Add(time.Second)}
	noLatest := Milestone{At: at, Earliest: at.Add(-time.Second)}
	noEarliest := Milestone{At: at.Add(2 * time.Second), Latest: at.Add(3 * time.Second)}
	for _, c := range []struct {
		name     string
		s        Span
		min, max time.Duration
	}{
		{"a's upper end unknown", spanBetween(&noLatest, &bounded, false), NoMin, 2 * time.Second},
		{"b's lower end unknown", spanBetween(&bounded, &noEarliest, false), NoMin, 4 * time.Second},
		{"ordered: cut at zero below", spanBetween(&noLatest, &bounded, true), 0, 2 * time.Second},
		{"b's upper end unknown", spanBetween(&bounded, &noLatest, false), -2 * time.Second, NoMax},
		{"offset, no earliest", offsetFrom(at, &noEarliest), NoMin, 3 * time.Second},
		{"offset, no latest", offsetFrom(at, &noLatest), -time.Second, NoMax},
	} {
		if c.s.Min != c.min || c.s.Max != c.max {
			t.Errorf("%s: bounds [%v, %v], want [%v, %v]", c.name, c.s.Min, c.s.Max, c.min, c.max)
		}
		b, err := json.Marshal(c.s)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "922337203685477580") {
			t.Errorf("%s: JSON %s writes a sentinel as a bound", c.name, b)
		}
		var back Span
		if err := json.Unmarshal(b, &back); err != nil || back != c.s {
			t.Errorf("%s: %s read back as %+v (%v), want %+v", c.name, b, back, err, c.s)
		}
		if c.min != 0 && (c.s.Bounded() || c.s.Plus() != NoMax) {
			t.Errorf("%s: Bounded %v, Plus %v: want unbounded", c.name, c.s.Bounded(), c.s.Plus())
		}
	}
	if d := (Span{Value: 3, Min: 1, Max: 5}).Minus(Span{Value: 1, Min: NoMin, Max: 2}); d != (Span{Value: 2, Min: -1, Max: NoMax}) {
		t.Errorf("Minus with an unbounded side: %+v", d)
	}
}
