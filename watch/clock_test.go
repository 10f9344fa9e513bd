package watch

import (
	"testing"
	"time"
)

// TestReceiveClock: receive times follow the wall clock through a step forward, hold still
// through a step back until the wall clock passes them again, and carry no monotonic reading.
func TestReceiveClock(t *testing.T) {
	t0 := time.Date(2026, 12, 5, 7, 2, 27, 0, time.UTC)
	var c receiveClock
	for i, s := range []struct {
		wall, want time.Time
	}{
		{t0, t0},
		{t0.Add(time.Second), t0.Add(time.Second)},
		{t0.Add(time.Second + 6*time.Millisecond), t0.Add(time.Second + 6*time.Millisecond)}, // stepped forward
		{t0.Add(500 * time.Millisecond), t0.Add(time.Second + 6*time.Millisecond)},           // stepped back
		{t0.Add(time.Second + 7*time.Millisecond), t0.Add(time.Second + 7*time.Millisecond)},
	} {
		if got := c.at(s.wall); !got.Equal(s.want) {
			t.Errorf("%d: at(%s) = %s, want %s", i, s.wall.Format(time.StampMicro), got.Format(time.StampMicro), s.want.Format(time.StampMicro))
		}
	}
	if now := c.now(); now != now.Round(0) {
		t.Errorf("now() carries a monotonic reading: %v", now)
	}
	if before, now := time.Now(), c.now(); now.Before(before.Round(0)) {
		t.Errorf("now() = %s is before the wall clock read just before it, %s", now, before)
	}
}
