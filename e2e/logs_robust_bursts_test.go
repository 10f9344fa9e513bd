//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"
)

// floodBurst is one burst of the flood container's lines as the recording has them. Even bursts
// print lines of floodLineLen bytes, odd ones a byte less, so where one burst ends and the next
// begins is known from the lengths alone (the recording keeps no text).
type floodBurst struct {
	lineLen     int   // floodLineLen or one less
	lines       int   // of lineLen bytes
	short       []int // the lengths of lines inside it cut short
	first, last time.Time
}

// floodBurstsOf groups a run's line lengths into bursts: a change between floodLineLen and one
// less begins a burst; a line of another length is one cut short. The marked first and last lines
// ("flood start", "flood done") are not in a burst. A line cut short inside a burst is that
// burst's; one between two bursts is the earlier's unless that one already has every line
// printed, then the later's (seen on CI: burst 26 whole, then a line of 190 bytes stamped with the
// first of burst 27's 3,673 lines of 200: the stream lost burst 27's first lines and cut the next).
func floodBurstsOf(runs []lenRun) []floodBurst {
	var out []floodBurst
	var between []int // lengths of lines cut short since the last burst's last line
	for i, r := range runs {
		switch {
		case r.Len == floodLineLen || r.Len == floodLineLen-1:
			n := len(out)
			if n > 0 && out[n-1].lineLen == r.Len {
				out[n-1].short = append(out[n-1].short, between...)
				out[n-1].lines += r.Count
				out[n-1].last = r.Last
			} else {
				next := floodBurst{lineLen: r.Len, lines: r.Count, first: r.First, last: r.Last}
				if n > 0 && out[n-1].lines+len(out[n-1].short)+len(between) <= floodBurstLines {
					out[n-1].short = append(out[n-1].short, between...)
				} else {
					next.short = between
				}
				out = append(out, next)
			}
			between = nil
		case i == 0 || i == len(runs)-1:
			// "flood start" or "flood done"
		default:
			for range r.Count {
				between = append(between, r.Len)
			}
		}
	}
	if n := len(out); n > 0 {
		out[n-1].short = append(out[n-1].short, between...)
	}
	return out
}

// rotationTimes are when the kubelet rotated the log, from the rotated files' names
// (0.log.20261204-100512: its local time, to the second).
func rotationTimes(t *testing.T, files []string) []time.Time {
	var out []time.Time
	for _, f := range files {
		_, stamp, ok := strings.Cut(f, ".log.")
		at, err := time.ParseInLocation("20060102-150405", stamp, time.Local)
		if !ok || err != nil {
			t.Errorf("a rotated log file named %q: no time in its name", f)
			continue
		}
		out = append(out, at)
	}
	return out
}

// checkFloodBursts holds the recording's bursts to what the container printed. The kubelet's
// followed stream can lose the lines written to the old file around the instant it rotates the
// log, or cut one short (seen here: 107 lines of one burst once, a line of 174 bytes once, in the
// middle of one unbroken stream): a burst short of lines or with a line cut short is that only
// when a rotation fell within it, and one rotation accounts for one burst, or for two in a row.
// Anything else (a burst missing, lines missing from a burst no rotation touched, more lines
// than printed) is the recorder's.
// It returns the lines and bytes the kubelet's stream did not carry.
func checkFloodBursts(t testing.TB, bursts []floodBurst, rotations []time.Time) (lostLines, lostBytes int) {
	t.Helper()
	if len(bursts) != floodBursts {
		t.Errorf("flood run 0: the recording has %d bursts of lines, the container printed %d", len(bursts), floodBursts)
		return 0, 0
	}
	blamed := map[time.Time][]int{} // the bursts each rotation was held to
	for i, b := range bursts {
		want := floodLineLen - i%2
		missing := floodBurstLines - b.lines - len(b.short)
		switch {
		case b.lineLen != want || missing < 0:
			t.Errorf("flood run 0, burst %d: %d lines of %d bytes and %d cut short; printed: %d of %d", i, b.lines, b.lineLen, len(b.short), floodBurstLines, want)
			continue
		case missing == 0 && len(b.short) == 0:
			continue
		}
		var rot time.Time
		for _, r := range rotations {
			// One rotation loses one stretch of lines: of one burst, or of the end of one and
			// the start of the next, when it fell in the quarter second between them.
			held := blamed[r]
			if (len(held) == 0 || len(held) == 1 && held[0] == i-1) && !r.Before(b.first.Add(-2*time.Second)) && !r.After(b.last.Add(2*time.Second)) {
				rot = r
				break
			}
		}
		if rot.IsZero() {
			t.Errorf("flood run 0, burst %d (%s to %s): %d lines missing and %d cut short, and the kubelet rotated no log then (rotations: %v): the recorder lost them",
				i, clock(b.first), clock(b.last), missing, len(b.short), rotations)
			continue
		}
		blamed[rot] = append(blamed[rot], i)
		lostLines += missing
		lostBytes += missing * b.lineLen
		for _, l := range b.short {
			lostBytes += b.lineLen - l
		}
		t.Logf("flood run 0, burst %d (%s to %s): the API's stream did not carry %d lines and cut %d short as the kubelet rotated the log at %s",
			i, clock(b.first), clock(b.last), missing, len(b.short), rot.Format("15:04:05"))
	}
	return lostLines, lostBytes
}
