package timeline

import (
	"math"
	"time"
)

// Times that are no time of a pod. Every time the API carries (a container's start and finish,
// an Event's, a condition's, the deletion's) and every stamp of a log is what its source wrote:
// a recording or a server can say year 1, 1970 or 9999. A time more than MaxClockSkew before
// the pod was made, or after the observation that brought it was received, is none of the pod's
// times: it is left out, with a note, and what it would have placed is placed by when it was
// seen. A time a day off is kept (clocks disagree, and a bound that contradicts another is
// dropped as skew); a time centuries off would saturate every span it entered.

// MaxClockSkew is how far before a pod's creation, or after it was seen, a time of the pod may
// lie and still be read.
const MaxClockSkew = 24 * time.Hour

// earliestCreation is before any Kubernetes cluster ran: a creationTimestamp before it is no time.
var earliestCreation = time.Date(2014, 1, 1, 0, 0, 0, 0, time.UTC)

// tooEarly reports whether t (zero: none) lies more than MaxClockSkew before created.
func tooEarly(t, created time.Time) bool {
	return !t.IsZero() && !created.IsZero() && t.Before(created.Add(-MaxClockSkew))
}

// tooLate reports whether t (zero: none) lies more than MaxClockSkew after received, the receive
// time of what said it.
func tooLate(t, received time.Time) bool {
	return !t.IsZero() && !received.IsZero() && t.After(received.Add(MaxClockSkew))
}

// outOfLife is tooEarly or tooLate.
func outOfLife(t, created, received time.Time) bool {
	return tooEarly(t, created) || tooLate(t, received)
}

// oddTimes says which of a pod's sources gave a time out of its life (see outOfLife), for notes.
type oddTimes uint8

const (
	oddEventTime oddTimes = 1 << iota
	oddConditionTime
	oddLogTime
)

// oddTimeNotes are the notes of oddTimes, in the order of its bits.
var oddTimeNotes = [...]string{
	"an Event's time more than a day before the pod was created or after it was received was left out: it is placed when it was received",
	"a condition's lastTransitionTime more than a day before the pod was created or after it was seen was left out: it is placed when it was seen",
	"log or kubelet lines stamped more than a day before the pod was created or after they were received were left out",
}

// oddDeletionNote is the note of a deletion time out of the pod's life.
const oddDeletionNote = "a deletion time more than a day before the pod was created or after it was seen was left out: " +
	"the deletion is placed when it was seen"

// life is a pod's: from its creation to the latest time it was seen.
type life struct{ created, seen time.Time }

// saneGap is why the gap from a to b, whose span is s, is unknown, or "" when it is not: an
// end's time (or a bound of it) lies more than MaxClockSkew outside the pod's life, or a span
// between them is more than a Duration holds (then the life itself is absurd: a receive time
// centuries off). Such a gap says nothing true, and its saturated span would compare below any
// bound.
func saneGap(lf life, a, b *Milestone, s Span) string {
	for _, m := range [...]*Milestone{a, b} {
		if m.At.IsZero() || outOfLife(m.At, lf.created, lf.seen) || outOfLife(m.Earliest, lf.created, lf.seen) ||
			outOfLife(m.Latest, lf.created, lf.seen) {
			return endName(m) + " lies more than a day outside the pod's life (its creation to when it was last seen)"
		}
	}
	saturated := func(d time.Duration) bool { return d == math.MinInt64 || d == math.MaxInt64 }
	if saturated(s.Value) || saturated(s.Min) && !a.Latest.IsZero() && !b.Earliest.IsZero() ||
		saturated(s.Max) && !a.Earliest.IsZero() && !b.Latest.IsZero() {
		return "its span is more than a duration holds (292 years)"
	}
	return ""
}

// endName names a gap's end for a reason: "sidecar start", "pod deletion".
func endName(m *Milestone) string {
	who := m.Container
	if who == "" {
		who = "pod"
	}
	return who + " " + string(m.Kind)
}

// seconds is a period the API gives in whole seconds (an int64: a grace period) as a Duration:
// one below zero is none, and one longer than a Duration holds (292 years) is that long.
// Multiplied out as it was, 2^40 seconds wrapped around to a period of minus 231 years.
func seconds(s int64) time.Duration {
	const most = math.MaxInt64 / int64(time.Second)
	return time.Duration(min(max(s, 0), most)) * time.Second
}

// noGraceLeft is the lower bound of a deletion first seen with no grace period left: either one
// asked with --grace-period=0, or the kubelet's confirmation once the containers stopped, for
// which the API server rewrites deletionTimestamp to that moment (a pod a finalizer holds keeps
// it so). deletionTimestamp then says when the deletion ended, not when it was asked, and the
// request lies anywhere since the pod was last seen without it (s.prev), or since its creation.
// A watch that began after the kubelet's confirmation had made it 0s [0s, 1s] before the last
// exit, where it was asked 4 s before.
func noGraceLeft(s *seen, created time.Time) time.Time {
	if !s.prev.IsZero() {
		return s.prev
	}
	return created
}
