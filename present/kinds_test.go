package present

import (
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestEveryKindIsPresented ranges over the registry of kinds: each has a look with a glyph in
// both sets, a label and a marker rank, and the looks name no kind the registry lacks.
func TestEveryKindIsPresented(t *testing.T) {
	for _, k := range timeline.Kinds() {
		l, ok := Kinds[k.Kind]
		switch {
		case !ok:
			t.Errorf("kind %q has no look in present.Kinds", k.Kind)
		case l.Unicode == "" || l.ASCII == "" || l.Label == "" || l.Color == nil || l.MarkerRank <= 0:
			t.Errorf("kind %q: incomplete look %+v", k.Kind, l)
		}
	}
	for k := range Kinds {
		if _, ok := timeline.InfoOf(k); !ok {
			t.Errorf("present.Kinds has %q, which timeline.Kinds does not declare", k)
		}
	}
	for _, s := range LaneStates {
		if l, ok := States[s]; !ok || l.Unicode == "" || l.ASCII == "" || l.Label == "" {
			t.Errorf("lane state %q has no complete look: %+v", s, l)
		}
	}
	if len(States) != len(LaneStates) {
		t.Errorf("%d states have looks, %d are listed", len(States), len(LaneStates))
	}
}

// TestGlyphs checks that every glyph of each set is one cell wide, the ASCII set's printable
// ASCII, and that the lane states, and the kinds of one row, each have their own.
func TestGlyphs(t *testing.T) {
	for name, g := range map[string]Glyphs{"unicode": UnicodeGlyphs(), "ascii": ASCIIGlyphs()} {
		all := []string{g.ExitFailed, g.Inferred, g.Condition, g.PodFill, g.Tick, g.Cursor, g.Selected,
			g.Restarts, g.LogLines[0], g.LogLines[1], g.unknown}
		seen := map[string]timeline.LaneState{}
		for _, s := range LaneStates {
			gl := g.States[s]
			if other, dup := seen[gl]; dup {
				t.Errorf("%s: states %s and %s share %q", name, s, other, gl)
			}
			seen[gl], all = s, append(all, gl)
		}
		for _, scope := range []timeline.Scope{timeline.ScopeContainer, timeline.ScopePod} {
			kinds := map[string]timeline.MilestoneKind{}
			for _, k := range timeline.Kinds() {
				gl := g.Markers[k.Kind]
				if other, dup := kinds[gl]; dup && k.On(scope) && k.Kind != timeline.MPhase {
					t.Errorf("%s: kinds %s and %s of one row share %q", name, k.Kind, other, gl)
				}
				if k.On(scope) {
					kinds[gl] = k.Kind
				}
				all = append(all, gl)
			}
		}
		for _, c := range g.Conditions {
			all = append(all, c)
		}
		for _, gl := range all {
			if lipgloss.Width(gl) != 1 || len([]rune(gl)) != 1 {
				t.Errorf("%s: glyph %q is not one cell", name, gl)
			}
			if name == "ascii" && (len(gl) != 1 || gl[0] < ' ' || gl[0] > '~') {
				t.Errorf("ascii: glyph %q is not printable ASCII", gl)
			}
		}
	}
}

// TestMarkerOfEveryKind draws a milestone of each kind: none falls back to the unknown dot.
func TestMarkerOfEveryKind(t *testing.T) {
	for name, g := range map[string]Glyphs{"unicode": UnicodeGlyphs(), "ascii": ASCIIGlyphs()} {
		for _, k := range timeline.Kinds() {
			m := timeline.Milestone{Kind: k.Kind, Source: timeline.SourceStatus}
			if got := g.Marker(&m); got == g.unknown {
				t.Errorf("%s: %s is drawn as the unknown kind's %q", name, k.Kind, got)
			}
		}
	}
}

// TestKindNamesArePlain: the names the registry gives are printable ASCII, so the view measures
// them by their length.
func TestKindNamesArePlain(t *testing.T) {
	for _, k := range timeline.Kinds() {
		for _, s := range []string{string(k.Kind), k.Display, k.Assert} {
			for i := 0; i < len(s); i++ {
				if s[i] < ' ' || s[i] > '~' {
					t.Errorf("kind %q: name %q is not printable ASCII", k.Kind, s)
				}
			}
		}
	}
}

// TestLegend: the short legend is a part of the full one, in the same order, and names every
// lane state.
func TestLegend(t *testing.T) {
	short, full := Legend(false), Legend(true)
	if len(short) >= len(full) {
		t.Fatalf("short legend has %d items, full %d", len(short), len(full))
	}
	for i, it := range short {
		if full[i].Label != it.Label {
			t.Errorf("item %d: short %q, full %q", i, it.Label, full[i].Label)
		}
	}
	states := 0
	for _, it := range short {
		if it.Of == OfState {
			states++
		}
	}
	if states != len(LaneStates) {
		t.Errorf("short legend names %d lane states, want %d", states, len(LaneStates))
	}
}
