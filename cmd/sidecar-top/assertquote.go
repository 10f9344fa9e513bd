package main

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sidecar-top/sidecar-top/assert"
)

// assertQuoteMost is the most of an assertion an error quotes: a 66,000-character one was
// echoed whole, 72 KB of error for one column's mistake.
const assertQuoteMost = 100

// assertError is err about assertion src, quoting src (escaped by %q) whole when it is short,
// and else the stretch around the column err names, with how long the whole is.
func assertError(src string, err error) error {
	n := utf8.RuneCountInString(src)
	if n <= assertQuoteMost {
		return fmt.Errorf("--assert %q: %w", src, err)
	}
	col := 1
	var e *assert.Error
	if errors.As(err, &e) {
		col = max(e.Col, 1)
	}
	runes := []rune(src)
	from := max(min(col-1-assertQuoteMost*2/3, n-assertQuoteMost), 0)
	to := min(from+assertQuoteMost, n)
	excerpt := string(runes[from:to])
	var b strings.Builder
	fmt.Fprintf(&b, "%q", excerpt)
	quoted := b.String()
	if from > 0 {
		quoted = "…" + quoted
	}
	if to < n {
		quoted += "…"
	}
	return fmt.Errorf("--assert %s (%d characters; from column %d): %w", quoted, n, from+1, err)
}
