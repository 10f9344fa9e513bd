package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The palette: each colour adapts to light and dark backgrounds.
var (
	colMuted   = lipgloss.AdaptiveColor{Light: "#8A8A8A", Dark: "#7A7A7A"}
	colFaint   = lipgloss.AdaptiveColor{Light: "#B8B8B8", Dark: "#4E4E4E"}
	colYellow  = lipgloss.AdaptiveColor{Light: "#9A6700", Dark: "#E5C07B"}
	colBlue    = lipgloss.AdaptiveColor{Light: "#1F5FD6", Dark: "#61AFEF"}
	colCyan    = lipgloss.AdaptiveColor{Light: "#0B7A85", Dark: "#56B6C2"}
	colGreen   = lipgloss.AdaptiveColor{Light: "#23803A", Dark: "#98C379"}
	colOrange  = lipgloss.AdaptiveColor{Light: "#B6480C", Dark: "#E8A15A"}
	colRed     = lipgloss.AdaptiveColor{Light: "#C4262E", Dark: "#E06C75"}
	colMagenta = lipgloss.AdaptiveColor{Light: "#8B36D9", Dark: "#C678DD"}
	colAccent  = lipgloss.AdaptiveColor{Light: "#5A3FD6", Dark: "#B4A7FF"}
)

// Styles are every style the view uses, built once from one lipgloss.Renderer. The renderer
// decides the colour profile: with termenv.Ascii nothing is styled at all, which is how the
// no-colour mode and the golden tests work, and why glyphs alone must tell states apart.
type Styles struct {
	Glyphs Glyphs

	Title       lipgloss.Style // the program's name in the header
	Text        lipgloss.Style // plain emphasis, e.g. the pod's name
	Muted       lipgloss.Style // labels and secondary facts
	Faint       lipgloss.Style // fills and separators
	Selected    lipgloss.Style // the selected lane's label
	TableHeader lipgloss.Style // column headings
	Highlight   lipgloss.Style // table rows of the selected lane
	Cursor      lipgloss.Style // the milestone cursor's row
	Warning     lipgloss.Style // warning findings and Warning events
	Error       lipgloss.Style // watch errors
	Info        lipgloss.Style // info findings and notes
	Inferred    lipgloss.Style // the source column of inferred milestones
	Status      lipgloss.Style // the status line's message

	// States colours a lane's fill by state; Failed colours a run that exited badly.
	States map[timeline.LaneState]lipgloss.Style
	Failed lipgloss.Style
	// Markers colours milestone markers by kind; InferredMarkers is the same, faint.
	Markers         map[timeline.MilestoneKind]lipgloss.Style
	InferredMarkers map[timeline.MilestoneKind]lipgloss.Style
	// MarkerFailed colours a failed exit, phase or condition.
	MarkerFailed lipgloss.Style

	Help    help.Styles
	Spinner lipgloss.Style
}

// DefaultStyles returns NewStyles for lipgloss's default renderer (standard output).
func DefaultStyles() Styles { return NewStyles(lipgloss.DefaultRenderer()) }

// NewStyles builds the styles for r with Unicode glyphs. It settles r's background colour now,
// before a Bubble Tea program owns the terminal: asking the terminal later would race with the
// program's input reader. Without colours there is nothing to ask.
func NewStyles(r *lipgloss.Renderer) Styles {
	if r.ColorProfile() == asciiProfile {
		r.SetHasDarkBackground(true)
	} else {
		r.SetHasDarkBackground(r.HasDarkBackground())
	}
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return r.NewStyle().Foreground(c) }
	s := Styles{
		Glyphs:      UnicodeGlyphs(),
		Title:       fg(colAccent).Bold(true),
		Text:        r.NewStyle().Bold(true),
		Muted:       fg(colMuted),
		Faint:       fg(colFaint),
		Selected:    r.NewStyle().Bold(true).Reverse(true),
		TableHeader: fg(colMuted).Bold(true),
		Highlight:   r.NewStyle().Bold(true),
		Cursor:      r.NewStyle().Reverse(true),
		Warning:     fg(colOrange).Bold(true),
		Error:       fg(colRed).Bold(true),
		Info:        fg(colCyan),
		Inferred:    fg(colMagenta).Italic(true),
		Status:      fg(colYellow),
		Failed:      fg(colRed),
		States: map[timeline.LaneState]lipgloss.Style{
			timeline.StatePending:     fg(colMuted),
			timeline.StateWaiting:     fg(colYellow),
			timeline.StateRunning:     fg(colBlue),
			timeline.StateStarted:     fg(colCyan),
			timeline.StateReady:       fg(colGreen),
			timeline.StateTerminating: fg(colOrange),
			timeline.StateTerminated:  fg(colMuted),
		},
		MarkerFailed: fg(colRed).Bold(true),
		Spinner:      fg(colAccent),
	}
	s.Markers = map[timeline.MilestoneKind]lipgloss.Style{
		timeline.MCreated:         fg(colMuted),
		timeline.MWaiting:         fg(colYellow),
		timeline.MStart:           fg(colBlue).Bold(true),
		timeline.MRestart:         fg(colMagenta).Bold(true),
		timeline.MStarted:         fg(colCyan).Bold(true),
		timeline.MReady:           fg(colGreen).Bold(true),
		timeline.MNotReady:        fg(colYellow).Bold(true),
		timeline.MProbeFailed:     fg(colYellow).Bold(true),
		timeline.MBackOff:         fg(colRed).Bold(true),
		timeline.MSigterm:         fg(colOrange).Bold(true),
		timeline.MExit:            r.NewStyle().Bold(true),
		timeline.MScheduled:       fg(colMuted).Bold(true),
		timeline.MInitialized:     fg(colCyan).Bold(true),
		timeline.MContainersReady: fg(colGreen),
		timeline.MDeleting:        fg(colOrange).Bold(true),
		timeline.MDeleted:         fg(colRed).Bold(true),
		timeline.MPhase:           fg(colGreen).Bold(true),
		timeline.MCondition:       fg(colGreen).Bold(true),
	}
	s.InferredMarkers = make(map[timeline.MilestoneKind]lipgloss.Style, len(s.Markers))
	for k, st := range s.Markers {
		s.InferredMarkers[k] = st.Bold(false).Faint(true).Italic(true)
	}
	key, desc, sep := fg(colMuted).Bold(true), fg(colMuted), fg(colFaint)
	s.Help = help.Styles{
		Ellipsis: sep, ShortKey: key, ShortDesc: desc, ShortSeparator: sep,
		FullKey: key, FullDesc: desc, FullSeparator: sep,
	}
	return s
}

// badReason reports whether a termination or waiting reason means something went wrong.
func badReason(r string) bool {
	return r != "" && r != "Completed" && r != "ContainerCreating" && r != "PodInitializing"
}

// statusStyle colours kubectl's STATUS text by what it means.
func (s Styles) statusStyle(status string) lipgloss.Style {
	switch {
	case status == "Running":
		return s.States[timeline.StateReady]
	case status == "Completed" || status == "Succeeded" || status == "Complete":
		return s.States[timeline.StateStarted]
	case status == "Terminating":
		return s.States[timeline.StateTerminating]
	case strings.Contains(status, "Err") || strings.Contains(status, "BackOff") ||
		strings.Contains(status, "Fail") || strings.Contains(status, "Kill") ||
		strings.Contains(status, "Evicted") || strings.Contains(status, "Unknown"):
		return s.Failed
	case strings.HasPrefix(status, "Init:") || status == "Pending" || status == "PodInitializing" ||
		status == "ContainerCreating":
		return s.States[timeline.StateWaiting]
	}
	return s.Muted
}
