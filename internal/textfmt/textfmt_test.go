package textfmt

import (
	"math"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

func TestFormats(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Dur(250e6), "0.25s"}, {Dur(4140e6), "4.14s"}, {Dur(62500e6), "1m02.5s"},
		{Dur(3723e9), "1h02m03s"}, {Signed(-500e6), "-0.50s"}, {Signed(0), "+0.00s"},
		{Plus(0), ""}, {Plus(500e6), "±0.50"}, {Plus(90e9), "±1m30.0s"},
		{Span(timeline.Span{Value: 4140e6, Min: 3640e6, Max: 4240e6}), "+4.14s ±0.50"},
		{Tick(0), "+0s"}, {Tick(5e9), "+5s"}, {Tick(500e6), "+0.5s"}, {Tick(90e9), "+1m30s"},
		{Tick(120e9), "+2m"}, {Tick(-5e9), "-5s"}, {Tick(5400e9), "+1h30m"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestFormatEdges: durations that round up to the next unit, and saturated ones, read right.
func TestFormatEdges(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{59996 * time.Millisecond, "1m00.0s"}, {59994 * time.Millisecond, "59.99s"},
		{time.Hour - 30*time.Millisecond, "1h00m00s"}, {119960 * time.Millisecond, "2m00.0s"},
		{math.MaxInt64, "2562047h47m16s"}, {math.MinInt64, "-2562047h47m16s"},
	} {
		if got := Dur(tc.d); got != tc.want {
			t.Errorf("Dur(%d) = %q, want %q", tc.d, got, tc.want)
		}
	}
	if got, want := Plus(59999*time.Millisecond), "±1m00.0s"; got != want {
		t.Errorf("Plus(59.999s) = %q, want %q", got, want)
	}
}

// TestGapAndKindTag: a gap's bounds in place of its ± when they are lopsided, and the kinds' tags.
func TestGapAndKindTag(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Gap(timeline.Span{Value: 520e6, Min: 20e6, Max: 1020e6}), "0.52s ±0.50"},
		{Gap(timeline.Span{Value: 0, Min: 0, Max: 1e9}), "0.00s (0.00–1.00)"},
		{Gap(timeline.Span{Value: 250e6, Min: 250e6, Max: 250e6}), "0.25s"},
		{KindTag(timeline.KindInit), "init"}, {KindTag(timeline.KindSidecar), "side"},
		{KindTag(timeline.KindApp), "app"}, {KindTag(timeline.KindEphemeral), "eph"},
		{KindTag("other"), "other"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
