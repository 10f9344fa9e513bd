package ui

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/fleet"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestFleetHiddenCounted: a run that keeps pods without a sidecar as a count only
// (play.Engine.Hide) shows the header a run that keeps them whole shows, hidden pods counted.
func TestFleetHiddenCounted(t *testing.T) {
	plain := &timeline.PodObservation{UID: "plain-1", Namespace: "web", Name: "web-1", Created: at(0), Phase: "Running",
		Containers: []timeline.ContainerObservation{{Name: "web", Kind: timeline.KindApp}}}
	header := func(hide bool) string {
		e := play.NewEngine()
		if hide {
			e.Hide(fleet.WithoutSidecar)
		}
		for _, name := range recordings.Names() {
			for _, o := range readRecording(t, name) {
				e.Apply(o)
			}
		}
		e.Apply(timeline.Observation{Received: at(1), Type: timeline.Added, Pod: plain})
		m := NewModel(Config{Target: "all namespaces", Mode: Live, Fleet: true, SidecarsOnly: true, Styles: plainStyles()})
		m = resize(m, 200, 20)
		next, _ := m.Update(FrameMsg(play.Frame{Snapshot: e.Snapshot(), Now: at(1)}))
		for _, l := range strings.Split(next.(Model).View(), "\n") {
			if strings.Contains(l, " pods · ") {
				return l
			}
		}
		t.Fatalf("no counts line:\n%s", next.(Model).View())
		return ""
	}
	kept, hidden := header(false), header(true)
	if kept != hidden || !strings.Contains(hidden, "1 without a sidecar hidden") {
		t.Errorf("counts with the pod only counted:\n%s\nwith it kept whole:\n%s", hidden, kept)
	}
}

// TestFleetForgottenCounted: a run that lets go of finished pods (play.Engine.Retain,
// --keep-finished) counts those the API still has in the header as a run that kept them does,
// and says how many it let go of; their rows are gone.
func TestFleetForgottenCounted(t *testing.T) {
	view := func(forget bool) (counts string, rows int, forgotten int) {
		e := play.NewEngine()
		e.Retain(0)
		for _, name := range recordings.Names() {
			for _, o := range readRecording(t, name) {
				e.Apply(o)
			}
		}
		if forget {
			e.FinishedIn(e.Snapshot(), at(0))
			e.Sweep(at(0))
		}
		s := e.Snapshot()
		m := NewModel(Config{Target: "all namespaces", Mode: Live, Fleet: true, Styles: plainStyles()})
		m = resize(m, 200, 20)
		next, _ := m.Update(FrameMsg(play.Frame{Snapshot: s, Now: at(1)}))
		for _, l := range strings.Split(next.(Model).View(), "\n") {
			if strings.Contains(l, " pods · ") {
				return l, s.Pods.Len(), s.Forgotten
			}
		}
		t.Fatalf("no counts line:\n%s", next.(Model).View())
		return "", 0, 0
	}
	kept, all, _ := view(false)
	counts, left, forgotten := view(true)
	if forgotten == 0 || left >= all {
		t.Fatalf("no recording's pod was let go of while the API had it: %d of %d pods left, %d forgotten", left, all, forgotten)
	}
	pods := func(l string) string { return l[:strings.Index(l, " pods ")] }
	if pods(counts) != strconv.Itoa(left+forgotten) || !strings.Contains(counts, fmt.Sprintf(" · %d finished, past --keep-finished", forgotten)) {
		t.Errorf("counts with %d pods let go of:\n%s\nwith them kept:\n%s", forgotten, counts, kept)
	}
}
