// Package textfmt holds the text formats that the view (ui) and the exports share, so that a
// report reads like the terminal: durations (0.25s, 4.14s, 1m02.5s, 1h02m03s), signed offsets
// (+4.14s), a span's bound (±0.50), a named gap's length, an axis tick's label and a container
// kind's tag. Each had been written twice, once in ui and once in export.
package textfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Dur formats a duration for offsets and gaps: 0.25s, 4.14s, 1m02.5s, 1h02m03s. The sign is
// kept for negative durations and never added for positive ones.
func Dur(d time.Duration) string {
	var buf [24]byte
	return string(AppendDur(buf[:0], d))
}

// AppendDur appends Dur(d) to b.
func AppendDur(b []byte, d time.Duration) []byte {
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

// Signed is Dur with a sign always: +4.14s, -0.50s.
func Signed(d time.Duration) string {
	var buf [24]byte
	return string(AppendSigned(buf[:0], d))
}

// AppendSigned appends Signed(d) to b.
func AppendSigned(b []byte, d time.Duration) []byte {
	if d >= 0 {
		b = append(b, '+')
	}
	return AppendDur(b, d)
}

// Plus formats the ± of a span in seconds (±0.50), or as a duration when it is a minute or
// more; it is empty when the span is exact, and ±? when a side has no bound (timeline.NoMax).
func Plus(d time.Duration) string {
	var buf [24]byte
	return string(AppendPlus(buf[:0], d))
}

// AppendPlus appends Plus(d) to b.
func AppendPlus(b []byte, d time.Duration) []byte {
	switch {
	case d <= 0:
		return b
	case d == timeline.NoMax:
		return append(b, "±?"...)
	case d < time.Minute:
		n := len(b)
		b = append(b, "±"...)
		b = strconv.AppendFloat(b, d.Seconds(), 'f', 2, 64)
		if string(b[n+len("±"):]) != "60.00" {
			return b
		}
		b, d = b[:n], time.Minute
	}
	return AppendDur(append(b, "±"...), d)
}

// Span formats a span as its signed value and its ±, e.g. "+4.14s ±0.50".
func Span(s timeline.Span) string {
	if p := Plus(s.Plus()); p != "" {
		return Signed(s.Value) + " " + p
	}
	return Signed(s.Value)
}

// Gap is a named gap's length and its ±, e.g. "0.52s ±0.50"; when the bounds are lopsided (a
// gap that cannot be negative, say) it gives them instead: "0.00s (0.00–1.00)".
func Gap(s timeline.Span) string {
	v := Dur(s.Value)
	if !s.Bounded() {
		return fmt.Sprintf("%s (%s–%s)", v, seconds(s.Min), seconds(s.Max))
	}
	lo, hi := s.Value-s.Min, s.Max-s.Value
	if d := lo - hi; d > 10*time.Millisecond || d < -10*time.Millisecond {
		return fmt.Sprintf("%s (%s–%s)", v, seconds(s.Min), seconds(s.Max))
	}
	if p := Plus(s.Plus()); p != "" {
		v += " " + p
	}
	return v
}

// seconds is a bound in seconds (1.00), or ? where there is none (timeline.NoMin, NoMax).
func seconds(d time.Duration) string {
	if d == timeline.NoMin || d == timeline.NoMax {
		return "?"
	}
	return fmt.Sprintf("%.2f", d.Seconds())
}

// Bound is Dur of a span's bound, or ? where there is none (timeline.NoMin, NoMax).
func Bound(d time.Duration) string {
	if d == timeline.NoMin || d == timeline.NoMax {
		return "?"
	}
	return Dur(d)
}

// TickSteps are the distances an axis may put between its ticks, shortest first: the view's
// and the exports' axes pick from the same list, so a recording of weeks has the same steps in both.
var TickSteps = []time.Duration{
	100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond,
	time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second,
	30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute,
	15 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 6 * time.Hour, 12 * time.Hour,
	24 * time.Hour, 48 * time.Hour, 7 * 24 * time.Hour, 28 * 24 * time.Hour,
}

// Tick formats an axis tick's offset from the origin compactly: +0s, +5s, +0.5s, +1m30s, +2h.
func Tick(d time.Duration) string {
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

// KindTag is the tag a lane's label shows for its container kind: init, side, app, eph; any
// other kind as it is written (whoever shows it escapes it).
func KindTag(k timeline.ContainerKind) string {
	switch k {
	case timeline.KindSidecar:
		return "side"
	case timeline.KindEphemeral:
		return "eph"
	}
	return string(k)
}
