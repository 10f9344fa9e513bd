package ui

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/google/go-cmp/cmp"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestPaint: text written through a paint is what lipgloss renders, for a style it can split
// into what goes before and after the text, and for one it cannot (a width).
func TestPaint(t *testing.T) {
	st := colourStyles()
	for name, s := range map[string]struct {
		style lipgloss.Style
		slow  bool
	}{
		"colour":  {st.Warning, false},
		"reverse": {st.Cursor, false},
		"padded":  {st.Warning.Padding(0, 1), false},
		"wide":    {st.Warning.Width(12), true},
		"none":    {plainStyles().Warning, false},
	} {
		p := newPaint(s.style)
		if p.slow != s.slow {
			t.Errorf("%s: slow %v, want %v", name, p.slow, s.slow)
		}
		for _, text := range []string{"x", "two words", "日本 ✓"} {
			if got, want := p.render(text), s.style.Render(text); got != want {
				t.Errorf("%s: render(%q) = %q, lipgloss %q", name, text, got, want)
			}
		}
	}
}

// TestLastEvents: the newest Events of a pod and its job, merged oldest first; of two at one
// time the pod's first, as a stable sort of them all would have them.
func TestLastEvents(t *testing.T) {
	p, j := jobPod(), fixtureJob()
	p.Events = timeline.SeqOf(ev(1, "Pod/p", "", "Normal", "a", "", 1), ev(3, "Pod/p", "", "Normal", "b", "", 1),
		ev(5, "Pod/p", "", "Normal", "c", "", 1))
	j.Events = timeline.SeqOf(ev(2, "Job/j", "", "Normal", "x", "", 1), ev(3, "Job/j", "", "Normal", "y", "", 1),
		ev(6, "Job/j", "", "Normal", "z", "", 1))
	reasons := func(evs []timeline.Event) []string {
		var out []string
		for _, e := range evs {
			out = append(out, e.Reason)
		}
		return out
	}
	for n, want := range map[int][]string{
		0: nil, 1: {"z"}, 3: {"y", "c", "z"}, 4: {"b", "y", "c", "z"}, 10: {"a", "x", "b", "y", "c", "z"},
	} {
		if diff := cmp.Diff(reasons(lastEvents(p, j, n)), want); diff != "" {
			t.Errorf("lastEvents(%d) (-got +want):\n%s", n, diff)
		}
	}
	if diff := cmp.Diff(reasons(lastEvents(p, nil, 2)), []string{"b", "c"}); diff != "" {
		t.Errorf("without a job (-got +want):\n%s", diff)
	}
}
