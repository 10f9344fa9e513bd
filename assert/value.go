package assert

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Truth is an assertion's value: true, false, or uncertain when the bounds allow both.
type Truth int8

// Truths, from the worst to the best, so that the minimum over pods is the verdict.
const (
	False Truth = iota
	Uncertain
	True
)

func (t Truth) String() string {
	switch t {
	case True:
		return "true"
	case False:
		return "false"
	}
	return "uncertain"
}

// and, or and negation are Kleene's: with false ordered below uncertain below true, and is the
// minimum, or the maximum, and not swaps true and false.
func (t Truth) and(u Truth) Truth { return min(t, u) }
func (t Truth) or(u Truth) Truth  { return max(t, u) }
func (t Truth) not() Truth        { return True - t }

// Unbounded ends of an interval: no bound is known on that side.
const (
	negInf = time.Duration(math.MinInt64)
	posInf = time.Duration(math.MaxInt64)
)

// bounds is a time (as its offset from the pod's creation) or a duration: the estimate, and
// the interval [lo, hi] it certainly lies in, either end possibly unbounded. A literal has
// lo = est = hi.
type bounds struct {
	est, lo, hi time.Duration
	exact       string // a literal's text, printed as written
}

func exactly(d time.Duration) bounds { return bounds{est: d, lo: d, hi: d} }

// plus is b + c: each end the sum of the same ends, an unbounded end staying unbounded.
func (b bounds) plus(c bounds) bounds {
	return bounds{est: satAdd(b.est, c.est), lo: addLo(b.lo, c.lo), hi: addHi(b.hi, c.hi)}
}

// neg is -b: its ends swap.
func (b bounds) neg() bounds {
	return bounds{est: negate1(b.est), lo: negate1(b.hi), hi: negate1(b.lo)}
}

func (b bounds) minus(c bounds) bounds { return b.plus(c.neg()) }

// negate1 negates one end, keeping unbounded ends unbounded.
func negate1(d time.Duration) time.Duration {
	switch d {
	case negInf:
		return posInf
	case posInf:
		return negInf
	}
	return -d
}

// addLo adds two lower ends: unbounded if either is.
func addLo(a, b time.Duration) time.Duration {
	if a == negInf || b == negInf {
		return negInf
	}
	return satAdd(a, b)
}

// addHi adds two upper ends: unbounded if either is.
func addHi(a, b time.Duration) time.Duration {
	if a == posInf || b == posInf {
		return posInf
	}
	return satAdd(a, b)
}

// satAdd adds, saturating instead of wrapping around.
func satAdd(a, b time.Duration) time.Duration {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return posInf
	case a < 0 && b < 0 && s >= 0:
		return negInf
	}
	return s
}

// compareBounds decides x op y from the interval of x - y: true if op holds for every value in
// it, false if for none, uncertain otherwise.
func compareBounds(op tokenKind, x, y bounds) Truth {
	d := x.minus(y)
	return decide(op, d.lo < 0, d.lo <= 0, d.hi < 0, d.hi <= 0, d.lo == 0 && d.hi == 0)
}

// compareNumbers decides x op y for exact numbers.
func compareNumbers(op tokenKind, x, y float64) Truth {
	d := x - y
	return decide(op, d < 0, d <= 0, d < 0, d <= 0, d == 0)
}

// decide turns facts about an interval [lo, hi] of x - y into a truth: loNeg is lo < 0, loNonPos
// lo <= 0, hiNeg hi < 0, hiNonPos hi <= 0, zero that the interval is exactly {0}.
func decide(op tokenKind, loNeg, loNonPos, hiNeg, hiNonPos, zero bool) Truth {
	var certain, impossible bool
	switch op {
	case tLT:
		certain, impossible = hiNeg, !loNeg
	case tLE:
		certain, impossible = hiNonPos, !loNonPos
	case tGT:
		certain, impossible = !loNonPos, hiNonPos
	case tGE:
		certain, impossible = !loNeg, hiNeg
	case tEQ, tNE:
		certain, impossible = zero, !loNonPos || hiNeg
		if op == tNE {
			certain, impossible = impossible, certain
		}
	}
	switch {
	case certain:
		return True
	case impossible:
		return False
	}
	return Uncertain
}

// value is what an expression evaluates to: a truth, bounds (a time or a duration) or a number.
type value struct {
	ty     typ
	truth  Truth
	b      bounds
	num    float64
	detail string   // for a truth: the values compared, in words
	names  []string // for a count of findings: the IDs of those counted
}

// format writes a time or duration value: the estimate, then its bounds if it is not exact,
// e.g. "0.25s [0.05s, 2.25s]"; a time as an offset from the pod's creation, "+9.22s".
func (v value) format() string {
	switch v.ty {
	case tyNumber:
		n := strconv.FormatFloat(v.num, 'f', -1, 64)
		if len(v.names) > 0 {
			n += " (" + strings.Join(v.names, ", ") + ")"
		}
		return n
	case tyTruth:
		return v.truth.String()
	}
	b := v.b
	if b.exact != "" {
		return b.exact
	}
	f := formatDuration
	if v.ty == tyTime {
		f = formatOffset
	}
	if b.lo == b.hi {
		return f(b.est)
	}
	return fmt.Sprintf("%s [%s, %s]", f(b.est), f(b.lo), f(b.hi))
}

// formatDuration writes d in seconds with two decimals, or with minutes from a minute on:
// "0.25s", "1m47.31s"; an unbounded end as "-inf" or "+inf".
func formatDuration(d time.Duration) string {
	switch d {
	case negInf:
		return "-inf"
	case posInf:
		return "+inf"
	}
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	d = d.Round(10 * time.Millisecond)
	if d < time.Minute {
		return fmt.Sprintf("%s%.2fs", sign, d.Seconds())
	}
	m := d / time.Minute
	return fmt.Sprintf("%s%dm%05.2fs", sign, m, (d - m*time.Minute).Seconds())
}

// formatOffset writes a time as its offset from the pod's creation, always signed.
func formatOffset(d time.Duration) string {
	s := formatDuration(d)
	if d >= 0 && d != posInf {
		return "+" + s
	}
	return s
}

// FormatSpan writes a duration with the bounds it certainly lies in as check prints one,
// "0.25s [0.05s, 2.25s]", or just the value when the bounds are the value; signed, a positive
// value and bounds get a +, as a change does: "+2.73s [+0.98s, +3.48s]".
func FormatSpan(s timeline.Span, signed bool) string {
	f := formatDuration
	if signed {
		f = formatOffset
	}
	if s.Min == s.Max && s.Min == s.Value {
		return f(s.Value)
	}
	return fmt.Sprintf("%s [%s, %s]", f(s.Value), f(s.Min), f(s.Max))
}
