package timeline

import (
	"testing"
	"time"
)

// TestNotYetIn: the note is what time.Format writes, at the edges of each field and in zones
// other than UTC.
func TestNotYetIn(t *testing.T) {
	east := time.FixedZone("east", 5*3600+1800)
	for _, at := range []time.Time{
		time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 12, 4, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(2026, 12, 4, 9, 5, 7, 1_000_000, time.UTC),
		time.Date(2026, 12, 4, 12, 34, 56, 789_500_000, east),
		time.Date(1970, 1, 1, 0, 0, 0, 999_999, time.UTC),
		time.Date(2099, 6, 30, 10, 20, 30, 40_000_000, time.UTC).Add(time.Hour * 24 * 365),
	} {
		if got, want := notYetIn(at), "not yet in the observation received "+at.UTC().Format("15:04:05.000"); got != want {
			t.Errorf("notYetIn(%v) = %q, want %q", at, got, want)
		}
	}
}
