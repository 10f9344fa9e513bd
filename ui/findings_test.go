package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestPodFindings: the view lists the pod's warnings, then the other pods' of its Job (not the
// ones the Job repeats from this pod, nor an other Job's), then the pod's infos, and reads no
// further than the lines it shows.
func TestPodFindings(t *testing.T) {
	job := &timeline.Job{Namespace: "ns", Name: "batch"}
	owner := &timeline.OwnerRef{Kind: "Job", Name: "batch"}
	pod := func(name string, owner *timeline.OwnerRef, fs ...timeline.Finding) *timeline.Pod {
		return timeline.Pod{Namespace: "ns", Name: name, Owner: owner}.WithFindings(fs)
	}
	warn := func(pod, text string) timeline.Finding {
		return timeline.Finding{Severity: timeline.SeverityWarning, Pod: pod, Text: text}
	}
	info := timeline.Finding{Severity: timeline.SeverityInfo, Pod: "a", Text: "info-a"}
	a := pod("a", owner, info, warn("a", "warn-a"))
	s := timeline.Snapshot{Pods: timeline.SeqOf([]*timeline.Pod{
		pod("b", owner, warn("b", "warn-b"), timeline.Finding{Severity: timeline.SeverityInfo, Pod: "b", Text: "info-b"}),
		a,
		pod("c", &timeline.OwnerRef{Kind: "Job", Name: "other"}, warn("c", "warn-c")),
		pod("d", owner, warn("a", "warn-d-about-a"), warn("d", "warn-d")),
	}...)}
	m := liveModel(fixture(), at(42), "uid-x7k2p", 200, 40, plainStyles())
	f := m.frameView()
	var got []string
	for _, l := range findingLines(&f, podFindings(s, a, job), "a", 10) {
		got = append(got, strings.Fields(l)[len(strings.Fields(l))-1])
	}
	if want := []string{"warn-a", "warn-b", "warn-d", "info-a"}; !slices.Equal(got, want) {
		t.Errorf("findings shown %q, want %q", got, want)
	}
	// Two lines: nothing is read past the second warning (the pod's info comes before it).
	read := 0
	fs := func(yield func(*timeline.Finding) bool) {
		for x := range podFindings(s, a, job) {
			read++
			if !yield(x) {
				return
			}
		}
	}
	if lines := findingLines(&f, fs, "a", 2); len(lines) != 2 || read != 3 {
		t.Errorf("2 lines: %d shown, %d findings read, want 2 and 3", len(lines), read)
	}
}

// TestFindingLinesCached: a finding's lines are kept for its width and the pod it is shown
// within: the same finding drawn narrower, or within another pod, is wrapped anew, and drawn
// again the same comes out the same.
func TestFindingLinesCached(t *testing.T) {
	m := liveModel(fixture(), at(42), "uid-x7k2p", 120, 40, plainStyles())
	fs := []timeline.Finding{{Severity: timeline.SeverityWarning, Pod: "a",
		Text: strings.Repeat("the sidecar held the pod NotReady ", 4)}}
	seq := func(yield func(*timeline.Finding) bool) { yield(&fs[0]) }
	wide := m.frameView()
	first := findingLines(&wide, seq, "a", 10)
	if again := findingLines(&wide, seq, "a", 10); !slices.Equal(again, first) {
		t.Errorf("drawn again:\n%q\nwant\n%q", again, first)
	}
	narrow := wide
	narrow.width = 60
	if n := findingLines(&narrow, seq, "a", 10); len(n) <= len(first) {
		t.Errorf("at width 60 the finding takes %d lines, at 120 %d: not wrapped anew", len(n), len(first))
	}
	if other := findingLines(&wide, seq, "b", 10); !strings.Contains(strings.Join(other, " "), "pod a:") ||
		strings.Contains(strings.Join(first, " "), "pod a:") {
		t.Errorf("within a: %q; within b: %q (only b's should name pod a)", first, other)
	}
}
