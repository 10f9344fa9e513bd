package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Threshold is a limit on a named gap's change from A to B, as --fail-on gives it: the gap's
// name as diff shows it (-> may be written for →), an operator, and a change, relative to A's
// gap (+20%) or a duration (+500ms):
//
//	sidecar started → app start > +20%
//	app SIGTERM -> app exit >= +500ms
//	sidecar start → sidecar started < -50%
//
// It fails where the change is certainly beyond it, whichever way each side's bounds fall.
type Threshold struct {
	Src string // as given
	Gap string // the gap's name as written
	Op  string // >, >=, < or <=
	// Relative says the change is a proportion of A's gap, Frac (+20% is 0.2); otherwise it is
	// the duration Abs.
	Relative bool
	Frac     float64
	Abs      time.Duration
}

// ThresholdError is a threshold that does not parse, with the column (in characters, from 1)
// where the problem is.
type ThresholdError struct {
	Col int
	Msg string
}

func (e *ThresholdError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

const wantChange = "want a change such as +20% (of A's gap) or +500ms"

// ParseThreshold reads a threshold: GAP OP CHANGE.
func ParseThreshold(src string) (Threshold, error) {
	rs := []rune(src)
	op := findOperator(rs)
	if op < 0 {
		return Threshold{}, &ThresholdError{len(rs) + 1, "want GAP OP CHANGE with OP one of >, >=, <, <=, e.g. 'sidecar started → app start > +20%'"}
	}
	t := Threshold{Src: src, Op: string(rs[op])}
	valueAt := op + 1
	if valueAt < len(rs) && rs[valueAt] == '=' {
		t.Op += "="
		valueAt++
	}
	t.Gap = strings.TrimSpace(string(rs[:op]))
	if t.Gap == "" {
		return Threshold{}, &ThresholdError{1, "no gap's name before " + t.Op + ": write it as diff shows it, e.g. 'sidecar started → app start'"}
	}
	if !strings.Contains(strings.ReplaceAll(t.Gap, "->", "→"), "→") {
		return Threshold{}, &ThresholdError{1 + leadingSpace(rs), "a gap's name reads FROM → TO (or FROM -> TO), as diff shows it, e.g. 'sidecar started → app start'"}
	}
	col := valueAt + 1 + leadingSpace(rs[valueAt:])
	if err := t.parseChange(string(rs[valueAt:])); err != "" {
		return Threshold{}, &ThresholdError{col, err}
	}
	return t, nil
}

// findOperator is the index of the last < or > that is not the head of an arrow (->), or -1.
func findOperator(rs []rune) int {
	for i := len(rs) - 1; i >= 0; i-- {
		switch {
		case rs[i] == '<':
			return i
		case rs[i] == '>' && (i == 0 || rs[i-1] != '-'):
			return i
		}
	}
	return -1
}

func leadingSpace(rs []rune) int {
	n := 0
	for n < len(rs) && (rs[n] == ' ' || rs[n] == '\t') {
		n++
	}
	return n
}

// parseChange reads +N% or a signed duration (spaces inside do not matter); it says what is
// wrong, or nothing.
func (t *Threshold) parseChange(s string) string {
	v := strings.Join(strings.Fields(s), "")
	if v == "" {
		return "nothing after " + t.Op + ": " + wantChange
	}
	if num, ok := strings.CutSuffix(v, "%"); ok {
		f, err := strconv.ParseFloat(strings.TrimPrefix(num, "+"), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || strings.HasPrefix(num, "+-") {
			return fmt.Sprintf("%q is not a percentage: %s", v, wantChange)
		}
		t.Relative, t.Frac = true, f/100
		return ""
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Sprintf("%q is not a change: %s", v, wantChange)
	}
	t.Abs = d
	return ""
}

// String is the threshold as given.
func (t Threshold) String() string { return t.Src }
