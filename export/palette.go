package export

import (
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// palette is the view's colours (package present) as a picture uses them: the dark-background
// variant of each, on a dark background, so that the picture looks like the terminal.
type palette struct {
	background, text, muted, faint, title string
	states                                map[timeline.LaneState]string
	markers                               map[timeline.MilestoneKind]string
	bold                                  map[timeline.MilestoneKind]bool
	failed                                string
}

// newPalette reads the colours of the looks of every kind and state.
func newPalette() palette {
	p := palette{background: present.Background, text: present.Text}
	hex := func(l present.Look) string {
		if c := present.DarkHex(l.Color); c != "" {
			return c
		}
		return p.text
	}
	p.muted, p.faint, p.title = present.DarkHex(present.Muted), present.DarkHex(present.Faint), present.DarkHex(present.Accent)
	p.failed = hex(present.Failed)
	p.states = map[timeline.LaneState]string{}
	for k, l := range present.States {
		p.states[k] = hex(l)
	}
	p.markers, p.bold = map[timeline.MilestoneKind]string{}, map[timeline.MilestoneKind]bool{}
	for k, l := range present.Kinds {
		p.markers[k], p.bold[k] = hex(l), l.Bold
	}
	return p
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
