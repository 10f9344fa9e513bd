package timeline_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestPodListIncremental: a snapshot's pod list, kept from snapshot to snapshot (only the pods
// that changed, or whose place did, are looked at), is the list a builder given the same
// observations at once makes: for pods arriving out of creation order (into the middle of the
// list, across the blocks a Seq keeps), pods whose creation time changes (the list is sorted
// again), and pods changed by an Event or a status. A pod nothing happened to since the last
// snapshot is the same *Pod; and no snapshot changes after it was taken.
func TestPodListIncremental(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed-", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			b := timeline.NewBuilder()
			var obs []timeline.Observation
			var snaps []timeline.Snapshot
			var dumps []string
			created := map[string]float64{}
			var names []string
			lastObs := 0 // the observations the last snapshot followed
			at := 100.0
			for step := range 400 {
				at += 0.01
				var o timeline.Observation
				switch op := r.IntN(10); {
				case op < 3 || len(names) == 0: // a new pod, made at any time so far
					name := fmt.Sprintf("p%03d", len(names))
					names = append(names, name)
					created[name] = float64(r.IntN(60))
					o = timeline.Observation{Pod: podNamed(name, created[name])}
				case op < 4: // a pod's creation time changes: the list is sorted again
					name := names[r.IntN(len(names))]
					created[name] = float64(r.IntN(60))
					o = timeline.Observation{Pod: podNamed(name, created[name])}
				case op < 7: // a pod's container started
					name := names[r.IntN(len(names))]
					p := podNamed(name, created[name])
					p.Containers = []timeline.ContainerObservation{running("app", timeline.KindApp, created[name]+1, r.IntN(2) == 0, "c-"+name)}
					o = timeline.Observation{Pod: p}
				default: // an Event about a pod
					name := names[r.IntN(len(names))]
					e := killing("uid-"+name, "app", "containers", created[name]+2+float64(step)/100)
					e.UID, e.InvolvedName, e.Name = fmt.Sprintf("ev-%d", step), name, name+".x"
					o = timeline.Observation{Event: e}
				}
				o.Received, o.Type = sec(at), timeline.Modified
				obs = append(obs, o)
				b.Apply(o)
				if r.IntN(3) > 0 {
					continue
				}
				s := b.Snapshot()
				if len(snaps)%2 == 1 {
					// Every other snapshot, to bound the time: each costs a builder fed from nothing.
					snaps, dumps, lastObs = append(snaps, s), append(dumps, dump(s)), len(obs)
					continue
				}
				fresh := timeline.NewBuilder()
				for _, o := range obs {
					fresh.Apply(o)
				}
				if diff := cmp.Diff(podsOnly(dump(fresh.Snapshot())), podsOnly(dump(s))); diff != "" {
					t.Fatalf("step %d: the pod list kept from snapshot to snapshot differs from one made at once (-once +kept):\n%s", step, diff)
				}
				if len(snaps) > 0 {
					checkShared(t, step, snaps[len(snaps)-1], s, obs[lastObs:])
				}
				snaps, dumps, lastObs = append(snaps, s), append(dumps, dump(s)), len(obs)
			}
			if len(names) <= 64 {
				t.Fatalf("only %d pods: the list should fill several blocks", len(names))
			}
			for i, s := range snaps {
				if diff := cmp.Diff(dumps[i], dump(s)); diff != "" {
					t.Fatalf("snapshot %d changed after it was taken (-then +now):\n%s", i, diff)
				}
			}
		})
	}
}

// podsOnly is a dump without its last line, the notes: a note on the data (a start before the
// pod was created, left out) stays once made, even when a later creation time makes it moot,
// while a builder given everything at once sees only the last.
func podsOnly(d string) string {
	if i := strings.LastIndex(d, "events "); i >= 0 {
		return d[:i]
	}
	return d
}

// podNamed is a pod of that name (and UID uid-name) made at created seconds.
func podNamed(name string, created float64) *timeline.PodObservation {
	p := pod("uid-" + name)
	p.Name, p.Created = name, sec(created)
	return p
}

// checkShared: a pod that no observation since the last snapshot was about is the same *Pod in
// the new one.
func checkShared(t *testing.T, step int, last, s timeline.Snapshot, since []timeline.Observation) {
	t.Helper()
	touched := map[string]bool{}
	for _, o := range since {
		switch {
		case o.Pod != nil:
			touched[o.Pod.UID] = true
		case o.Event != nil:
			touched[o.Event.InvolvedUID] = true
		}
	}
	before := map[string]*timeline.Pod{}
	for _, p := range last.Pods.Items() {
		before[p.UID] = p
	}
	for _, p := range s.Pods.Items() {
		if old := before[p.UID]; old != nil && !touched[p.UID] && old != p {
			t.Fatalf("step %d: pod %s was derived again, though nothing happened to it", step, p.Name)
		}
	}
}
