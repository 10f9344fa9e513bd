package ui

import (
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
