package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// fmtDur formats a duration for offsets and gaps: 0.25s, 4.14s, 1m02.5s, 1h02m03s. The sign
// is kept for negative durations and never added for positive ones.
func fmtDur(d time.Duration) string {
	var buf [24]byte
	return string(appendDur(buf[:0], d))
}

// appendDur appends fmtDur(d) to b.
func appendDur(b []byte, d time.Duration) []byte {
	if d < 0 {
		b = append(b, '-')
		if d = -d; d < 0 {
			d = math.MaxInt64 // -MinInt64: a saturated duration
		}
	}
	if d < time.Minute {
		n := len(b)
		b = strconv.AppendFloat(b, d.Seconds(), 'f', 2, 64)
		if string(b[n:]) != "60.00" { // else it rounds up to a minute
			return append(b, 's')
		}
		b, d = b[:n], time.Minute
	}
	if d < time.Hour {
		m := d / time.Minute
		var sec [8]byte
		s := strconv.AppendFloat(sec[:0], (d - m*time.Minute).Seconds(), 'f', 1, 64)
		if string(s) == "60.0" {
			m, s = m+1, append(sec[:0], "0.0"...)
		}
		if m < 60 {
			b = strconv.AppendInt(b, int64(m), 10)
			b = append(b, 'm')
			if len(s) < 4 {
				b = append(b, '0')
			}
			b = append(b, s...)
			return append(b, 's')
		}
		d = time.Hour
	}
	d = d.Round(time.Second) // saturates, never wraps
	h, m, sec := d/time.Hour, (d%time.Hour)/time.Minute, (d%time.Minute)/time.Second
	b = strconv.AppendInt(b, int64(h), 10)
	b = append(b, 'h')
	b = append2(b, int64(m))
	b = append(b, 'm')
	b = append2(b, int64(sec))
	return append(b, 's')
}

// append2 appends n, from 0 to 99, in two digits.
func append2(b []byte, n int64) []byte { return append(b, byte('0'+n/10), byte('0'+n%10)) }

// fmtSigned is fmtDur with a sign always: +4.14s, -0.50s.
func fmtSigned(d time.Duration) string {
	var buf [24]byte
	return string(appendSigned(buf[:0], d))
}

func appendSigned(b []byte, d time.Duration) []byte {
	if d >= 0 {
		b = append(b, '+')
	}
	return appendDur(b, d)
}

// fmtPlus formats the ± of a span in seconds (±0.50), or as a duration when it is a minute or
// more; it is empty when the span is exact.
func fmtPlus(d time.Duration) string {
	var buf [24]byte
	return string(appendPlus(buf[:0], d))
}

func appendPlus(b []byte, d time.Duration) []byte {
	switch {
	case d <= 0:
		return b
	case d < time.Minute:
		n := len(b)
		b = append(b, "±"...)
		b = strconv.AppendFloat(b, d.Seconds(), 'f', 2, 64)
		if string(b[n+len("±"):]) != "60.00" {
			return b
		}
		b, d = b[:n], time.Minute
	}
	return appendDur(append(b, "±"...), d)
}

// fmtSpan formats a span as its signed value and its ±, e.g. "+4.14s ±0.50".
func fmtSpan(s timeline.Span) string {
	if p := fmtPlus(s.Plus()); p != "" {
		return fmtSigned(s.Value) + " " + p
	}
	return fmtSigned(s.Value)
}

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
	b := appendSigned(append(buf[:0], c.prefix...), s.Value)
	out := padLeft(string(b), c.val)
	if c.plus > 0 {
		out += " " + pad(fmtPlus(s.Plus()), c.plus)
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
	c.val = utf8.RuneCount(appendSigned(append(buf[:0], prefix...), z.val)) // sign cell either way
	if withPlus && z.plus > 0 {
		c.plus = utf8.RuneCount(appendPlus(buf[:0], z.plus))
	}
	return c
}

// fmtTick formats an axis tick's offset from the origin compactly: +0s, +5s, +0.5s, +1m30s, +2h.
func fmtTick(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	switch {
	case d%time.Second != 0:
		return sign + strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.1f", d.Seconds()), "0"), ".") + "s"
	case d < time.Minute:
		return fmt.Sprintf("%s%ds", sign, d/time.Second)
	case d < time.Hour:
		m, s := d/time.Minute, (d%time.Minute)/time.Second
		if s == 0 {
			return fmt.Sprintf("%s%dm", sign, m)
		}
		return fmt.Sprintf("%s%dm%02ds", sign, m, s)
	default:
		h, m := d/time.Hour, (d%time.Hour)/time.Minute
		if m == 0 {
			return fmt.Sprintf("%s%dh", sign, h)
		}
		return fmt.Sprintf("%s%dh%02dm", sign, h, m)
	}
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
	return ansi.Truncate(s, width, "…")
}

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
	var t string
	switch k {
	case timeline.KindInit:
		t = "init"
	case timeline.KindSidecar:
		t = "side"
	case timeline.KindApp:
		t = "app"
	case timeline.KindEphemeral:
		t = "eph"
	default:
		t = Safe(string(k))
	}
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
