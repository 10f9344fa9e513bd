package play

import (
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestNothingChangedNoFrame: what changes no row asks for no frame. A live scope gets such
// observations all the time: its Events expire (the API server sends their deletion an hour
// after they were made), and three of four pods of -A are hidden; each was taken as a change,
// and had the view derive a snapshot and hand the table a frame for nothing. What does change a
// row (a new Event, a hidden pod's coming or going: the count of hidden pods) still does.
func TestNothingChangedNoFrame(t *testing.T) {
	e := NewEngine()
	e.Hide(func(p *timeline.PodObservation) bool { return strings.HasPrefix(p.UID, "plain") })
	for _, o := range append(podAs("shown", 0, 5), podAs("plain", 0, 5)[0]) {
		e.Apply(o)
	}
	e.Snapshot()
	hidden := podAs("plain", 0, 5)
	gone := eventAbout("shown", 3)
	gone.Type = timeline.Deleted
	for name, o := range map[string]timeline.Observation{
		"an Event's deletion":            gone,
		"a hidden pod's update":          hidden[1],
		"an Event about a hidden pod":    eventAbout("plain", 3),
		"a later update of a hidden pod": hidden[4],
	} {
		e.Apply(o)
		if e.Changed() {
			t.Errorf("%s: the engine says it changed: a frame, and a table remade, for nothing", name)
			e.Snapshot()
		}
	}
	for name, o := range map[string]timeline.Observation{
		"a new Event":                eventAbout("shown", 3),
		"a shown pod's update":       podAs("shown", 0, 0)[5],
		"a hidden pod's deletion":    deleted(hidden[4]),
		"a new hidden pod (counted)": podAs("plain-2", 0, 1)[0],
	} {
		e.Apply(o)
		if !e.Changed() {
			t.Errorf("%s: the engine says nothing changed", name)
		}
		e.Snapshot()
	}
	if n := e.Snapshot().Hidden; n != 1 {
		t.Errorf("hidden pods counted: %d, want 1 (plain-2; plain was deleted)", n)
	}
}

// deleted is o as the watch's deletion of its pod.
func deleted(o timeline.Observation) timeline.Observation {
	o.Type = timeline.Deleted
	return o
}
