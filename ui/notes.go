package ui

import (
	"fmt"
	"iter"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// renderGaps draws the pod's named gaps, each its name and value ± bound, flowing over at most
// height lines.
func renderGaps(f *frame, gaps []timeline.Gap, height int) []string {
	if height <= 0 || len(gaps) == 0 {
		return nil
	}
	items := make([]string, 0, len(gaps))
	for _, g := range gaps {
		items = append(items, f.styled(sMuted, "Δ ")+present.Safe(g.Name)+" "+f.styled(sText, textfmt.Gap(g.Span)))
	}
	lines, placed := wrapCount(items, f.width-1, height, "   ")
	// Those that do not fit are said, with where to see them, in the place of the last ones.
	for k := placed; k < len(items) && k >= 0; k-- {
		hint := f.styled(sMuted, fmt.Sprintf("+%d more gaps: enter on a milestone, or a taller window", len(items)-k))
		try, n := wrapCount(append(items[:k:k], hint), f.width-1, height, "   ")
		if n == k+1 || k == 0 {
			lines = try
			break
		}
	}
	for i := range lines {
		lines[i] = " " + lines[i]
	}
	return lines
}

// findingLines are the findings of pod within (and its job's) wrapped to the width, warnings
// first, at most limit lines: a finding is the one place the tool speaks in sentences, so it is
// wrapped, not cut. Only what can be shown is wrapped, and only what is read up to there is
// read: a Job's pods may hold a thousand findings.
func findingLines(f *frame, fs iter.Seq[*timeline.Finding], within string, limit int) []string {
	var out []string
	for _, warn := range []bool{true, false} {
		// The findings this pass can show (each takes a line at least), picked first: a loop
		// body over fs that wrapped text would take the frame along into its closure.
		room := limit - len(out)
		if room <= 0 {
			break
		}
		var picked []*timeline.Finding
		for x := range fs {
			if (x.Severity == timeline.SeverityWarning) == warn {
				if picked = append(picked, x); len(picked) == room {
					break
				}
			}
		}
		for _, x := range picked {
			if len(out) >= limit {
				return out[:limit]
			}
			out = append(out, f.cache.findingLines(findingKey{x, within, f.width}, func() []string {
				return wrapFinding(f, x, within)
			})...)
		}
	}
	return out[:min(len(out), max(limit, 0))]
}

// wrapFinding is finding x's lines, wrapped to the frame's width.
func wrapFinding(f *frame, x *timeline.Finding, within string) []string {
	mark, style := "i ", sInfo
	if x.Severity == timeline.SeverityWarning {
		mark, style = "! ", sWarning
	}
	lines := strings.Split(ansi.Wordwrap(present.Safe(x.Line(within)), max(f.width-4, 10), " "), "\n")
	if len(lines) > maxFindingLines {
		lines = lines[:maxFindingLines]
		lines[maxFindingLines-1] = truncate(lines[maxFindingLines-1]+" …", max(f.width-4, 10))
	}
	for i, line := range lines {
		if i == 0 {
			line = mark + line
		} else {
			line = "  " + line
		}
		lines[i] = truncate(" "+f.styled(style, line), f.width)
	}
	return lines
}

// maxFindingLines is the most lines a finding takes: one that would take more (a name or a
// message of kilobytes in it) ends in an ellipsis rather than push the rest off the screen.
const maxFindingLines = 4

// legendItems explain the glyphs (present.Legend): milestone markers and lane states, then, when
// full, the markers of the pod row and the rarer ones. sep goes between a glyph and its name.
func legendItems(st Styles, full bool, sep string) []string {
	var items []string
	for _, it := range present.Legend(full) {
		items = append(items, st.legendStyle(it).Render(st.Glyphs.Glyph(it))+sep+it.Label)
	}
	return items
}

// wrapItems lays items out in at most lines lines of width cells, sep apart; items that do not
// fit are left out.
func wrapItems(items []string, width, lines int, sep string) []string {
	out, _ := wrapCount(items, width, lines, sep)
	return out
}

// wrapCount is wrapItems, and how many of the items it placed.
func wrapCount(items []string, width, lines int, sep string) ([]string, int) {
	var out []string
	cur, start := "", 0 // the line being filled, and its first item
	for i, it := range items {
		switch {
		case cur == "":
			cur, start = it, i
		case cellWidth(cur)+cellWidth(sep)+cellWidth(it) <= width:
			cur += sep + it
		default:
			out = append(out, cur)
			if len(out) == lines {
				return out, i
			}
			cur, start = it, i
		}
	}
	switch {
	case cur == "":
		return out, len(items)
	case len(out) < lines:
		return append(out, truncate(cur, width)), len(items)
	}
	return out, start
}
