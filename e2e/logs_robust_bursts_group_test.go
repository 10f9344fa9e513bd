//go:build e2e

package e2e

import (
	"fmt"
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

// errorsTB keeps what a check reports as an error, and drops what it logs.
type errorsTB struct {
	testing.TB
	errs []string
}

func (e *errorsTB) Helper()             {}
func (e *errorsTB) Logf(string, ...any) {}
func (e *errorsTB) Errorf(format string, a ...any) {
	e.errs = append(e.errs, fmt.Sprintf(format, a...))
}

// TestLogsRobustFloodLosses: what checkFloodBursts lays at a rotation's door and what at the
// recorder's (no cluster needed; it runs with the flood test it serves).
func TestLogsRobustFloodLosses(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 12, 5, 9, 35, 0, 0, time.UTC)
	// bursts of the flood, burst i from base+i/2 s, whole but for what lost gives it.
	bursts := func(lost map[int]int) []floodBurst {
		var out []floodBurst
		for i := range floodBursts {
			at := base.Add(time.Duration(i) * 500 * time.Millisecond)
			b := floodBurst{lineLen: floodLineLen - i%2, lines: floodBurstLines - lost[i], first: at, last: at.Add(100 * time.Millisecond)}
			out = append(out, b)
		}
		return out
	}
	rot := func(s int) time.Time { return base.Add(time.Duration(s) * time.Second) }
	for _, tc := range []struct {
		name      string
		lost      map[int]int
		rotations []time.Time
		errors    int
		lostLines int
	}{
		{"whole", nil, []time.Time{rot(3)}, 0, 0},
		{"lost at a rotation", map[int]int{10: 326}, []time.Time{rot(5)}, 0, 326},
		{"lost across the pause between two bursts", map[int]int{10: 20, 11: 30}, []time.Time{rot(5)}, 0, 50},
		{"lost in two bursts apart, one rotation", map[int]int{10: 20, 12: 30}, []time.Time{rot(5)}, 1, 20},
		{"lost in three bursts, one rotation", map[int]int{10: 20, 11: 30, 12: 5}, []time.Time{rot(5)}, 1, 50},
		{"lost with no rotation near", map[int]int{40: 3}, []time.Time{rot(5)}, 1, 0},
		{"lost with no rotation", map[int]int{4: 3}, nil, 1, 0},
	} {
		e := &errorsTB{TB: t}
		lines, _ := checkFloodBursts(e, bursts(tc.lost), tc.rotations)
		if len(e.errs) != tc.errors || lines != tc.lostLines {
			t.Errorf("%s: %d errors %q, %d lines laid at rotations; want %d errors, %d lines", tc.name, len(e.errs), e.errs, lines, tc.errors, tc.lostLines)
		}
	}
}
