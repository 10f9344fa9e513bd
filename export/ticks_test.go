package export

import (
	"testing"
	"time"
)

// TestTicksSpread holds the exports' axes to leave room for their labels at any length of
// recording: a report of weeks had steps of at most a day, 1.7 columns apart on 100.
func TestTicksSpread(t *testing.T) {
	const width, gap = 100, 8
	for _, total := range []time.Duration{
		time.Second, 90 * time.Second, time.Hour, 3 * 24 * time.Hour, 20 * 24 * time.Hour,
		60 * 24 * time.Hour,
	} {
		ts := ticks(total, width, gap)
		if len(ts) < 2 {
			t.Errorf("%v: %d ticks, want at least 2", total, len(ts))
			continue
		}
		for i := 1; i < len(ts); i++ {
			if apart := float64(ts[i]-ts[i-1]) / float64(total) * width; apart < gap {
				t.Errorf("%v: ticks %v and %v are %.1f columns apart, want at least %d", total, ts[i-1], ts[i], apart, gap)
				break
			}
		}
	}
}
