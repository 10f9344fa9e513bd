package timeline

import (
	"testing"
	"time"
)

// TestSubIsSub: sub agrees with time.Time.Sub, to the nanosecond, on spans within a second to
// past a Duration's range, zero times, and monotonic readings on one side or both.
func TestSubIsSub(t *testing.T) {
	base := time.Date(2026, 12, 2, 8, 33, 15, 459151616, time.UTC)
	now := time.Now() // carries a monotonic reading
	times := []time.Time{{}, base, base.Add(time.Nanosecond), base.Add(-999999999), base.Add(36 * time.Hour),
		base.AddDate(-300, 0, 0), base.AddDate(300, 0, 0), time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), base.In(time.FixedZone("x", 3600)),
		now, now.Add(1500 * time.Millisecond), now.Round(0), now.Add(-time.Hour)}
	for _, a := range times {
		for _, b := range times {
			if got, want := sub(a, b), a.Sub(b); got != want {
				t.Errorf("sub(%v, %v) = %v, Sub says %v", a, b, got, want)
			}
		}
	}
}
