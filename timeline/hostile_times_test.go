package timeline_test

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

var year9999 = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)

// withStatus is obs with f applied to every status of container name.
func withStatus(obs []timeline.Observation, name string, f func(st *timeline.ContainerStatus)) []timeline.Observation {
	out := slices.Clone(obs)
	for k, o := range out {
		if o.Pod == nil {
			continue
		}
		p := *o.Pod
		p.Containers = slices.Clone(p.Containers)
		for i := range p.Containers {
			if c := &p.Containers[i]; c.Name == name && c.Status != nil {
				st := *c.Status
				f(&st)
				c.Status = &st
			}
		}
		out[k].Pod = &p
	}
	return out
}

func finalOf(obs []timeline.Observation) timeline.Snapshot {
	b := timeline.NewBuilder()
	for _, o := range obs {
		b.Apply(o)
	}
	return b.Final()
}

// saturated reports whether a span's value or a bound is where a Duration saturates.
func saturated(s timeline.Span) bool {
	for _, d := range []time.Duration{s.Value, s.Min, s.Max} {
		if d == math.MinInt64 || d == math.MaxInt64 {
			return true
		}
	}
	return false
}

// overflows reports whether a span's value saturates, or its min or max where it is bounded.
func overflows(s timeline.Span, minBounded, maxBounded bool) bool {
	sat := func(d time.Duration) bool { return d == math.MinInt64 || d == math.MaxInt64 }
	return sat(s.Value) || minBounded && sat(s.Min) || maxBounded && sat(s.Max)
}

func hasNote(s timeline.Snapshot, part string) bool {
	return slices.ContainsFunc(s.Notes, func(n string) bool { return strings.Contains(n, part) })
}

// TestStartInYear9999: a sidecar whose status says it started in year 9999, while it was seen
// running in 2026, has no such start: the time is left out (a note says so), the start is placed
// when the run was seen, and the gap from it to started is a few hundred milliseconds, not a
// saturated -292 years that any `gap(...) < 1s` would pass on.
func TestStartInYear9999(t *testing.T) {
	obs := withStatus(observationsOf(t, "crashing-sidecar"), "sidecar", func(st *timeline.ContainerStatus) {
		if st.Running != nil {
			st.Running.StartedAt = year9999
		}
		if st.Terminated != nil {
			st.Terminated.StartedAt = year9999
		}
	})
	s := finalOf(obs)
	p := s.Pods.At(0)
	var found bool
	for _, g := range p.Gaps {
		if saturated(g.Span) || g.Span.Value < 0 || g.Span.Value > time.Minute {
			t.Errorf("gap %s: %+v", g.Name, g.Span)
		}
		found = found || g.Name == "sidecar start → sidecar started"
	}
	if !found {
		t.Errorf("no gap sidecar start → sidecar started: %+v (unknown: %+v)", p.Gaps, p.UnknownGaps)
	}
	for _, r := range p.Rows() {
		if r.Milestone.At.Year() > 2026 {
			t.Errorf("%s %s at %v", r.Lane, r.Milestone.Kind, r.Milestone.At)
		}
	}
	if !hasNote(s, "a start or finish time more than a day after its status was received was left out") {
		t.Errorf("notes %q", s.Notes)
	}
}

// TestGapWithAbsurdEndIsUnknown: when an end of a gap lies where no time of the pod can (a
// sidecar seen started in an update received in year 9999, or two days before the pod was
// made: the receive clock of a recording is what it says), the gap is unknown: not among the
// gaps, listed with why, and noted.
func TestGapWithAbsurdEndIsUnknown(t *testing.T) {
	up := running("side", timeline.KindSidecar, 1, false, "s1")
	up.Status.Started = boolp(false)
	started := running("side", timeline.KindSidecar, 1, true, "s1")
	const name = "side start → side started"
	for _, tc := range []struct {
		name, why string
		obs       []timeline.Observation
	}{
		{"last", "its span is more than a duration holds", []timeline.Observation{
			{Type: timeline.Added, Received: sec(1.5), Pod: pod("u", up)},
			{Type: timeline.Modified, Received: year9999, Pod: pod("u", started)},
		}},
		{"two days back", "side started lies more than a day outside the pod's life", []timeline.Observation{
			{Type: timeline.Added, Received: sec(1.5), Pod: pod("u", up)},
			{Type: timeline.Modified, Received: sec(3).Add(-48 * time.Hour), Pod: pod("u", started)},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := finalOf(tc.obs)
			p := s.Pods.At(0)
			for _, g := range p.Gaps {
				if saturated(g.Span) || g.Name == name {
					t.Errorf("gap %s: %+v", g.Name, g.Span)
				}
			}
			k := slices.IndexFunc(p.UnknownGaps, func(g timeline.UnknownGap) bool { return g.Name == name })
			if k < 0 || !strings.Contains(p.UnknownGaps[k].Why, tc.why) {
				t.Fatalf("unknown gaps %+v: want %q, why %q", p.UnknownGaps, name, tc.why)
			}
			if note := `gap "` + name + `" is unknown: ` + p.UnknownGaps[k].Why; !hasNote(s, note) {
				t.Errorf("notes %q: want %q", s.Notes, note)
			}
		})
	}
}

// TestStatusesInOrderWhenTheClockGoesBack: receive times that go back (a recording's are what it
// says) leave the pod's STATUS changes in time order, each no earlier than the one before, so
// that no stretch between two has a negative length (Perfetto's slices had five).
func TestStatusesInOrderWhenTheClockGoesBack(t *testing.T) {
	obs := slices.Clone(observationsOf(t, "crashing-sidecar"))
	for i := range obs {
		if i%3 == 2 {
			obs[i].Received = obs[i].Received.Add(-24 * time.Hour)
		}
	}
	s := finalOf(obs)
	p := s.Pods.At(0)
	if len(p.Statuses) < 3 {
		t.Fatalf("statuses %+v", p.Statuses)
	}
	for i := 1; i < len(p.Statuses); i++ {
		if p.Statuses[i].At.Before(p.Statuses[i-1].At) {
			t.Errorf("status %d %q at %v, before %q at %v", i, p.Statuses[i].Status, p.Statuses[i].At,
				p.Statuses[i-1].Status, p.Statuses[i-1].At)
		}
	}
	for _, c := range p.Containers {
		for _, g := range c.Segments() {
			if !g.To.IsZero() && g.To.Before(g.From) {
				t.Errorf("%s %s from %v to %v", c.Name, g.State, g.From, g.To)
			}
		}
	}
	if !hasNote(s, "the receive clock went back") {
		t.Errorf("notes %q", s.Notes)
	}
}

// TestAbsurdAPITimesLeftOut: an Event's time, a condition's lastTransitionTime, a deletion
// time, a log line's or the kubelet's stamp, or a creationTimestamp that is no time of the pod
// (year 1, year 9999) is left out with a note: every milestone then lies within a day of the
// pod's life, no span saturates, and the timeline is written as JSON (a time past year 9999
// is not: an Event in 9999 made its milestone's latest 10000-01-01, and -o json failed).
func TestAbsurdAPITimesLeftOut(t *testing.T) {
	year1 := time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC)
	events := func(at time.Time) func([]timeline.Observation) []timeline.Observation {
		return func(obs []timeline.Observation) []timeline.Observation {
			for i, o := range obs {
				if e := o.Event; e != nil && e.Container == "sidecar" {
					c := *e
					c.First, c.Last, c.EventTime, c.NameTime = at, at, time.Time{}, time.Time{}
					obs[i].Event = &c
				}
			}
			return obs
		}
	}
	pods := func(f func(p *timeline.PodObservation)) func([]timeline.Observation) []timeline.Observation {
		return func(obs []timeline.Observation) []timeline.Observation {
			for i, o := range obs {
				if o.Pod != nil {
					p := *o.Pod
					p.Conditions = slices.Clone(p.Conditions)
					f(&p)
					obs[i].Pod = &p
				}
			}
			return obs
		}
	}
	conditions := func(at time.Time) func([]timeline.Observation) []timeline.Observation {
		return pods(func(p *timeline.PodObservation) {
			for i := range p.Conditions {
				p.Conditions[i].LastTransition = at
			}
		})
	}
	logs := func(at time.Time) func([]timeline.Observation) []timeline.Observation {
		return func(obs []timeline.Observation) []timeline.Observation {
			last := obs[len(obs)-1].Received
			return append(obs,
				timeline.Observation{Received: last, Log: &timeline.LogObservation{Namespace: "sc-e", Pod: "sc-e",
					Container: "sidecar", Attempt: 0, Lines: []timeline.LogLine{{At: at, Len: 3, Mark: "ready", Text: "up"}}}},
				timeline.Observation{Received: last, Kubelet: &timeline.KubeletObservation{At: at, Namespace: "sc-e",
					Pod: "sc-e", Container: "app", ContainerID: "x", GracePeriod: 5}})
		}
	}
	for _, tc := range []struct {
		name, note string
		change     func([]timeline.Observation) []timeline.Observation
	}{
		{"Event in 9999", "an Event's time more than a day", events(year9999)},
		{"Event in year 1", "an Event's time more than a day", events(year1)},
		{"condition in 9999", "a condition's lastTransitionTime more than a day", conditions(year9999)},
		{"condition in year 1", "a condition's lastTransitionTime more than a day", conditions(year1)},
		{"deletion in 9999", "a deletion time more than a day", pods(func(p *timeline.PodObservation) {
			d, grace := year9999, int64(5)
			p.Deletion, p.DeletionGrace = &d, &grace
		})},
		{"created in year 1", "has no usable creationTimestamp", pods(func(p *timeline.PodObservation) { p.Created = year1 })},
		{"log and kubelet in 9999", "log or kubelet lines stamped more than a day", logs(year9999)},
		{"log and kubelet in year 1", "log or kubelet lines stamped more than a day", logs(year1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := finalOf(tc.change(slices.Clone(observationsOf(t, "crashing-sidecar"))))
			p := s.Pods.At(0)
			lo, hi := p.Created.Add(-timeline.MaxClockSkew), p.LastSeen.Add(timeline.MaxClockSkew)
			for _, r := range p.Rows() {
				m := r.Milestone
				for _, at := range []time.Time{m.At, m.Earliest, m.Latest} {
					if !at.IsZero() && (at.Before(lo) || at.After(hi)) {
						t.Errorf("%s %s #%d at %v [%v, %v]", r.Lane, m.Kind, m.Attempt, m.At, m.Earliest, m.Latest)
						break
					}
				}
				// A bound that is zero is none: the span's end on that side is unbounded.
				if overflows(m.Offset, !m.Earliest.IsZero(), !m.Latest.IsZero()) || r.Gap != nil && overflows(*r.Gap, false, false) {
					t.Errorf("%s %s #%d: offset %+v, gap %+v", r.Lane, m.Kind, m.Attempt, m.Offset, r.Gap)
				}
			}
			if _, err := json.Marshal(timeline.NewDocument("sc-e", "pod/sc-e", s)); err != nil {
				t.Error(err)
			}
			if !hasNote(s, tc.note) {
				t.Errorf("notes %q: none says %q", s.Notes, tc.note)
			}
		})
	}
}

// TestGracePeriodsOutOfRange: a grace period of more seconds than a Duration holds (the API's
// int64 can say 2^63-1), or below zero, is read as the longest period there is, or none: never
// as the negative or absurd period it wrapped around to ("grace period -1s").
func TestGracePeriodsOutOfRange(t *testing.T) {
	for _, g := range []int64{math.MaxInt64, 1 << 40, -1, math.MinInt64} {
		obs := slices.Clone(observationsOf(t, "crashing-sidecar"))
		for i, o := range obs {
			if o.Pod != nil {
				p := *o.Pod
				grace, deletion := g, o.Received.Add(time.Second)
				p.GracePeriod, p.DeletionGrace, p.Deletion = g, &grace, &deletion
				obs[i].Pod = &p
			}
		}
		p := finalOf(obs).Pods.At(0)
		var texts []string
		for _, r := range p.Rows() {
			texts = append(texts, r.Milestone.Message)
		}
		for _, gap := range p.Gaps {
			texts = append(texts, gap.Why)
		}
		for _, f := range p.Findings() {
			texts = append(texts, f.Text)
		}
		for _, s := range texts {
			if strings.Contains(s, "grace period -") || strings.Contains(s, "grace period of -") {
				t.Errorf("grace %d: %q", g, s)
			}
		}
	}
}

// TestStatusesAfterAReceiveTimeIn9999: one update received in year 9999 (a recording's times
// are what it says) does not drag the STATUS changes after it there: it is brought back to the
// next sane one, and the list stays in time order.
func TestStatusesAfterAReceiveTimeIn9999(t *testing.T) {
	obs := slices.Clone(observationsOf(t, "crashing-sidecar"))
	k := len(obs) / 2
	for obs[k].Pod == nil {
		k++
	}
	obs[k].Received = year9999
	p := finalOf(obs).Pods.At(0)
	for i, st := range p.Statuses {
		if st.At.Year() > 2026 || i > 0 && st.At.Before(p.Statuses[i-1].At) {
			t.Errorf("status %d %q at %v", i, st.Status, st.At)
		}
	}
}
