package ui

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// ink is what a cell of a lane is drawn with. It is comparable, so that a run of cells alike is
// written at once, and cheap to make: nothing is formatted per cell.
type ink struct {
	what     inkKind
	state    timeline.LaneState     // inkState
	kind     timeline.MilestoneKind // inkMarker
	bad      bool                   // a terminated state with a bad reason; a failed milestone
	inferred bool                   // inkMarker
	text     string                 // inkStatus: the STATUS text
	named    styleName              // inkNamed
}

type inkKind uint8

const (
	inkNone inkKind = iota
	inkState
	inkMarker
	inkFill
	inkStatus
	inkNamed // one of the Styles by name
)

// styleName names one of the Styles, to write text in it through a cached paint.
type styleName uint8

const (
	sTitle styleName = iota
	sText
	sMuted
	sFaint
	sSelected
	sTableHeader
	sHighlight
	sCursor
	sWarning
	sError
	sInfo
	sInferred
	sStatus
	sFailed
)

func (n styleName) of(st *Styles) lipgloss.Style {
	switch n {
	case sTitle:
		return st.Title
	case sText:
		return st.Text
	case sMuted:
		return st.Muted
	case sFaint:
		return st.Faint
	case sSelected:
		return st.Selected
	case sTableHeader:
		return st.TableHeader
	case sHighlight:
		return st.Highlight
	case sCursor:
		return st.Cursor
	case sWarning:
		return st.Warning
	case sError:
		return st.Error
	case sInfo:
		return st.Info
	case sInferred:
		return st.Inferred
	case sStatus:
		return st.Status
	case sFailed:
		return st.Failed
	}
	return lipgloss.Style{}
}

// style is the lipgloss style of ink k.
func (k ink) style(st *Styles) lipgloss.Style {
	switch k.what {
	case inkState:
		if k.state == timeline.StateTerminated && k.bad {
			return st.Failed
		}
		return st.States[k.state]
	case inkMarker:
		if k.bad && !k.inferred {
			return st.MarkerFailed
		}
		set := st.Markers
		if k.inferred {
			set = st.InferredMarkers
		}
		if s, ok := set[k.kind]; ok {
			return s
		}
		return st.Muted
	case inkFill:
		return st.Faint
	case inkStatus:
		return st.statusStyle(k.text)
	case inkNamed:
		return k.named.of(st)
	}
	return lipgloss.Style{}
}

func stateInk(s *timeline.Segment) ink {
	return ink{what: inkState, state: s.State, bad: s.State == timeline.StateTerminated && badReason(s.Reason)}
}

func markerInk(m *timeline.Milestone) ink {
	return ink{what: inkMarker, kind: m.Kind, bad: m.Failed(), inferred: m.Source == timeline.SourceInferred}
}
