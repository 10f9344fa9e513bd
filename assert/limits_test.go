package assert

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestNestingLimit: parentheses, negations and ! nest up to MaxNesting deep; one more is
// refused with a one-line error that names the limit, where 60,000 parentheses took 455 MB
// and 8 s to read (and as many negations, each typed by the ones below it, far longer).
func TestNestingLimit(t *testing.T) {
	for _, tc := range []struct {
		name       string
		src        func(n int) string
		errColumns int // the column of the error past the limit, from 1
	}{
		{"parentheses", func(n int) string { return strings.Repeat("(", n) + "1 == 1" + strings.Repeat(")", n) }, MaxNesting + 1},
		{"not", func(n int) string { return strings.Repeat("!", n) + "1 == 1" }, MaxNesting + 1},
		{"negation", func(n int) string { return strings.Repeat("-", n) + "1s < 2s" }, MaxNesting + 1},
		{"mixed", func(n int) string {
			return strings.Repeat("!(", n/2) + strings.Repeat("-", n%2) + "1 == 1" + strings.Repeat(")", n/2)
		}, MaxNesting + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse(tc.src(MaxNesting)); err != nil && strings.Contains(err.Error(), "deep") {
				t.Errorf("%d deep: %v", MaxNesting, err)
			}
			for _, n := range []int{MaxNesting + 1, 60000} {
				_, err := Parse(tc.src(n))
				var e *Error
				if !errors.As(err, &e) || !strings.Contains(e.Msg, fmt.Sprint(MaxNesting)) || strings.Contains(e.Error(), "\n") {
					t.Fatalf("%d deep: %v, want an error that names the limit %d", n, err, MaxNesting)
				}
				if e.Col > tc.errColumns {
					t.Errorf("%d deep: at column %d, want at most %d", n, e.Col, tc.errColumns)
				}
			}
		})
	}
}

// TestLongChainsCostTheirLength: a chain of 20,000 comparisons joined by && is not nested:
// it is read and evaluated in memory that grows with its length, where each link's detail
// was copied into every one after it (60,000 links allocated 14 GB).
func TestLongChainsCostTheirLength(t *testing.T) {
	for _, op := range []string{"&&", "||"} {
		src := strings.Repeat("1 == 1 "+op+" ", 20000) + "1 == 1"
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		a, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		r := a.Eval(testPod())
		runtime.ReadMemStats(&after)
		if r.Truth != True || strings.Count(r.Detail, "1 == 1") != 20001 {
			t.Errorf("%s: %v, %d comparisons in its detail", op, r.Truth, strings.Count(r.Detail, "1 == 1"))
		}
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(400*len(src)); got > limit {
			t.Errorf("%s: %d bytes allocated for %d of source, more than %d", op, got, len(src), limit)
		}
	}
}
