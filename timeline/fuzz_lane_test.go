package timeline_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// FuzzLaneUpdates feeds the builder a sequence of updates of one container, as a recording or
// a server can carry them: restart counts that flap, jump to the largest int32 and back, or go
// below zero; container IDs that come back; start and finish times in 1970, before the pod,
// in year 9999; receive times that go backwards; a second container of the same name; Events,
// logs and a deletion among them. FuzzBuilder draws whole pods of independent containers that
// a kubelet could have written; this one holds one lane to what only a hostile source writes,
// update after update. Whatever comes,
// the builder must not panic, a snapshot per update must end where one at the end does, and
// what it hands out must be sane (checkHostile).
func FuzzLaneUpdates(f *testing.F) {
	f.Add([]byte{0, 7, 1, 0, 1, 0, 2, 1, 3, 7, 1, 2, 0, 0, 2, 2})                         // flapping to 2^31-1
	f.Add([]byte{0, 4, 1, 0, 0, 5, 1, 1, 4, 4, 2, 2, 5, 0, 1, 3, 4, 5, 3, 3})             // going back, lastState
	f.Add([]byte{0, 0, 3, 0, 1, 0, 4, 0, 0, 1, 5, 5, 6, 2, 2, 2, 7, 0, 0, 0})             // absurd times
	f.Add([]byte{5, 0, 0, 0, 5, 1, 0, 1, 0, 9, 0, 1, 2, 9, 6, 1, 6, 7, 0, 1, 7, 1, 1, 1}) // Events first
	f.Fuzz(func(t *testing.T, data []byte) {
		obs := laneUpdates(data)
		inc, once := timeline.NewBuilder(), timeline.NewBuilder()
		var last timeline.Snapshot
		var latest time.Time
		for _, o := range obs {
			inc.Apply(o)
			once.Apply(o)
			last = inc.Snapshot()
			if o.Pod != nil && o.Received.After(latest) {
				latest = o.Received
			}
			if err := checkHostile(last, latest); err != nil {
				t.Fatal(err)
			}
		}
		// Notes say what was wrong with the data when it was derived: a pod derived at each
		// update may have been wrong in a way the end mends (a creation that moved), so the
		// snapshots along the way say all the one at the end says, and maybe more.
		end := once.Snapshot()
		if a, b := dump(withNotes(last, nil)), dump(withNotes(end, nil)); a != b {
			t.Fatalf("a snapshot per update ends elsewhere than one at the end:\n%s\n----\n%s", a, b)
		}
		for _, n := range end.Notes {
			if !slices.Contains(last.Notes, n) {
				t.Fatalf("note %q at the end, not along the way: %q", n, last.Notes)
			}
		}
	})
}

func withNotes(s timeline.Snapshot, notes []string) timeline.Snapshot {
	s.Notes = notes
	return s
}

// checkHostile is what must hold of a snapshot however absurd its input: a milestone within
// its bounds, attempts that are attempts, restart counts in range, a lane's stretches and the
// pod's statuses in time order, gaps between times of the pod only (from its creation to the
// latest time it was seen, latest), and the whole as JSON.
func checkHostile(s timeline.Snapshot, latest time.Time) error {
	for _, p := range s.Pods.Items() {
		for _, r := range p.Rows() {
			m := r.Milestone
			if !m.Earliest.IsZero() && !m.Latest.IsZero() && m.Latest.Before(m.Earliest) ||
				!m.Earliest.IsZero() && m.At.Before(m.Earliest) || !m.Latest.IsZero() && m.At.After(m.Latest) {
				return fmt.Errorf("%s %s #%d: at %v outside [%v, %v]", m.Container, m.Kind, m.Attempt, m.At, m.Earliest, m.Latest)
			}
			if m.Attempt < 0 || m.Attempt == math.MaxInt32 {
				return fmt.Errorf("%s %s: attempt %d", m.Container, m.Kind, m.Attempt)
			}
		}
		for i := 1; i < len(p.Statuses); i++ {
			if p.Statuses[i].At.Before(p.Statuses[i-1].At) {
				return fmt.Errorf("status %q at %v before %q at %v", p.Statuses[i].Status, p.Statuses[i].At,
					p.Statuses[i-1].Status, p.Statuses[i-1].At)
			}
		}
		for ci := range p.Containers {
			c := &p.Containers[ci]
			if c.RestartCount < 0 || c.RestartCount > timeline.MaxRestartCount {
				return fmt.Errorf("%s: restart count %d", c.Name, c.RestartCount)
			}
			for _, g := range c.Segments() {
				if !g.To.IsZero() && g.To.Before(g.From) {
					return fmt.Errorf("%s: %s from %v to %v", c.Name, g.State, g.From, g.To)
				}
			}
		}
		for _, g := range p.Gaps {
			from, to := p.Find(g.From.Container, g.From.Kind, g.From.Attempt), p.Find(g.To.Container, g.To.Kind, g.To.Attempt)
			if from == nil || to == nil || overflows(g.Span, false, false) {
				return fmt.Errorf("gap %s: %+v", g.Name, g.Span)
			}
			lo, hi := p.Created.Add(-timeline.MaxClockSkew), latest.Add(timeline.MaxClockSkew)
			for _, m := range []*timeline.Milestone{from, to} {
				if m.At.Before(lo) || m.At.After(hi) {
					return fmt.Errorf("gap %s: %s %s at %v, the pod's life [%v, %v]", g.Name, m.Container, m.Kind, m.At, lo, hi)
				}
			}
		}
		_ = p.Findings()
	}
	if _, err := json.Marshal(timeline.NewDocument("ns", "pod/p", s)); err != nil {
		return fmt.Errorf("json: %w", err)
	}
	return nil
}

// laneUpdates reads data as the updates of a pod with a sidecar "side" and an app, four bytes an
// update: what happens, the restart count, the times, and whose container it is.
func laneUpdates(data []byte) []timeline.Observation {
	t0 := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	u := &laneFuzz{now: t0.Add(300 * time.Millisecond), created: t0}
	app := timeline.ContainerObservation{Name: "app", Kind: timeline.KindApp, Status: &timeline.ContainerStatus{
		Waiting: &timeline.Waiting{Reason: "PodInitializing"}}}
	for len(data) >= 4 && len(u.obs) < 200 {
		op, cb, tb, ib := data[0], data[1], data[2], data[3]
		data = data[4:]
		u.step(tb)
		side := timeline.ContainerObservation{Name: "side", Kind: timeline.KindSidecar, RestartPolicy: "Always"}
		st := &timeline.ContainerStatus{RestartCount: u.count(cb), ContainerID: u.id(ib), Ready: ib&0x10 != 0, Started: boolp(ib&0x20 != 0)}
		switch op % 10 {
		case 0, 1:
			st.Running = &timeline.Running{ContainerID: st.ContainerID, StartedAt: u.at(tb >> 4)}
		case 2:
			st.Terminated = u.terminated(st.ContainerID, tb, ib)
		case 3:
			st.Waiting = &timeline.Waiting{Reason: "CrashLoopBackOff"}
			st.LastTerminated = u.terminated(u.id(ib>>2), tb, ib)
		case 4:
			st.Running = &timeline.Running{ContainerID: st.ContainerID, StartedAt: u.at(tb >> 4)}
			st.LastTerminated = u.terminated(u.id(ib>>2), tb, ib)
		case 5, 6:
			u.event(op, tb, ib)
			continue
		case 7:
			u.log(st.RestartCount, st.ContainerID, tb, ib)
			continue
		case 8:
			if u.deletion == nil {
				d := u.now.Add(time.Duration(ib) * time.Second)
				u.deletion = &d
			}
		case 9:
			st.Waiting = &timeline.Waiting{Reason: "ContainerCreating"}
		}
		if op >= 200 {
			u.created = u.at(cb) // a creation that moves
		}
		side.Status = st
		if ib&0xc0 == 0xc0 {
			app.Status = &timeline.ContainerStatus{ContainerID: "app-1", Started: boolp(true),
				Running: &timeline.Running{ContainerID: "app-1", StartedAt: u.at(ib)}}
		}
		other := app
		if op >= 100 && op < 200 {
			other.Name = "side" // two containers of one name, as no API server allows
		}
		u.pod(side, other, op%10 == 8 && ib&1 == 1)
	}
	return u.obs
}

// laneFuzz is the state laneUpdates keeps between updates.
type laneFuzz struct {
	obs      []timeline.Observation
	now      time.Time // the receive time of the next observation
	created  time.Time
	deletion *time.Time
	last     int32 // the last restart count given
	events   int
}

// step moves the receive clock: mostly on by up to 2.5 s, sometimes back, or by a day or a year.
func (u *laneFuzz) step(b byte) {
	switch b & 7 {
	case 5:
		u.now = u.now.Add(-time.Duration(b) * 10 * time.Millisecond)
	case 6:
		u.now = u.now.Add([...]time.Duration{-24 * time.Hour, 24 * time.Hour, 365 * 24 * time.Hour, -time.Hour}[b>>3&3])
	default:
		u.now = u.now.Add(time.Duration(b) * 10 * time.Millisecond)
	}
}

// count is the restart count b selects: near the last one given, or at the ends of int32's range.
func (u *laneFuzz) count(b byte) int32 {
	c := [...]int32{0, u.last, u.last + 1, u.last - 1, 1, 2, -1, math.MaxInt32, math.MaxInt32 - 1, math.MinInt32,
		timeline.MaxRestartCount, timeline.MaxRestartCount + 1, int32(b >> 4)}[int(b&0xf)%13]
	u.last = c
	return c
}

// id is the container ID b selects: one of a few, so that runs come back, or none.
func (u *laneFuzz) id(b byte) string {
	if b&3 == 3 {
		return ""
	}
	return fmt.Sprint("side-", b&3)
}

// at is an API time (whole seconds) b selects: about now, a little before, or absurd.
func (u *laneFuzz) at(b byte) time.Time {
	now := u.now.Truncate(time.Second)
	switch b & 0xf {
	case 0, 1, 2, 3:
		return now.Add(-time.Duration(b&3) * time.Second)
	case 4:
		return time.Time{}
	case 5:
		return time.Unix(0, 0).UTC()
	case 6:
		return time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	case 7:
		return time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC)
	case 8:
		return u.created.Add(-48 * time.Hour)
	case 9:
		return now.Add(30 * 24 * time.Hour)
	}
	return now.Add(-time.Duration(b&0xf) * time.Minute)
}

func (u *laneFuzz) terminated(id string, tb, ib byte) *timeline.Terminated {
	return &timeline.Terminated{ContainerID: id, ExitCode: int32(ib>>4) - 1, Reason: "Error",
		StartedAt: u.at(tb >> 4), FinishedAt: u.at(tb>>2 ^ ib)}
}

func (u *laneFuzz) event(op, tb, ib byte) {
	u.events++
	reasons := [...]string{"Created", "Started", "Killing", "BackOff", "Unhealthy", "Pulled"}
	at := u.at(tb >> 4)
	e := &timeline.EventObservation{UID: fmt.Sprint("ev", u.events%(1+int(ib&3))), Namespace: "ns", Name: fmt.Sprint("p.", u.events),
		InvolvedKind: "Pod", InvolvedName: "p", InvolvedUID: "uid", Container: "side", ContainerKind: timeline.KindInit,
		Reason: reasons[int(ib>>2)%len(reasons)], Message: "Startup probe failed: timeout", Count: u.count(op) % 4,
		First: at, Last: at}
	if ib&0x80 != 0 {
		e.NameTime = u.now.Add(-time.Duration(tb) * time.Millisecond)
	}
	u.obs = append(u.obs, timeline.Observation{Received: u.now, Type: timeline.Added, Event: e})
}

func (u *laneFuzz) log(attempt int32, id string, tb, ib byte) {
	o := &timeline.LogObservation{Namespace: "ns", Pod: "p", PodUID: "uid", Container: "side", ContainerID: id,
		Attempt: attempt, FromStart: ib&1 == 1, End: ib&2 == 2,
		Lines: []timeline.LogLine{{At: u.at(tb >> 4).Add(time.Duration(ib) * time.Millisecond), Len: 10}}}
	u.obs = append(u.obs, timeline.Observation{Received: u.now, Log: o})
}

func (u *laneFuzz) pod(side, app timeline.ContainerObservation, deleted bool) {
	grace := int64(5)
	p := &timeline.PodObservation{UID: "uid", Namespace: "ns", Name: "p", Created: u.created, GracePeriod: grace,
		RestartPolicy: "Always", Phase: "Running", Status: fmt.Sprint("S", side.Status.RestartCount&3),
		Deletion: u.deletion, DeletionGrace: &grace, Containers: []timeline.ContainerObservation{side, app}}
	typ := timeline.Modified
	if len(u.obs) == 0 {
		typ = timeline.Added
	}
	if deleted {
		typ = timeline.Deleted
	}
	u.obs = append(u.obs, timeline.Observation{Received: u.now, Type: typ, Pod: p})
}
