package present

import (
	"slices"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// LegendItem is one entry of the legend.
type LegendItem struct {
	Look
	Of    ItemOf
	Kind  timeline.MilestoneKind // the kind of an OfKind item
	State timeline.LaneState     // the state of an OfState item
}

// ItemOf says what a legend item explains.
type ItemOf uint8

// What legend items explain: a milestone kind's marker, a lane state's fill, or a look of no
// kind (Failed, Inferred, LogLines).
const (
	OfKind ItemOf = iota
	OfState
	OfFailed
	OfInferred
	OfLogLines
)

// Legend lists the legend's items in their order: the view's short legend, or the full one.
func Legend(full bool) []LegendItem {
	items := []LegendItem{{Look: Failed, Of: OfFailed}, {Look: Inferred, Of: OfInferred}, {Look: LogLines, Of: OfLogLines}}
	for k, l := range Kinds {
		items = append(items, LegendItem{Look: l, Of: OfKind, Kind: k})
	}
	for s, l := range States {
		items = append(items, LegendItem{Look: l, Of: OfState, State: s})
	}
	items = slices.DeleteFunc(items, func(it LegendItem) bool {
		return it.Legend == 0 || !full && it.Legend >= LegendFull
	})
	slices.SortFunc(items, func(a, b LegendItem) int { return a.Legend - b.Legend })
	return items
}

// Glyph is the item's glyph in g.
func (g *Glyphs) Glyph(it LegendItem) string {
	switch it.Of {
	case OfState:
		return g.States[it.State]
	case OfFailed:
		return g.ExitFailed
	case OfInferred:
		return g.Inferred
	case OfLogLines:
		return g.LogLines[0]
	}
	return g.Markers[it.Kind]
}
