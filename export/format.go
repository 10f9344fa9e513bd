package export

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
)

// The duration formats are the view's (ui/format.go), so that a report reads like the terminal:
// 0.25s, 4.14s, 1m02.5s, 1h02m03s; offsets signed (+4.14s); a bound as ±0.50.

// fmtDur formats a duration: 0.25s, 4.14s, 1m02.5s, 1h02m03s; negative ones keep their sign.
func fmtDur(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign = "-"
		if d = -d; d < 0 {
			d = math.MaxInt64
		}
	}
	if d < time.Minute {
		if s := strconv.FormatFloat(d.Seconds(), 'f', 2, 64); s != "60.00" {
			return sign + s + "s"
		}
		d = time.Minute
	}
	if d < time.Hour {
		m := d / time.Minute
		s := strconv.FormatFloat((d - m*time.Minute).Seconds(), 'f', 1, 64)
		if s == "60.0" {
			m, s = m+1, "0.0"
		}
		if m < 60 {
			if len(s) < 4 {
				s = "0" + s
			}
			return fmt.Sprintf("%s%dm%ss", sign, m, s)
		}
		d = time.Hour
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%s%dh%02dm%02ds", sign, d/time.Hour, (d%time.Hour)/time.Minute, (d%time.Minute)/time.Second)
}

// fmtSigned is fmtDur with a sign always: +4.14s, -0.50s.
func fmtSigned(d time.Duration) string {
	if d >= 0 {
		return "+" + fmtDur(d)
	}
	return fmtDur(d)
}

// fmtPlus is a span's bound: ±0.50 in seconds, or ±1m02.5s from a minute on; empty when exact.
func fmtPlus(d time.Duration) string {
	switch {
	case d <= 0:
		return ""
	case d < time.Minute:
		if s := strconv.FormatFloat(d.Seconds(), 'f', 2, 64); s != "60.00" {
			return "±" + s
		}
		d = time.Minute
	}
	return "±" + fmtDur(d)
}

// fmtSpan is a span as its signed value and its bound: "+4.14s ±0.50".
func fmtSpan(s timeline.Span) string {
	if p := fmtPlus(s.Plus()); p != "" {
		return fmtSigned(s.Value) + " " + p
	}
	return fmtSigned(s.Value)
}

// fmtGap is a named gap's length: its bounds when they are lopsided, "1.11s (0.43–1.64)", else
// "0.25s ±0.25", as the view's gap list shows it.
func fmtGap(s timeline.Span) string {
	v := fmtDur(s.Value)
	lo, hi := s.Value-s.Min, s.Max-s.Value
	if d := lo - hi; d > 10*time.Millisecond || d < -10*time.Millisecond {
		return fmt.Sprintf("%s (%.2f–%.2f)", v, s.Min.Seconds(), s.Max.Seconds())
	}
	if p := fmtPlus(s.Plus()); p != "" {
		v += " " + p
	}
	return v
}

// fmtTick is an axis tick's offset, compact: +0s, +5s, +0.5s, +1m30s, +2h.
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
		if m, s := d/time.Minute, (d%time.Minute)/time.Second; s != 0 {
			return fmt.Sprintf("%s%dm%02ds", sign, m, s)
		} else {
			return fmt.Sprintf("%s%dm", sign, m)
		}
	}
	if h, m := d/time.Hour, (d%time.Hour)/time.Minute; m != 0 {
		return fmt.Sprintf("%s%dh%02dm", sign, h, m)
	} else {
		return fmt.Sprintf("%s%dh", sign, h)
	}
}

// kindName names a milestone as the view's table does: an inferred one ends in "?".
func kindName(m *timeline.Milestone) string {
	k := string(m.Kind)
	switch m.Kind {
	case timeline.MContainersReady:
		k = "ctrs-ready"
	case timeline.MCondition:
		k = "job " + m.Reason
	}
	if m.Source == timeline.SourceInferred {
		k += "?"
	}
	return k
}

// evidenceSummary is a milestone's evidence in one line: each fact's field or Event, and its note.
func evidenceSummary(m *timeline.Milestone) string {
	var parts []string
	for _, e := range m.Evidence {
		p := e.What
		if e.Precision != "" {
			p += " (" + e.Precision + ")"
		}
		if e.Note != "" {
			p += ": " + e.Note
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

// findingText is a finding as one line: the container and the pod named where the text does
// not name them already (within is the pod the finding is listed under).
func findingText(f timeline.Finding, within string) string {
	text := f.Text
	if f.Container != "" && !strings.Contains(text, f.Container) {
		text = f.Container + ": " + text
	}
	if f.Pod != "" && f.Pod != within {
		text = "pod " + f.Pod + ": " + text
	}
	return strings.Join(strings.Fields(text), " ")
}

// kindTag is the short tag a lane's label shows for its container kind.
func kindTag(k timeline.ContainerKind) string {
	switch k {
	case timeline.KindSidecar:
		return "side"
	case timeline.KindEphemeral:
		return "eph"
	}
	return string(k)
}

// safe is ui.Safe: text from the cluster made safe for a terminal (and for a reader's eye:
// bidi overrides, zero-width characters and controls shown as escapes).
func safe(s string) string { return ui.Safe(s) }
