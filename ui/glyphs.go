package ui

import "github.com/sidecar-top/sidecar-top/timeline"

// Glyphs are the characters the lanes are drawn with. Every glyph is one cell wide, and lane
// states and milestone kinds each have their own, so a view reads the same without colour.
// UnicodeGlyphs is the default; ASCIIGlyphs suits terminals whose fonts lack the block and
// arrow characters or draw them two cells wide (East Asian ambiguous width).
type Glyphs struct {
	// States fills a lane for each state: pending, waiting, running, started, ready,
	// terminating and terminated (after the exit).
	States map[timeline.LaneState]string
	// Markers marks a milestone on its lane at the column of its time.
	Markers map[timeline.MilestoneKind]string
	// ExitFailed marks an exit with a non-zero code and a Failed phase or condition.
	ExitFailed string
	// Inferred replaces the marker of a milestone nobody reported, derived from the kubelet's
	// rules: its colour still tells the kind, and the table names it.
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
	// second or more (loglines.go).
	LogLines [2]string
}

// UnicodeGlyphs returns the default glyphs: shaded blocks from pending to ready, arrows and
// symbols for milestones.
func UnicodeGlyphs() Glyphs {
	return Glyphs{
		States: map[timeline.LaneState]string{
			timeline.StatePending:     "·",
			timeline.StateWaiting:     "░",
			timeline.StateRunning:     "▒",
			timeline.StateStarted:     "▓",
			timeline.StateReady:       "█",
			timeline.StateTerminating: "≈",
			timeline.StateTerminated:  "─",
		},
		Markers: map[timeline.MilestoneKind]string{
			timeline.MCreated:         "+",
			timeline.MWaiting:         "…",
			timeline.MStart:           "▸",
			timeline.MRestart:         "↻",
			timeline.MStarted:         "◆",
			timeline.MReady:           "✓",
			timeline.MNotReady:        "○",
			timeline.MProbeFailed:     "!",
			timeline.MBackOff:         "‖",
			timeline.MSigterm:         "↯",
			timeline.MExit:            "■",
			timeline.MScheduled:       "s",
			timeline.MInitialized:     "i",
			timeline.MContainersReady: "c",
			timeline.MDeleting:        "d",
			timeline.MDeleted:         "†",
			timeline.MPhase:           "■",
			timeline.MCondition:       "◇",
		},
		ExitFailed: "✗",
		Inferred:   "?",
		Conditions: map[string]string{
			"Complete": "✓", "Failed": "✗", "SuccessCriteriaMet": "◆", "FailureTarget": "◇",
			"Suspended": "‖",
		},
		Condition: "◇",
		PodFill:   "─",
		Tick:      "┊",
		Cursor:    "›",
		Selected:  "▎",
		Restarts:  "↻",
		LogLines:  [2]string{"╷", "╻"},
	}
}

// ASCIIGlyphs returns glyphs made of printable ASCII only.
func ASCIIGlyphs() Glyphs {
	return Glyphs{
		States: map[timeline.LaneState]string{
			timeline.StatePending:     ".",
			timeline.StateWaiting:     "~",
			timeline.StateRunning:     "-",
			timeline.StateStarted:     "=",
			timeline.StateReady:       "#",
			timeline.StateTerminating: "%",
			timeline.StateTerminated:  "_",
		},
		Markers: map[timeline.MilestoneKind]string{
			timeline.MCreated:         "+",
			timeline.MWaiting:         "w",
			timeline.MStart:           ">",
			timeline.MRestart:         "@",
			timeline.MStarted:         "S",
			timeline.MReady:           "R",
			timeline.MNotReady:        "N",
			timeline.MProbeFailed:     "!",
			timeline.MBackOff:         "B",
			timeline.MSigterm:         "T",
			timeline.MExit:            "x",
			timeline.MScheduled:       "s",
			timeline.MInitialized:     "i",
			timeline.MContainersReady: "c",
			timeline.MDeleting:        "d",
			timeline.MDeleted:         "D",
			timeline.MPhase:           "x",
			timeline.MCondition:       "C",
		},
		ExitFailed: "X",
		Inferred:   "?",
		Conditions: map[string]string{
			"Complete": "R", "Failed": "X", "SuccessCriteriaMet": "S", "FailureTarget": "F",
			"Suspended": "B",
		},
		Condition: "C",
		PodFill:   "-",
		Tick:      "|",
		Cursor:    ">",
		Selected:  "|",
		Restarts:  "@",
		LogLines:  [2]string{",", ";"},
	}
}

// Marker is the glyph for a milestone on its lane (the exports draw it as the view does).
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
	return "•"
}

// MarkerRank decides which milestone a lane shows when several fall in one column: the end of
// a run first, then its signal, its restart, readiness and start. The exports' lanes use it too.
func MarkerRank(k timeline.MilestoneKind) int {
	switch k {
	case timeline.MExit, timeline.MPhase, timeline.MDeleted:
		return 9
	case timeline.MSigterm, timeline.MDeleting:
		return 8
	case timeline.MRestart, timeline.MCondition:
		return 7
	case timeline.MReady, timeline.MNotReady, timeline.MContainersReady:
		return 6
	case timeline.MStarted, timeline.MInitialized:
		return 5
	case timeline.MStart, timeline.MScheduled:
		return 4
	case timeline.MBackOff, timeline.MProbeFailed:
		return 3
	case timeline.MCreated:
		return 1
	}
	return 2
}
