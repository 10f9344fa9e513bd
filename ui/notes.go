package ui

import (
	"iter"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/sidecar-top/sidecar-top/internal/textfmt"
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
		items = append(items, f.styled(sMuted, "Δ ")+Safe(g.Name)+" "+f.styled(sText, textfmt.Gap(g.Span)))
	}
	lines := wrapItems(items, f.width-1, height, "   ")
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
	lines := strings.Split(ansi.Wordwrap(Safe(x.Line(within)), max(f.width-4, 10), " "), "\n")
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

// legendItems explain the glyphs: lane states, then milestone markers; all of them when full,
// else those of container lanes. sep goes between a glyph and its name.
func legendItems(st Styles, full bool, sep string) []string {
	g := st.Glyphs
	var items []string
	core := []struct {
		kind timeline.MilestoneKind
		name string
	}{
		{timeline.MStart, "start"}, {timeline.MStarted, "started"}, {timeline.MReady, "ready"},
		{timeline.MSigterm, "SIGTERM"}, {timeline.MExit, "exit"}, {"", "failed"},
		{timeline.MRestart, "restart"},
	}
	extra := []struct {
		kind timeline.MilestoneKind
		name string
	}{
		{timeline.MNotReady, "not ready"}, {timeline.MProbeFailed, "probe failed"},
		{timeline.MBackOff, "back-off"}, {timeline.MScheduled, "scheduled"},
		{timeline.MInitialized, "initialized"}, {timeline.MContainersReady, "containers ready"},
		{timeline.MDeleting, "deleting"}, {timeline.MDeleted, "deleted"},
	}
	marker := func(kind timeline.MilestoneKind, name string) string {
		if kind == "" {
			return st.MarkerFailed.Render(g.ExitFailed) + sep + name
		}
		return st.Markers[kind].Render(g.Markers[kind]) + sep + name
	}
	for _, m := range core {
		items = append(items, marker(m.kind, m.name))
	}
	items = append(items, st.InferredMarkers[timeline.MSigterm].Render(g.Inferred)+sep+"inferred")
	for _, s := range []struct {
		state timeline.LaneState
		name  string
	}{
		{timeline.StateWaiting, "waiting"},
		{timeline.StateRunning, "running"}, {timeline.StateStarted, "started"},
		{timeline.StateReady, "ready"}, {timeline.StateTerminating, "terminating"},
		{timeline.StateTerminated, "exited"}, {timeline.StatePending, "pending"},
	} {
		items = append(items, st.States[s.state].Render(g.States[s.state])+sep+s.name)
	}
	items = append(items, st.States[timeline.StateReady].Render(g.LogLines[0])+sep+"log lines")
	if full {
		for _, m := range extra {
			items = append(items, marker(m.kind, m.name))
		}
	}
	return items
}

// wrapItems lays items out in at most lines lines of width cells, sep apart; items that do not
// fit are left out.
func wrapItems(items []string, width, lines int, sep string) []string {
	var out []string
	cur := ""
	for _, it := range items {
		switch {
		case cur == "":
			cur = it
		case cellWidth(cur)+cellWidth(sep)+cellWidth(it) <= width:
			cur += sep + it
		default:
			out = append(out, cur)
			if len(out) == lines {
				return out
			}
			cur = it
		}
	}
	if cur != "" && len(out) < lines {
		out = append(out, truncate(cur, width))
	}
	return out
}
