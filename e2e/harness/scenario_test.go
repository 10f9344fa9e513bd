//go:build e2e

package harness

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestPointsOf: a Repeat's points are those of every run whose start was logged before the run
// settled, with the preStop, SIGTERM and exit of those whose exit was logged before then too.
func TestPointsOf(t *testing.T) {
	run := func(start, exit time.Duration) []Line {
		return []Line{{At: at(start), Text: "c start"}, {At: at(start + ms(500)), Text: "c prestop start"},
			{At: at(exit), Text: "c got TERM"}, {At: at(exit), Text: "c exiting"}}
	}
	r := &Run{
		Truth: logs(map[string]map[int][]Line{"c": {
			0: run(ms(1000), ms(3000)),
			1: run(ms(10000), ms(17000)), // exits after the run settled (16 s)
			2: run(ms(18000), ms(19000)), // starts after it
		}}),
		Record: &Record{Ended: at(ms(20000))},
	}
	sc := Scenario{
		Points:  []Point{startPt("app", 0)},
		Repeats: []Repeat{{Container: "c", Exit: "c exiting", PreStop: true, Term: true}},
	}
	want := []Point{
		startPt("app", 0),
		startPt("c", 0), preStopPt("c", 0), pt("c", timeline.MSigterm, 0, "c got TERM", After), exitPt("c", 0, "c exiting"),
		{Container: "c", Kind: timeline.MRestart, Attempt: 1, Line: "c start", Stamp: After},
	}
	if diff := cmp.Diff(sc.PointsOf(r), want); diff != "" {
		t.Errorf("PointsOf (-got +want):\n%s", diff)
	}
}

// TestScenariosDistinct: every scenario has its own test, namespace prefix and manifest name
// (two may share a manifest only if nothing else differs, which none does).
func TestScenariosDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, sc := range All() {
		for _, key := range []string{"test " + sc.Test, "name " + sc.Name, "manifest " + sc.Manifest} {
			if prev, ok := seen[key]; ok {
				t.Errorf("%s: %s is also %s's", sc.Test, key, prev)
			}
			seen[key] = sc.Test
		}
		if sc.Target == "" || sc.PodPrefix == "" || sc.Timeout == 0 || sc.Title == "" {
			t.Errorf("%s: incomplete: %+v", sc.Test, sc)
		}
	}
	if n := len(All()); n != 37 {
		t.Errorf("%d scenarios, want the suite's 37", n)
	}
}
