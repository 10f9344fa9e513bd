package ui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// Styles are every style the view uses, built once from one lipgloss.Renderer. The renderer
// decides the colour profile: with termenv.Ascii nothing is styled at all, which is how the
// no-colour mode and the golden tests work, and why glyphs alone must tell states apart.
type Styles struct {
	Glyphs present.Glyphs

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
		Glyphs:      present.UnicodeGlyphs(),
		Title:       fg(present.Accent).Bold(true),
		Text:        r.NewStyle().Bold(true),
		Muted:       fg(present.Muted),
		Faint:       fg(present.Faint),
		Selected:    r.NewStyle().Bold(true).Reverse(true),
		TableHeader: fg(present.Muted).Bold(true),
		Highlight:   r.NewStyle().Bold(true),
		Cursor:      r.NewStyle().Reverse(true),
		Warning:     fg(present.Orange).Bold(true),
		Error:       fg(present.Red).Bold(true),
		Info:        fg(present.Cyan),
		Inferred:    fg(present.Magenta).Italic(true),
		Status:      fg(present.Yellow),
		Failed:      fg(present.Red),

		MarkerFailed: fg(present.Red).Bold(true),
		Spinner:      fg(present.Accent),
	}
	s.Markers = make(map[timeline.MilestoneKind]lipgloss.Style, len(present.Kinds))
	for k, l := range present.Kinds {
		s.Markers[k] = look(r, l)
	}
	s.States = make(map[timeline.LaneState]lipgloss.Style, len(present.States))
	for st, l := range present.States {
		s.States[st] = look(r, l)
	}
	s.InferredMarkers = make(map[timeline.MilestoneKind]lipgloss.Style, len(s.Markers))
	for k, st := range s.Markers {
		s.InferredMarkers[k] = st.Bold(false).Faint(true).Italic(true)
	}
	key, desc, sep := fg(present.Muted).Bold(true), fg(present.Muted), fg(present.Faint)
	s.Help = help.Styles{
		Ellipsis: sep, ShortKey: key, ShortDesc: desc, ShortSeparator: sep,
		FullKey: key, FullDesc: desc, FullSeparator: sep,
	}
	return s
}

// legendStyle is the style of a legend item: its marker's or its state's.
func (s Styles) legendStyle(it present.LegendItem) lipgloss.Style {
	switch it.Of {
	case present.OfState:
		return s.States[it.State]
	case present.OfFailed:
		return s.MarkerFailed
	case present.OfInferred:
		return s.InferredMarkers[timeline.MSigterm]
	case present.OfLogLines:
		return s.States[timeline.StateReady]
	}
	return s.Markers[it.Kind]
}

// look is the style of a kind's or a state's look.
func look(r *lipgloss.Renderer, l present.Look) lipgloss.Style {
	return r.NewStyle().Foreground(l.Color).Bold(l.Bold)
}

// badReason reports whether a termination or waiting reason means something went wrong.
func badReason(r string) bool {
	return r != "" && r != "Completed" && r != "ContainerCreating" && r != "PodInitializing"
}

// statusStyle colours kubectl's STATUS text by what it means (present.StatusOf).
func (s Styles) statusStyle(status string) lipgloss.Style {
	state, failed, ok := present.StatusOf(status)
	switch {
	case failed:
		return s.Failed
	case ok:
		return s.States[state]
	}
	return s.Muted
}
