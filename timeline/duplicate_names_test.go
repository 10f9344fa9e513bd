package timeline_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// renamed is obs with container from renamed to, in the pod's statuses and in the Events about
// it: a hand-edited or hostile object can name two containers alike, as the API never lets it.
func renamed(obs []timeline.Observation, from, to string) []timeline.Observation {
	out := slices.Clone(obs)
	for k, o := range out {
		switch {
		case o.Pod != nil:
			p := *o.Pod
			p.Containers = slices.Clone(p.Containers)
			for i := range p.Containers {
				if p.Containers[i].Name == from {
					p.Containers[i].Name = to
				}
			}
			out[k].Pod = &p
		case o.Event != nil && o.Event.Container == from:
			e := *o.Event
			e.Container, e.FieldPath = to, strings.ReplaceAll(e.FieldPath, "{"+from+"}", "{"+to+"}")
			out[k].Event = &e
		}
	}
	return out
}

// TestContainersOfOneName: an init sidecar and an app container of the same name keep a lane
// each, with the runs and Events of their own (the Events tell them apart by the list their
// field path names), and a note says so; merged, the sidecar's lane vanished into the app's.
func TestContainersOfOneName(t *testing.T) {
	base := observationsOf(t, "crashing-sidecar")
	want := finalOf(base).Pods.At(0)
	s := finalOf(renamed(base, "app", "sidecar"))
	p := s.Pods.At(0)
	var kinds []timeline.ContainerKind
	for _, c := range p.Containers {
		kinds = append(kinds, c.Kind)
		if c.Name != "sidecar" {
			t.Errorf("lane %q", c.Name)
		}
	}
	if !slices.Equal(kinds, []timeline.ContainerKind{timeline.KindSidecar, timeline.KindApp}) {
		t.Fatalf("lanes of kinds %v, want a sidecar and an app", kinds)
	}
	for i, c := range p.Containers {
		w := want.Containers[i]
		if got, want := c.Runs.Len(), w.Runs.Len(); got != want || c.RestartCount != w.RestartCount {
			t.Errorf("%s %s: %d runs, %d restarts; as %s: %d, %d", c.Kind, c.Name, got, c.RestartCount, w.Name, want, w.RestartCount)
		}
		if got, want := len(c.Milestones()), len(w.Milestones()); got != want {
			t.Errorf("%s %s: %d milestones, as %s %d", c.Kind, c.Name, got, w.Name, want)
		}
	}
	if !hasNote(s, `pod sc-e has more than one container named "sidecar"`) {
		t.Errorf("notes %q", s.Notes)
	}
}

// TestFindingsReadEachContainersOwnFacts: the finding rules read container i's spec from the
// pod's lane i, not from the first lane of its name (which also scanned every lane for each
// container: a pod of 10,000 read 10^8). An app named as the sidecar before it is not told it
// has the sidecar's restartPolicy.
func TestFindingsReadEachContainersOwnFacts(t *testing.T) {
	side := running("x", timeline.KindSidecar, 1, true, "s1")
	side.RestartPolicy = "Always"
	app := running("x", timeline.KindApp, 2, true, "a1")
	b := timeline.NewBuilder()
	b.Apply(timeline.Observation{Type: timeline.Added, Received: sec(2.5), Pod: pod("u", side, app)})
	p := b.Final().Pods.At(0)
	if len(p.Containers) != 2 {
		t.Fatalf("%d lanes", len(p.Containers))
	}
	for _, f := range p.Findings() {
		if f.ID == timeline.FindingRestartPolicyOnApp {
			t.Errorf("finding %q: the app has no restartPolicy", f.Text)
		}
	}
}
