package export

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
)

// palette is the view's colours, taken from its styles (ui.NewStyles) so that the picture looks
// like the terminal: the dark-background variant of each adaptive colour, on a dark background.
type palette struct {
	background, text, muted, faint, title string
	states                                map[timeline.LaneState]string
	markers                               map[timeline.MilestoneKind]string
	bold                                  map[timeline.MilestoneKind]bool
	failed, markerFailed, warning, info   string
}

// newPalette reads the colours of the view's styles. A renderer without a terminal is enough:
// the styles keep the colours they were given whatever the renderer's profile.
func newPalette() palette {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	st := ui.NewStyles(r)
	p := palette{background: "#1B1D23", text: "#D7DAE0"}
	p.muted, p.faint, p.title = colorOf(st.Muted, p.text), colorOf(st.Faint, p.text), colorOf(st.Title, p.text)
	p.failed, p.markerFailed = colorOf(st.Failed, p.text), colorOf(st.MarkerFailed, p.text)
	p.warning, p.info = colorOf(st.Warning, p.text), colorOf(st.Info, p.text)
	p.states = map[timeline.LaneState]string{}
	for k, s := range st.States {
		p.states[k] = colorOf(s, p.text)
	}
	p.markers, p.bold = map[timeline.MilestoneKind]string{}, map[timeline.MilestoneKind]bool{}
	for k, s := range st.Markers {
		p.markers[k], p.bold[k] = colorOf(s, p.text), s.GetBold()
	}
	return p
}

// colorOf is the style's foreground for a dark background, or def when it has none.
func colorOf(s lipgloss.Style, def string) string {
	switch c := s.GetForeground().(type) {
	case lipgloss.AdaptiveColor:
		return c.Dark
	case lipgloss.Color:
		return string(c)
	case lipgloss.CompleteAdaptiveColor:
		return c.Dark.TrueColor
	}
	return def
}

// stateOpacity stands for the view's shading of a lane from pending to ready (· ░ ▒ ▓ █): the
// further a container is, the more solid its lane.
var stateOpacity = map[timeline.LaneState]float64{
	timeline.StatePending:     0.25,
	timeline.StateWaiting:     0.45,
	timeline.StateRunning:     0.6,
	timeline.StateStarted:     0.8,
	timeline.StateReady:       1,
	timeline.StateTerminating: 0.7,
	timeline.StateTerminated:  0.5,
}
