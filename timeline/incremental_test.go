package timeline_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestSnapshotsAreIncremental: a snapshot taken after every observation, re-deriving only what
// changed, is exactly the timeline derived once from the observations up to it; and no snapshot
// is changed by what comes after it.
//
// The crash loop also runs at 80 restarts, so that its lanes' runs fill several of the blocks
// snapshots share (timeline.Seq), and its runs change far back as well as at the end.
func TestSnapshotsAreIncremental(t *testing.T) {
	type source struct {
		name, recording string
		late            bool // each Event comes after the next pod update, not before it
	}
	sources := []source{{name: "crashing-sidecar-80-restarts", recording: "crashing-sidecar"},
		{name: "crashing-sidecar-80-restarts-as-shared", recording: "crashing-sidecar"}}
	for _, name := range recordings.Names() {
		sources = append(sources, source{name: name, recording: name}, source{name: name + "-events-late", recording: name, late: true})
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			var items []watch.Item
			switch src.name {
			case src.recording + "-80-restarts":
				items = recordingItems(t, src.recording, func(b []byte) ([]byte, error) { return synth.Restarts(80, b) })
			case src.recording + "-80-restarts-as-shared":
				// Its statuses name runs two back and its times go back: odd paths, kept under test.
				items = recordingItems(t, src.recording, func(b []byte) ([]byte, error) { return synth.RestartsAsShared(80, b) })
			default:
				f, err := recordings.Open(src.recording)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if _, items, _, err = recfile.ReadAll(f, src.recording); err != nil {
					t.Fatal(err)
				}
			}
			obs := watch.Observations(items)
			if src.late {
				obs = eventsLate(obs)
			}
			once := timeline.NewBuilder()
			for _, o := range obs {
				once.Apply(o)
			}
			b := timeline.NewBuilder()
			var snaps []timeline.Snapshot
			var dumps []string
			var evidence []string // each snapshot's milestones' evidence, which dump leaves out
			for _, o := range obs {
				b.Apply(o)
				s := b.Snapshot()
				snaps, dumps, evidence = append(snaps, s), append(dumps, dump(s)), append(evidence, dumpEvidence(t, s))
			}
			if diff := cmp.Diff(dump(once.Snapshot()), dumps[len(dumps)-1]); diff != "" {
				t.Errorf("snapshot per observation differs from one snapshot at the end (-once +incremental):\n%s", diff)
			}
			for i, s := range snaps {
				if diff := cmp.Diff(dumps[i], dump(s)); diff != "" {
					t.Fatalf("snapshot %d changed after it was taken (-then +now):\n%s", i, diff)
				}
				if diff := cmp.Diff(evidence[i], dumpEvidence(t, s)); diff != "" {
					t.Fatalf("snapshot %d's evidence changed after it was taken (-then +now):\n%s", i, diff)
				}
			}
			// And each snapshot (every few, to bound the time) is the timeline derived once from
			// the observations up to it: nothing an earlier snapshot derived is left stale.
			for i := 0; i < len(obs); i += 1 + len(obs)/150 {
				fresh := timeline.NewBuilder()
				for _, o := range obs[:i+1] {
					fresh.Apply(o)
				}
				fs := fresh.Snapshot()
				if diff := cmp.Diff(dump(fs), dumps[i]); diff != "" {
					t.Fatalf("snapshot %d differs from one derived once from the same observations (-once +incremental):\n%s", i, diff)
				}
				if diff := cmp.Diff(dumpEvidence(t, fs), evidence[i]); diff != "" {
					t.Fatalf("snapshot %d's evidence differs from that derived once from the same observations (-once +incremental):\n%s", i, diff)
				}
			}
		})
	}
}

// dumpEvidence is the evidence of every milestone of s's pod rows and containers, in JSON.
func dumpEvidence(t *testing.T, s timeline.Snapshot) string {
	t.Helper()
	var b strings.Builder
	for _, p := range s.Pods.Items() {
		for _, m := range p.Milestones.All() {
			j, err := json.Marshal(m.Evidence)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "pod %s %s\n", m.Kind, j)
		}
		for _, c := range p.Containers {
			for _, r := range c.Runs.Items() {
				for _, m := range r.Milestones {
					j, err := json.Marshal(m.Evidence)
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&b, "%s #%d %s %s\n", m.Container, m.Attempt, m.Kind, j)
				}
			}
		}
	}
	return b.String()
}

// eventsLate moves each Event observation after the pod update that follows it: what the
// timeline derived from a status must change again when the Event that refines it comes after.
func eventsLate(obs []timeline.Observation) []timeline.Observation {
	out := slices.Clone(obs)
	for i := 0; i+1 < len(out); i++ {
		if out[i].Event != nil && out[i+1].Pod != nil {
			out[i], out[i+1] = out[i+1], out[i]
			out[i].Received, out[i+1].Received = out[i+1].Received, out[i].Received // still in the order received
			i++
		}
	}
	return out
}

// TestUnchangedPodKeepsItsRuns: a pod derived again whole (its row and every lane from the first
// run on) when none of its facts changed hands out the runs it did before, the final
// (cross-lane) pass's among them, rather than equal copies.
func TestUnchangedPodKeepsItsRuns(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			b := timeline.NewBuilder()
			for _, o := range watch.Observations(recordingItems(t, name, nil)) {
				b.Apply(o)
			}
			before := b.Snapshot()
			b.ChangeAll()
			after := b.Snapshot()
			for i, p := range after.Pods.Items() {
				for j, c := range p.Containers {
					was := before.Pods.At(i).Containers[j].Runs
					for k, r := range c.Runs.Items() {
						if r != was.At(k) {
							t.Errorf("pod %s container %s attempt %d: a new run, though nothing changed", p.Name, c.Name, r.Attempt)
						}
					}
				}
			}
		})
	}
}

// TestRowNewsReachTheLanes: a pod update whose only news is on the pod row, where the row bounds
// the lanes (the pod's Initialized bounds a sidecar's started; its first and last Ready bound the
// ready of the runs then), derives the lanes' final pass again: each snapshot is the timeline
// derived once from the same observations, and the bound is there.
func TestRowNewsReachTheLanes(t *testing.T) {
	// mk is the pod with one container; conds are its conditions: type, status, transition second.
	type cond struct {
		typ, status string
		at          float64
	}
	mk := func(kind timeline.ContainerKind, started, ready bool, conds ...cond) *timeline.PodObservation {
		c := running("c", kind, 1, ready, "1")
		c.Status.Started = boolp(started)
		p := pod("a", c)
		for _, k := range conds {
			p.Conditions = append(p.Conditions, timeline.Condition{Type: k.typ, Status: k.status, LastTransition: sec(k.at)})
		}
		return p
	}
	type update struct {
		at  float64
		pod *timeline.PodObservation
	}
	side, app := timeline.KindSidecar, timeline.KindApp
	for _, tc := range []struct {
		name    string
		updates []update
		kind    timeline.MilestoneKind
		nth     int     // which of the run's milestones of that kind (0: the first)
		before  float64 // the bound: its latest is before this second
	}{
		{"initialized", []update{{3.1, mk(side, false, false)}, {5.1, mk(side, true, false)},
			{6.1, mk(side, true, false, cond{"Initialized", "True", 4})}}, timeline.MStarted, 0, 5},
		{"first ready", []update{{3.1, mk(app, true, false)}, {5.1, mk(app, true, true)},
			{6.1, mk(app, true, true, cond{"Ready", "True", 4})}}, timeline.MReady, 0, 5},
		{"last ready", []update{{3.1, mk(app, true, true, cond{"Ready", "True", 3})},
			{10.1, mk(app, true, false, cond{"Ready", "False", 10})}, {12.1, mk(app, true, true, cond{"Ready", "False", 10})},
			{13.1, mk(app, true, true, cond{"Ready", "True", 11})}}, timeline.MReady, 1, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := timeline.NewBuilder()
			var obs []timeline.Observation
			for i, u := range tc.updates {
				o := timeline.Observation{Type: timeline.Modified, Pod: u.pod, Received: sec(u.at)}
				if i == 0 {
					o.Type = timeline.Added
				}
				obs = append(obs, o)
				b.Apply(o)
				once := timeline.NewBuilder()
				for _, o := range obs {
					once.Apply(o)
				}
				if diff := cmp.Diff(dump(once.Snapshot()), dump(b.Snapshot())); diff != "" {
					t.Fatalf("after update %d (-once +incremental):\n%s", i, diff)
				}
			}
			var got []timeline.Milestone
			for _, m := range b.Snapshot().Pods.At(0).Container("c").Runs.At(0).Milestones {
				if m.Kind == tc.kind {
					got = append(got, m)
				}
			}
			if len(got) <= tc.nth {
				t.Fatalf("%d %s milestones, want at least %d", len(got), tc.kind, tc.nth+1)
			}
			if m := got[tc.nth]; !m.Latest.Before(sec(tc.before)) {
				t.Errorf("%s %v..%v: not bounded by the pod row (before second %v)", tc.kind, m.Earliest, m.Latest, tc.before)
			}
		})
	}
}
