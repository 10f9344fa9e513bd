package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// fmtDur formats a duration for offsets and gaps: 0.25s, 4.14s, 1m02.5s, 1h02m03s. The sign
// is kept for negative durations and never added for positive ones.
func fmtDur(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%s%.2fs", sign, d.Seconds())
	case d < time.Hour:
		m := d / time.Minute
		return fmt.Sprintf("%s%dm%04.1fs", sign, m, (d - m*time.Minute).Seconds())
	default:
		d = d.Round(time.Second)
		h, m, s := d/time.Hour, (d%time.Hour)/time.Minute, (d%time.Minute)/time.Second
		return fmt.Sprintf("%s%dh%02dm%02ds", sign, h, m, s)
	}
}

// fmtSigned is fmtDur with a sign always: +4.14s, -0.50s.
func fmtSigned(d time.Duration) string {
	if d < 0 {
		return fmtDur(d)
	}
	return "+" + fmtDur(d)
}

// fmtPlus formats the ± of a span in seconds (±0.50), or as a duration when it is a minute or
// more; it is empty when the span is exact.
func fmtPlus(d time.Duration) string {
	switch {
	case d <= 0:
		return ""
	case d < time.Minute:
		return fmt.Sprintf("±%.2f", d.Seconds())
	default:
		return "±" + fmtDur(d)
	}
}

// fmtSpan formats a span as its signed value and its ±, e.g. "+4.14s ±0.50".
func fmtSpan(s timeline.Span) string {
	if p := fmtPlus(s.Plus()); p != "" {
		return fmtSigned(s.Value) + " " + p
	}
	return fmtSigned(s.Value)
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
	if lipgloss.Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// pad fills s with spaces on the right up to width cells, cutting it when it is longer.
func pad(s string, width int) string {
	s = truncate(s, width)
	if w := lipgloss.Width(s); w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// padLeft fills s with spaces on the left up to width cells.
func padLeft(s string, width int) string {
	s = truncate(s, width)
	if w := lipgloss.Width(s); w < width {
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
		if len(kept) > 0 && lipgloss.Width(try) > width {
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
		t = string(k)
	}
	if short && t != "" {
		return t[:1]
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
		case lipgloss.Width(cur)+1+lipgloss.Width(w) <= width:
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
