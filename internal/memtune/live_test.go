package memtune

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestLive: a live run sets the collector's target it is given, unless the user has set GOGC.
func TestLive(t *testing.T) {
	for _, tc := range []struct {
		name string
		gogc string // "" for unset
		want int
	}{
		{"GOGC unset", "", 150},
		{"GOGC set", "100", 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			if tc.gogc == "" {
				os.Unsetenv("GOGC")
			}
			gc0 := debug.SetGCPercent(100)
			defer debug.SetGCPercent(gc0)
			Live(150)
			if got := debug.SetGCPercent(100); got != tc.want {
				t.Errorf("GC percent %d, want %d", got, tc.want)
			}
		})
	}
}
