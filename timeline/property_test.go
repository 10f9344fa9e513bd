package timeline_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestInvariantsOnRandomStreams: whatever the API says and in whatever order it arrives, every
// milestone lies in its interval (earliest ≤ at ≤ latest), every gap in its bounds, a run reads
// created, start, SIGTERM, exit in that order and after the exit of the run before (its
// back-offs between the two), started and ready between its start and its exit, and a snapshot
// per observation ends where one snapshot at the end does.
func TestInvariantsOnRandomStreams(t *testing.T) {
	for seed := range uint64(500) {
		obs := randomStream(rand.New(rand.NewPCG(seed, seed*7+1)))
		if err := checkStream(obs); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// FuzzBuilder runs the same checks on streams drawn from fuzzer-chosen seeds.
func FuzzBuilder(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42} {
		f.Add(s, s+1)
	}
	f.Fuzz(func(t *testing.T, a, b uint64) {
		if err := checkStream(randomStream(rand.New(rand.NewPCG(a, b)))); err != nil {
			t.Fatal(err)
		}
	})
}

func checkStream(obs []timeline.Observation) error {
	inc, once := timeline.NewBuilder(), timeline.NewBuilder()
	var last timeline.Snapshot
	for _, o := range obs {
		inc.Apply(o)
		once.Apply(o)
		last = inc.Snapshot()
		if err := checkSnapshot(last); err != nil {
			return err
		}
	}
	if a, b := dump(last), dump(once.Snapshot()); a != b {
		return fmt.Errorf("a snapshot per observation ends elsewhere than one at the end:\n%s\n----\n%s", a, b)
	}
	return nil
}

func checkSnapshot(s timeline.Snapshot) error {
	for _, p := range s.Pods.Items() {
		for _, r := range p.Rows() {
			m := r.Milestone
			if !m.Earliest.IsZero() && !m.Latest.IsZero() && m.Latest.Before(m.Earliest) ||
				!m.Earliest.IsZero() && m.At.Before(m.Earliest) || !m.Latest.IsZero() && m.At.After(m.Latest) {
				return fmt.Errorf("%s %s #%d: at %v outside [%v, %v]", m.Container, m.Kind, m.Attempt, m.At, m.Earliest, m.Latest)
			}
			if g := r.Gap; g != nil && (g.Value < g.Min || g.Value > g.Max) {
				return fmt.Errorf("%s %s #%d: gap %+v", m.Container, m.Kind, m.Attempt, *g)
			}
		}
		for _, g := range p.Gaps {
			if g.Span.Value < g.Span.Min || g.Span.Value > g.Span.Max {
				return fmt.Errorf("gap %s: %+v", g.Name, g.Span)
			}
		}
		for ci := range p.Containers {
			c := &p.Containers[ci]
			var prevExit *timeline.Milestone
			for _, r := range c.Runs.Items() {
				s := c.Find(timeline.MStart, r.Attempt)
				if s == nil {
					s = c.Find(timeline.MRestart, r.Attempt)
				}
				term, exit := c.Find(timeline.MSigterm, r.Attempt), c.Find(timeline.MExit, r.Attempt)
				created := c.Find(timeline.MCreated, r.Attempt)
				started, ready := c.Find(timeline.MStarted, r.Attempt), c.Find(timeline.MReady, r.Attempt)
				backOff := c.Find(timeline.MBackOff, r.Attempt)
				for _, pair := range [][2]*timeline.Milestone{{s, term}, {term, exit}, {s, exit}, {prevExit, s}, {created, s}, {prevExit, created},
					{s, started}, {s, ready}, {started, exit}, {ready, exit}, {prevExit, backOff}, {backOff, s}} {
					if a, b := pair[0], pair[1]; a != nil && b != nil && b.At.Before(a.At) {
						return fmt.Errorf("%s: %s #%d at %v after %s #%d at %v", c.Name, a.Kind, a.Attempt, a.At, b.Kind, b.Attempt, b.At)
					}
				}
				if exit != nil {
					prevExit = exit
				}
			}
		}
	}
	return nil
}

// randomStream is the watch of one pod with random containers, whose runs start, become ready,
// stop and restart at random, with Events that come with whole-second or exact times, before
// or after the status that explains them, and a deletion at some point.
func randomStream(r *rand.Rand) []timeline.Observation {
	t0 := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	now := t0.Add(time.Duration(r.IntN(500)) * time.Millisecond)
	step := func() time.Time {
		now = now.Add(time.Duration(r.IntN(2500)) * time.Millisecond)
		return now
	}
	kinds := []timeline.ContainerKind{timeline.KindInit, timeline.KindSidecar, timeline.KindApp}
	odd := r.IntN(8) == 0 // times and counts no kubelet would write
	created := t0
	if odd && r.IntN(2) == 0 {
		created = time.Time{}
	}
	n := 1 + r.IntN(4)
	specs := make([]timeline.ContainerObservation, n)
	for i := range specs {
		specs[i] = timeline.ContainerObservation{Name: fmt.Sprintf("c%d", i), Kind: kinds[r.IntN(len(kinds))],
			HasStartupProbe: r.IntN(3) == 0, HasPreStop: r.IntN(3) == 0, HasPostStart: r.IntN(4) == 0}
	}
	type run struct {
		attempt            int32
		id                 string
		started, finished  time.Time
		backedOff          time.Time // its exit, or the last back-off after it
		ready, startedFlag bool
	}
	runs := make([]*run, n)
	var last []timeline.ContainerObservation
	var obs []timeline.Observation
	grace := int64(1 + r.IntN(30))
	var deletion *time.Time
	evN := 0
	event := func(c int, reason, msg string, at time.Time) {
		evN++
		e := &timeline.EventObservation{UID: fmt.Sprint("ev", evN), Namespace: "ns", Name: fmt.Sprint("p.", evN),
			InvolvedKind: "Pod", InvolvedName: "p", InvolvedUID: "uid", Container: specs[c].Name,
			ContainerKind: specs[c].Kind, Reason: reason, Message: msg, Count: 1,
			First: at.Truncate(time.Second), Last: at.Truncate(time.Second)}
		if r.IntN(2) == 0 {
			e.NameTime = at
		}
		if specs[c].Kind == timeline.KindSidecar {
			e.ContainerKind = timeline.KindInit
		}
		obs = append(obs, timeline.Observation{Received: at.Add(time.Duration(r.IntN(50)) * time.Millisecond), Type: timeline.Added, Event: e})
	}
	podObs := func(typ timeline.WatchType) {
		p := &timeline.PodObservation{UID: "uid", Namespace: "ns", Name: "p", Created: created, GracePeriod: grace,
			RestartPolicy: "Always", Phase: "Running", Status: "Running", Deletion: deletion, DeletionGrace: &grace}
		p.Containers = append([]timeline.ContainerObservation(nil), last...)
		obs = append(obs, timeline.Observation{Received: now, Type: typ, Pod: p})
	}
	status := func() {
		last = make([]timeline.ContainerObservation, n)
		for i, rn := range runs {
			c := specs[i]
			if rn == nil {
				c.Status = &timeline.ContainerStatus{Waiting: &timeline.Waiting{Reason: "PodInitializing"}}
			} else {
				st := &timeline.ContainerStatus{ContainerID: rn.id, RestartCount: rn.attempt, Ready: rn.ready, Started: &rn.startedFlag}
				if odd && r.IntN(5) == 0 {
					st.RestartCount = -1 - rn.attempt
				}
				startedAt := rn.started.Truncate(time.Second)
				if odd && r.IntN(4) == 0 {
					startedAt = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
				}
				if rn.finished.IsZero() {
					st.Running = &timeline.Running{ContainerID: rn.id, StartedAt: startedAt}
				} else {
					st.Terminated = &timeline.Terminated{ContainerID: rn.id, ExitCode: int32(r.IntN(2)) * 137,
						StartedAt: startedAt, FinishedAt: rn.finished.Truncate(time.Second)}
				}
				c.Status = st
			}
			last[i] = c
		}
	}
	status()
	podObs(timeline.Added)
	for range 5 + r.IntN(30) {
		i := r.IntN(n)
		rn := runs[i]
		switch {
		case rn == nil || (!rn.finished.IsZero() && r.IntN(2) == 0):
			a := int32(0)
			if rn != nil {
				a = rn.attempt + 1
			}
			at := step()
			made := at.Add(-time.Duration(r.IntN(300)) * time.Millisecond)
			if rn != nil && made.Before(rn.backedOff) {
				made = rn.backedOff // the kubelet creates a container again only after it exited and backed off
			}
			event(i, "Created", "Container created", made)
			runs[i] = &run{attempt: a, id: fmt.Sprint("id", i, "-", a), started: at}
			if r.IntN(2) == 0 {
				event(i, "Started", "Started container", at.Add(time.Duration(r.IntN(30))*time.Millisecond))
			}
		case rn.finished.IsZero() && r.IntN(3) == 0:
			at := step()
			msg := "Stopping container " + specs[i].Name
			if r.IntN(2) == 0 {
				msg = "Container " + specs[i].Name + " failed liveness probe, will be restarted"
			}
			event(i, "Killing", msg, at)
			rn.finished = step()
			rn.backedOff = rn.finished
		case rn.finished.IsZero():
			step()
			rn.startedFlag, rn.ready = true, r.IntN(4) != 0
		default:
			rn.backedOff = step()
			event(i, "BackOff", "Back-off restarting failed container", rn.backedOff)
		}
		if deletion == nil && r.IntN(12) == 0 {
			d := step().Add(time.Duration(grace) * time.Second)
			deletion = &d
		}
		status()
		step()
		podObs(timeline.Modified)
	}
	if r.IntN(3) == 0 {
		podObs(timeline.Deleted)
	}
	// Events can arrive before the status that explains them, but receive times never go back.
	sortByReceived(obs)
	return obs
}

func sortByReceived(obs []timeline.Observation) {
	for i := 1; i < len(obs); i++ {
		for j := i; j > 0 && obs[j].Received.Before(obs[j-1].Received); j-- {
			obs[j], obs[j-1] = obs[j-1], obs[j]
		}
	}
}
