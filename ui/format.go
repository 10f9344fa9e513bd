package ui

import (
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// spanCol is a column of spans, one offset format everywhere (the table, the Events, plain
// output): an optional prefix (Δ) and the signed value right-aligned in val cells, then, when
// plus is not zero, a space and the ± left-aligned in plus cells:
//
//	  +4.40s ±0.50
//	 +21.53s ±0.53
//	+1m47.3s ±51.69
type spanCol struct {
	prefix    string
	val, plus int
}

// width is the column's width in cells.
func (c spanCol) width() int {
	if c.plus > 0 {
		return c.val + 1 + c.plus
	}
	return c.val
}

// format lays out s in the column; a value or ± wider than the column widens the line.
func (c spanCol) format(s timeline.Span) string {
	var buf [64]byte
	b := textfmt.AppendSigned(append(buf[:0], c.prefix...), s.Value)
	out := padLeft(string(b), c.val)
	if c.plus > 0 {
		out += " " + pad(textfmt.Plus(s.Plus()), c.plus)
	}
	return out
}

// spanSizer finds the column widths that hold a set of spans. Widths grow with a duration's
// size (a digit, a unit more), so only the largest value and ± need to be formatted.
type spanSizer struct {
	val, plus time.Duration // the largest |value| and ±
	any       bool          // a span was added
}

func (z *spanSizer) add(s timeline.Span) {
	z.any = true
	v := s.Value
	if v < 0 {
		if v = -v; v < 0 {
			v = math.MaxInt64
		}
	}
	z.val, z.plus = max(z.val, v), max(z.plus, s.Plus())
}

// col is the column for the spans added, with prefix; withPlus leaves room for the ±.
func (z *spanSizer) col(prefix string, withPlus bool) spanCol {
	if !z.any {
		return spanCol{prefix: prefix}
	}
	var buf [64]byte
	c := spanCol{prefix: prefix}
	c.val = utf8.RuneCount(textfmt.AppendSigned(append(buf[:0], prefix...), z.val)) // sign cell either way
	if withPlus && z.plus > 0 {
		c.plus = utf8.RuneCount(textfmt.AppendPlus(buf[:0], z.plus))
	}
	return c
}

// truncate cuts s (which may hold ANSI sequences) to width cells, ending it with an ellipsis
// when something was cut.
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if len(s) <= width || cellWidth(s) <= width { // a cell takes a byte at least
		return s
	}
	t := ansi.Truncate(s, width, "…")
	// Never inside a number: "exit 13…" would read as exit 13. The cut goes back before it.
	kept, all := []rune(ansi.Strip(t)), []rune(ansi.Strip(s))
	if n := len(kept) - 1; n > 0 && n < len(all) && isDigit(all[n]) && isDigit(kept[n-1]) {
		i := n - 1
		for i > 0 && (isDigit(kept[i-1]) || (kept[i-1] == '.' || kept[i-1] == ',') && i > 1 && isDigit(kept[i-2])) {
			i--
		}
		return ansi.Truncate(s, width-(n-i), "…")
	}
	return t
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// pad fills s with spaces on the right up to width cells, cutting it when it is longer.
func pad(s string, width int) string {
	s = truncate(s, width)
	if w := cellWidth(s); w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// padLeft fills s with spaces on the left up to width cells.
func padLeft(s string, width int) string {
	s = truncate(s, width)
	if w := cellWidth(s); w < width {
		s = strings.Repeat(" ", width-w) + s
	}
	return s
}

// joinFit joins parts with sep, dropping parts from the end until the line fits width; the
// first part is always kept (and truncated if need be).
func joinFit(parts []string, sep string, width int) string {
	var kept []string
	for _, p := range parts {
		if p == "" {
			continue
		}
		try := strings.Join(append(kept, p), sep)
		if len(kept) > 0 && cellWidth(try) > width {
			continue
		}
		kept = append(kept, p)
	}
	return truncate(strings.Join(kept, sep), width)
}

// kindTag is the short tag a lane's label shows for its container kind.
func kindTag(k timeline.ContainerKind, short bool) string {
	t := present.Safe(textfmt.KindTag(k))
	if short {
		return ansi.Truncate(t, 1, "") // a cell, not a byte
	}
	return t
}

// wrapText breaks s into lines of at most width cells at spaces.
func wrapText(s string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		switch {
		case cur == "":
			cur = w
		case cellWidth(cur)+1+cellWidth(w) <= width:
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
