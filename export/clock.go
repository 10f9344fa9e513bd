package export

import (
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// The exports place times as the view does (ui/times.go): a time that is missing or absurd (a
// pod without creationTimestamp, an item stamped 1970) would stretch an axis over years, so it is
// kept off the axis. A pod's times are placed from its creation (or, when that is absurd, from
// when it was first seen) to a day past when it was last seen.

// maxSkew is how far outside a pod's life a time may lie and still be placed.
const maxSkew = 24 * time.Hour

// earliestCreation is before any Kubernetes cluster ran: a creation before it is no time.
var earliestCreation = time.Date(2014, 1, 1, 0, 0, 0, 0, time.UTC)

// span is the stretch of time a pod or a job covers, and the times it places.
type span struct {
	origin, end time.Time // the lanes' beginning and end
	lo, hi      time.Time // times outside [lo, hi] are absurd, not placed
}

// placed reports whether t is a time to draw.
func (s span) placed(t time.Time) bool { return !t.IsZero() && !t.Before(s.lo) && !t.After(s.hi) }

// podSpan is pod p's stretch of time: from its creation to the latest placed time it holds
// (its last observation, a lane's end, a milestone).
func podSpan(p *timeline.Pod) span {
	first := p.LastSeen
	if len(p.Statuses) > 0 && !p.Statuses[0].At.IsZero() {
		first = p.Statuses[0].At
	}
	s := span{origin: p.Created}
	if p.Created.IsZero() || p.Created.Before(earliestCreation) || (!first.IsZero() && p.Created.After(first.Add(maxSkew))) {
		s.origin = first
	}
	last := s.origin
	if p.LastSeen.After(last) {
		last = p.LastSeen
	}
	s.lo, s.hi = s.origin.Add(-maxSkew), last.Add(maxSkew)
	s.end = last
	extend := func(t time.Time) {
		if s.placed(t) && t.After(s.end) {
			s.end = t
		}
	}
	for _, m := range p.Milestones.All() {
		extend(m.At)
	}
	for i := range p.Containers {
		c := &p.Containers[i]
		extend(c.End)
		for _, r := range c.Runs.Items() {
			for j := range r.Milestones {
				extend(r.Milestones[j].At)
			}
		}
	}
	return s
}

// jobSpan is job j's stretch of time: from its creation to its last milestone.
func jobSpan(j *timeline.Job) span {
	s := span{origin: j.Created, end: j.Created}
	s.lo, s.hi = s.origin.Add(-maxSkew), s.origin.Add(maxSkew)
	for _, m := range j.Milestones {
		if s.placed(m.At) && m.At.After(s.end) {
			s.hi = m.At.Add(maxSkew)
			s.end = m.At
		}
	}
	return s
}

// snapshotSpan is the stretch of time of every pod and job of s together.
func snapshotSpan(s timeline.Snapshot) span {
	var all span
	add := func(x span) {
		if x.origin.IsZero() {
			return
		}
		if all.origin.IsZero() || x.origin.Before(all.origin) {
			all.origin, all.lo = x.origin, x.lo
		}
		if x.end.After(all.end) {
			all.end, all.hi = x.end, x.hi
		}
	}
	for _, p := range s.Pods.Items() {
		add(podSpan(p))
	}
	for _, j := range s.Jobs {
		add(jobSpan(j))
	}
	if all.end.Sub(all.origin) < time.Second {
		all.end = all.origin.Add(time.Second)
	}
	return all
}

// segmentEnd is where segment g ends: its To, or, while it is open, the end of the pod's span.
func segmentEnd(g timeline.Segment, s span) time.Time {
	if !g.To.IsZero() {
		return g.To
	}
	if g.From.After(s.end) {
		return g.From
	}
	return s.end
}

// statusSegments are the pod's STATUS changes as stretches: each to the next, the last to end.
type statusSegment struct {
	Status   string
	From, To time.Time
}

func statusSegments(p *timeline.Pod, s span) []statusSegment {
	var out []statusSegment
	for _, st := range p.Statuses {
		if !s.placed(st.At) {
			continue
		}
		if n := len(out); n > 0 {
			if out[n-1].Status == st.Status {
				continue
			}
			out[n-1].To = st.At
		}
		out = append(out, statusSegment{Status: st.Status, From: st.At})
	}
	if n := len(out); n > 0 {
		out[n-1].To = s.end
		if out[n-1].To.Before(out[n-1].From) {
			out[n-1].To = out[n-1].From
		}
	}
	return out
}
