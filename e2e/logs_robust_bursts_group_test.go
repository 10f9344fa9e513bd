//go:build e2e

package e2e

import (
	"testing"
	"time"
)

// TestLogsRobustFloodBurstsOf: how floodBurstsOf files lines cut short, on the line lengths of
// flood recordings (no cluster needed; it runs with the flood test it serves).
func TestLogsRobustFloodBurstsOf(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 5, 9, 35, 0, 0, time.UTC)
	full := func(l int) lenRun { return lenRun{Len: l, Count: floodBurstLines, First: at, Last: at} }
	part := func(l, n int) lenRun { return lenRun{Len: l, Count: n, First: at, Last: at} }
	cut := func(l int) lenRun { return lenRun{Len: l, Count: 1, First: at, Last: at} }
	start, done := cut(len("flood start")), cut(len("flood done"))
	type want struct{ lines, short int }
	for _, tc := range []struct {
		name string
		runs []lenRun
		want []want
	}{
		{"whole", []lenRun{start, full(200), full(199), done}, []want{{4000, 0}, {4000, 0}}},
		// CI, 2026-12-05: burst 26 whole, a line of 190 bytes, 3,673 of burst 27's lines.
		{"cut at the next burst's head", []lenRun{start, full(200), full(199), cut(190), part(200, 3673), full(199), done},
			[]want{{4000, 0}, {4000, 0}, {3673, 1}, {4000, 0}}},
		{"cut at a burst's tail", []lenRun{start, full(200), part(199, 3000), cut(120), full(200), done},
			[]want{{4000, 0}, {3000, 1}, {4000, 0}}},
		{"cut inside a burst", []lenRun{start, part(200, 107), cut(174), part(200, 3000), full(199), done},
			[]want{{3107, 1}, {4000, 0}}},
		{"cut in the last burst", []lenRun{start, full(200), part(199, 10), cut(3), done},
			[]want{{4000, 0}, {10, 1}}},
	} {
		var got []want
		for _, b := range floodBurstsOf(tc.runs) {
			got = append(got, want{b.lines, len(b.short)})
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: bursts %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: bursts %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}
