package timeline

import (
	"strconv"
	"strings"
	"time"
)

// eventState is one Event object: where its occurrences go, and what tells the next one from an
// update that adds none (the kubelet reports a repeat by raising count and lastTimestamp on the
// same object).
type eventState struct {
	last  *eventRef  // what the Event is about and why, as last seen
	count int32      // the count of the last occurrence taken (0: none yet)
	owner eventOwner // where its occurrences are filed
	// waiting holds the occurrences of an Event whose object has not been seen, until it is
	// (release files them) or the end lists them as orphans. An Event with an owner keeps none:
	// its occurrences are filed as they come, and kept there. Keeping them here too had every
	// occurrence of a Job's thousands of Events held twice.
	waiting []occurrence
}

// occurrence is one time an Event happened, with what the Event said then.
type occurrence struct {
	count    int32
	at       time.Time
	when     interval
	received time.Time
	api      time.Time // the API time it rests on
	apiPrec  string
	nameTime time.Time
	typ      string
	message  string
	note     string // for a repeat: its count, as evidence notes it
}

// observe adds the occurrence the update reports, if it is one; ok is false for an update that
// adds none.
func (es *eventState) observe(r time.Time, e *EventObservation) (oc occurrence, ok bool) {
	if ref := refOf(e); es.last == nil || *es.last != ref {
		es.last = &ref
	}
	count := max(e.Count, 1)
	if es.count >= count {
		return occurrence{}, false
	}
	oc = occurrence{count: count, received: r, typ: e.Type, message: e.Message}
	if count > 1 {
		oc.note = "repeat: count " + strconv.Itoa(int(count))
		if es.count > 0 && count > es.count+1 {
			// Only the last repeat of the update is placed: those between came in no update seen.
			oc.note += "; counts " + strconv.Itoa(int(es.count+1)) + "–" + strconv.Itoa(int(count-1)) +
				" came in no update seen, after count " + strconv.Itoa(int(es.count)) + " and before this one"
		}
	}
	oc.placeBy(e, es.count == 0 && count == 1, r)
	es.count = count
	return oc, true
}

// placeBy places the occurrence, received at r, by the best time the Event e gives (for its
// first occurrence, first: the name's, its eventTime, its firstTimestamp; else lastTimestamp),
// no later than r.
func (oc *occurrence) placeBy(e *EventObservation, first bool, r time.Time) {
	switch {
	case first && !e.NameTime.IsZero():
		// The name's suffix is the emitter's clock when it made the Event: the best time there is.
		oc.nameTime = e.NameTime
		oc.when = point(e.NameTime)
	case first && !e.EventTime.IsZero():
		oc.api, oc.apiPrec = e.EventTime, "1µs"
		oc.when = interval{e.EventTime, e.EventTime.Add(time.Microsecond)}
	case first && !e.First.IsZero():
		oc.api, oc.apiPrec = e.First, "1s"
		oc.when = wholeSecond(e.First)
	case !e.Last.IsZero():
		oc.api, oc.apiPrec = e.Last, "1s"
		oc.when = wholeSecond(e.Last)
	default:
		oc.when = interval{hi: r}
	}
	oc.when, _ = oc.when.tighten(time.Time{}, r)
	// Events reach a watcher within milliseconds of being made, so one whose own time has whole
	// seconds is best placed when it arrived; the name's time, where there is one, is exact.
	oc.at = oc.when.clamp(r)
	if !oc.nameTime.IsZero() {
		oc.at = oc.nameTime
	}
}

// eventTime is the time the occurrence rests on: its name's, else its API time (zero: none).
func (oc occurrence) eventTime() time.Time {
	if !oc.nameTime.IsZero() {
		return oc.nameTime
	}
	return oc.api
}

// untimed is the occurrence without the time it rests on, which is no time of its pod (see
// outOfLife): it happened before it was received, no more is known.
func (oc occurrence) untimed() occurrence {
	oc.note = strings.TrimPrefix(oc.note+"; its time "+oc.eventTime().UTC().Format(time.RFC3339Nano)+" is no time of the pod: left out", "; ")
	oc.api, oc.apiPrec, oc.nameTime = time.Time{}, "", time.Time{}
	oc.when = interval{hi: oc.received}
	oc.at = oc.received
	return oc
}

// evidence describes an occurrence as evidence for a milestone.
func (oc occurrence) evidence(reason string) Evidence {
	ev := Evidence{What: eventWhat(reason), Received: oc.received, NameTime: oc.nameTime, Note: oc.note}
	if !oc.api.IsZero() {
		ev.API, ev.Precision = oc.api, oc.apiPrec
	}
	return ev
}

// eventWhat is "Event " and the reason: a constant for the reasons the timeline reads, which it
// writes into evidence each time it derives a run again.
func eventWhat(reason string) string {
	switch reason {
	case "Created":
		return "Event Created"
	case "Started":
		return "Event Started"
	case "Killing":
		return "Event Killing"
	case "BackOff":
		return "Event BackOff"
	case "Unhealthy":
		return "Event Unhealthy"
	case "Pulled":
		return "Event Pulled"
	case "FailedPreStopHook":
		return "Event FailedPreStopHook"
	case "Scheduled":
		return "Event Scheduled"
	}
	return "Event " + reason
}

// eventOcc is an occurrence and the Event it is of.
type eventOcc struct {
	occurrence
	ev *eventRef // the Event as it was when the occurrence was taken
}

// eventRef is what the timeline keeps of an Event object once it has taken an occurrence from
// it: what it is about and why. The rest (its names, UID and times) is read as the occurrence is
// made. Keeping the whole EventObservation, and the strings only it held, cost a Job's timeline
// ~370 bytes for each of its pods' Events.
type eventRef struct {
	InvolvedKind, InvolvedName string
	Container                  string
	ContainerKind              ContainerKind
	Reason                     string
}

func refOf(e *EventObservation) eventRef {
	return eventRef{InvolvedKind: e.InvolvedKind, InvolvedName: e.InvolvedName, Container: e.Container,
		ContainerKind: e.ContainerKind, Reason: e.Reason}
}

// listEvent is the occurrence as the events list shows it.
func (oc eventOcc) listEvent() Event {
	return oc.listEventOf(oc.ev.InvolvedKind + "/" + oc.ev.InvolvedName)
}

// listEventOf is listEvent with the involved object's "Kind/name" given.
func (oc eventOcc) listEventOf(object string) Event {
	e := oc.ev
	return Event{At: oc.at, Object: object, Container: e.Container,
		Type: oc.typ, Reason: e.Reason, Message: oc.message, Count: oc.count}
}

// eventOwner is where an Event's occurrences go: a pod, a job, or nowhere yet.
type eventOwner struct {
	pod *podState
	job *jobState
}

// addEvent files e in l in time order: after every occurrence at or before it.
func addEvent(l *seqBuilder[Event], e Event) {
	i := l.len()
	for i > 0 && l.at(i-1).At.After(e.At) {
		i--
	}
	l.insert(i, e)
}
