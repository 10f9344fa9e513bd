// Package present says how sidecar-top draws what the timeline holds, in the view and in every
// export alike: the glyph of each milestone kind and lane state (Unicode and ASCII), its colour,
// its label in the legend and which marker wins a shared column; and how text from the cluster is
// made safe to show. It knows no framework but Lip Gloss's colour types: the view builds its
// styles from it, the exports their palettes and glyphs.
//
// Every kind of timeline.Kinds has one row in Kinds here, and TestEveryKindIsPresented fails on
// one without it.
package present

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Look is how a milestone kind or a lane state is drawn.
type Look struct {
	// Unicode and ASCII are its glyph in each set: one cell wide; ASCII printable ASCII only.
	Unicode, ASCII string
	// Color is its colour (lipgloss.NoColor: the terminal's own), Bold whether it is bold.
	Color lipgloss.TerminalColor
	Bold  bool
	// Label names it in the legend.
	Label string
	// Legend is its place in the legend: 1 and on in the view's short legend, LegendFull and
	// on only in the full one (help); 0 not listed.
	Legend int
	// MarkerRank decides which milestone a lane shows when several fall in one column: the end
	// of a run first, then its signal, its restart, readiness and start.
	MarkerRank int
}

// LegendFull is the first place of the full legend's extra items.
const LegendFull = 100

// Kinds is the look of every milestone kind.
var Kinds = map[timeline.MilestoneKind]Look{
	timeline.MCreated:         {"+", "+", Muted, false, "created", 0, 1},
	timeline.MScheduled:       {"s", "s", Muted, true, "scheduled", LegendFull + 3, 4},
	timeline.MWaiting:         {"…", "w", Yellow, false, "waiting", 0, 2},
	timeline.MStart:           {"▸", ">", Blue, true, "start", 1, 4},
	timeline.MRestart:         {"↻", "@", Magenta, true, "restart", 7, 7},
	timeline.MStarted:         {"◆", "S", Cyan, true, "started", 2, 5},
	timeline.MInitialized:     {"i", "i", Cyan, true, "initialized", LegendFull + 4, 5},
	timeline.MContainersReady: {"c", "c", Green, false, "containers ready", LegendFull + 5, 6},
	timeline.MReady:           {"✓", "R", Green, true, "ready", 3, 6},
	timeline.MNotReady:        {"○", "N", Yellow, true, "not ready", LegendFull, 6},
	timeline.MProbeFailed:     {"!", "!", Yellow, true, "probe failed", LegendFull + 1, 3},
	timeline.MBackOff:         {"‖", "B", Red, true, "back-off", LegendFull + 2, 3},
	timeline.MDisruption:      {"⊘", "E", Orange, true, "disruption", 0, 8},
	timeline.MDeleting:        {"d", "d", Orange, true, "deleting", LegendFull + 6, 8},
	timeline.MPreStop:         {"⇣", "P", Orange, false, "preStop hook", LegendFull + 8, 8},
	timeline.MSigterm:         {"↯", "T", Orange, true, "SIGTERM", 4, 8},
	timeline.MExit:            {"■", "x", lipgloss.NoColor{}, true, "exit", 5, 9},
	timeline.MDeleted:         {"†", "D", Red, true, "deleted", LegendFull + 7, 9},
	timeline.MPhase:           {"■", "x", Green, true, "phase", 0, 9},
	timeline.MCondition:       {"◇", "C", Green, true, "job condition", 0, 7},
}

// Failed is the look of a milestone that ends something badly (timeline.Milestone.Failed),
// whatever its kind; it follows exit in the legend.
var Failed = Look{"✗", "X", Red, true, "failed", 6, 9}

// Inferred is the marker of a milestone nobody reported, derived from the kubelet's rules: its
// colour (faint) still tells the kind, and the table names it.
// In the legend it takes SIGTERM's colour, faint.
var Inferred = Look{"?", "?", Orange, false, "inferred", 8, 0}

// LogLines is the look of a lane's fill where its container wrote a few log lines (denser ones
// have a glyph of their own, Glyphs.LogLines[1]).
var LogLines = Look{"╷", ",", Green, false, "log lines", 16, 0}

// States is the look of each lane state: shaded from pending to ready, so that a lane reads the
// same without colour.
var States = map[timeline.LaneState]Look{
	timeline.StateWaiting:     {"░", "~", Yellow, false, "waiting", 9, 0},
	timeline.StateRunning:     {"▒", "-", Blue, false, "running", 10, 0},
	timeline.StateStarted:     {"▓", "=", Cyan, false, "started", 11, 0},
	timeline.StateReady:       {"█", "#", Green, false, "ready", 12, 0},
	timeline.StateTerminating: {"≈", "%", Orange, false, "terminating", 13, 0},
	timeline.StateTerminated:  {"─", "_", Muted, false, "exited", 14, 0},
	timeline.StatePending:     {"·", ".", Muted, false, "pending", 15, 0},
}

// LaneStates lists every lane state, in the order a lane passes through them.
var LaneStates = []timeline.LaneState{timeline.StatePending, timeline.StateWaiting, timeline.StateRunning,
	timeline.StateStarted, timeline.StateReady, timeline.StateTerminating, timeline.StateTerminated}

// Conditions marks a Job condition milestone by its reason, in each set; Condition's glyph
// marks any other.
var Conditions = map[string][2]string{
	"Complete": {"✓", "R"}, "Failed": {"✗", "X"}, "SuccessCriteriaMet": {"◆", "S"}, "FailureTarget": {"◇", "F"},
	"Suspended": {"‖", "B"},
}

// KindLook is the kind's look; a kind without a row (none: TestEveryKindIsPresented) is drawn
// as a muted dot.
func KindLook(k timeline.MilestoneKind) Look {
	if l, ok := Kinds[k]; ok {
		return l
	}
	return Look{"•", ".", Muted, false, string(k), 0, 2}
}

// MarkerRank is KindLook(k).MarkerRank.
func MarkerRank(k timeline.MilestoneKind) int { return KindLook(k).MarkerRank }
