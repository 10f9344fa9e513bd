package present

import "github.com/sidecar-top/sidecar-top/timeline"

// Glyphs are the characters the lanes are drawn with, in one set. Every glyph is one cell wide,
// and lane states and milestone kinds each have their own, so a view reads the same without
// colour. Unicode is the default; ASCII suits terminals whose fonts lack the block and arrow
// characters or draw them two cells wide (East Asian ambiguous width).
type Glyphs struct {
	// States fills a lane for each state.
	States map[timeline.LaneState]string
	// Markers marks a milestone on its lane at the column of its time.
	Markers map[timeline.MilestoneKind]string
	// ExitFailed marks an exit with a non-zero code and a Failed phase or condition.
	ExitFailed string
	// Inferred replaces the marker of a milestone nobody reported.
	Inferred string
	// Conditions marks a Job condition milestone by its reason (Complete, Failed, ...).
	Conditions map[string]string
	// Condition marks a Job condition not in Conditions.
	Condition string
	// PodFill fills the pod and job rows after their STATUS text.
	PodFill string
	// Tick marks a tick on the time axis, before its label.
	Tick string
	// Cursor points at the selected lane and the milestone cursor's table row.
	Cursor string
	// Selected marks the table rows of the selected lane.
	Selected string
	// Restarts prefixes a container's restart count in its label.
	Restarts string
	// LogLines replace a lane's fill where its container wrote log lines: [0] a few, [1] ten a
	// second or more.
	LogLines [2]string
	// unknown marks a kind without a look (none has: TestEveryKindIsPresented).
	unknown string
}

// UnicodeGlyphs returns the default glyphs: shaded blocks from pending to ready, arrows and
// symbols for milestones.
func UnicodeGlyphs() Glyphs {
	g := glyphSet(0)
	g.PodFill, g.Tick, g.Cursor, g.Selected, g.Restarts = "─", "┊", "›", "▎", "↻"
	g.LogLines[1] = "╻"
	return g
}

// ASCIIGlyphs returns glyphs made of printable ASCII only.
func ASCIIGlyphs() Glyphs {
	g := glyphSet(1)
	g.PodFill, g.Tick, g.Cursor, g.Selected, g.Restarts = "-", "|", ">", "|", "@"
	g.LogLines[1] = ";"
	return g
}

// glyphSet fills the glyphs of the kinds, states and conditions from set 0 (Unicode) or 1 (ASCII).
func glyphSet(set int) Glyphs {
	pick := func(l Look) string { return [2]string{l.Unicode, l.ASCII}[set] }
	g := Glyphs{
		States:     make(map[timeline.LaneState]string, len(States)),
		Markers:    make(map[timeline.MilestoneKind]string, len(Kinds)),
		Conditions: make(map[string]string, len(Conditions)),
		ExitFailed: pick(Failed),
		Inferred:   pick(Inferred),
		Condition:  pick(Kinds[timeline.MCondition]),
		LogLines:   [2]string{pick(LogLines)},
		unknown:    pick(KindLook("")),
	}
	for s, l := range States {
		g.States[s] = pick(l)
	}
	for k, l := range Kinds {
		g.Markers[k] = pick(l)
	}
	for reason, c := range Conditions {
		g.Conditions[reason] = c[set]
	}
	return g
}

// Marker is the glyph for a milestone on its lane.
func (g *Glyphs) Marker(m *timeline.Milestone) string {
	switch {
	case m.Source == timeline.SourceInferred:
		return g.Inferred
	case m.Failed():
		return g.ExitFailed
	case m.Kind == timeline.MCondition:
		if c, ok := g.Conditions[m.Reason]; ok {
			return c
		}
		return g.Condition
	}
	if s, ok := g.Markers[m.Kind]; ok {
		return s
	}
	return g.unknown
}
