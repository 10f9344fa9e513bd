package ui

import (
	"time"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The view decides which of a pod's times it places on the time axis. A time that is missing
// (zero), or absurd (a recording's item stamped 1970 or 2099, a pod without creationTimestamp),
// would stretch the axis over years, squash everything real into one column and make every
// offset meaningless; it is kept off the axis instead, and the status line says so.

// maxSkew is how far outside a pod's life a time may lie and still be placed on its axis: clocks
// disagree by seconds, a kubelet's Events may trail by minutes, nothing real is a day off.
const maxSkew = 24 * time.Hour

// earliestCreation is before any Kubernetes cluster ran: a creation time before it is a zero
// or epoch stamp, not a time.
var earliestCreation = time.Date(2014, 1, 1, 0, 0, 0, 0, time.UTC)

// podTimes are the times the view places a pod's timeline by.
type podTimes struct {
	// origin is where the axis and the offsets start: the pod's creation, or, when that is
	// missing or absurd, when the pod was first seen.
	origin time.Time
	// noCreation says the pod's creation time is missing or absurd, so offsets are from when
	// it was first seen, not from the timeline's.
	noCreation bool
	// lo and hi bound the times that are placed: a day around the pod's life as seen.
	lo, hi time.Time
}

// newPodTimes works out the times of pod p from its creation and when it was seen.
func newPodTimes(p *timeline.Pod) podTimes {
	first := p.LastSeen // the receive time of an observation: the local clock, never absurd
	if len(p.Statuses) > 0 && !p.Statuses[0].At.IsZero() {
		first = p.Statuses[0].At
	}
	pt := podTimes{origin: p.Created}
	if p.Created.IsZero() || p.Created.Before(earliestCreation) ||
		(!first.IsZero() && p.Created.After(first.Add(maxSkew))) {
		if !first.IsZero() {
			pt.origin, pt.noCreation = first, true
		}
	}
	last := pt.origin
	if p.LastSeen.After(last) {
		last = p.LastSeen
	}
	pt.lo, pt.hi = pt.origin.Add(-maxSkew), last.Add(maxSkew)
	return pt
}

// timesFrom are the times of a view with no pod: from origin, placing what lies within a day
// of origin and last.
func timesFrom(origin, last time.Time) podTimes {
	if last.Before(origin) {
		last = origin
	}
	return podTimes{origin: origin, lo: origin.Add(-maxSkew), hi: last.Add(maxSkew)}
}

// placed reports whether t is a time the axis shows: within a day of the pod's life.
func (pt podTimes) placed(t time.Time) bool { return !t.Before(pt.lo) && !t.After(pt.hi) }

// offset is m's offset from the origin: the timeline's own, from the pod's creation, unless the
// pod has no creation time to count from.
func (pt podTimes) offset(m *timeline.Milestone) timeline.Span {
	if !pt.noCreation {
		return m.Offset
	}
	s := timeline.Span{Value: m.At.Sub(pt.origin), Min: m.Earliest.Sub(pt.origin), Max: m.Latest.Sub(pt.origin)}
	if m.Earliest.IsZero() {
		s.Min = s.Value
	}
	if m.Latest.IsZero() {
		s.Max = s.Value
	}
	return s
}

// offAxis counts pod p's milestones the axis does not place. It reads them where they are,
// without putting them in order as Rows does.
func (pt podTimes) offAxis(p *timeline.Pod) int {
	n := 0
	for _, m := range p.Milestones.All() {
		if !pt.placed(m.At) {
			n++
		}
	}
	for i := range p.Containers {
		for _, r := range p.Containers[i].Runs.Items() {
			for j := range r.Milestones {
				if !pt.placed(r.Milestones[j].At) {
					n++
				}
			}
		}
	}
	return n
}

// rowCount is len(p.Rows()), without making the rows: a pod's own milestones and its lanes'.
func rowCount(p *timeline.Pod) int {
	n := p.Milestones.Len()
	for i := range p.Containers {
		for _, r := range p.Containers[i].Runs.Items() {
			n += len(r.Milestones)
		}
	}
	return n
}

// liveEnd is the latest time the pod's lanes reach: now, or the last sign of a deleted pod;
// never past the times placed unless now is trusted (this machine's clock, live).
func (pt podTimes) liveEnd(p *timeline.Pod, now time.Time, trustNow bool) time.Time {
	end := now
	if p.Deleted {
		end = p.LastSeen
		for _, m := range p.Milestones.All() {
			if m.At.After(end) && pt.placed(m.At) {
				end = m.At
			}
		}
		if !now.IsZero() && now.Before(end) {
			end = now
		}
	}
	if end.After(pt.hi) && (p.Deleted || !trustNow) {
		end = pt.hi
	}
	if end.Before(pt.origin) {
		end = pt.origin
	}
	return end
}

// fmtAt is where time t lies for the table and the Events: its offset from the origin,
// or, for a time the axis does not place, its date (or "no time" when it is missing).
func (pt podTimes) fmtAt(t time.Time) string {
	switch {
	case t.IsZero():
		return "no time"
	case !pt.placed(t):
		return t.UTC().Format("2006-01-02")
	}
	return textfmt.Signed(t.Sub(pt.origin))
}
