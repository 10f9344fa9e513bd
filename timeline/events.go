package timeline

import (
	"sort"
	"strconv"
	"time"
)

// eventState is one Event object and each occurrence of it seen: the kubelet reports a repeat
// by raising count and lastTimestamp on the same object.
type eventState struct {
	last        *EventObservation
	occurrences []occurrence
}

// occurrence is one time an Event happened.
type occurrence struct {
	count    int32
	at       time.Time
	when     interval
	received time.Time
	api      time.Time // the API time it rests on
	apiPrec  string
	nameTime time.Time
}

func (es *eventState) observe(r time.Time, e *EventObservation) {
	es.last = e
	count := max(e.Count, 1)
	if n := len(es.occurrences); n > 0 && es.occurrences[n-1].count >= count {
		return // an update that adds no occurrence
	}
	oc := occurrence{count: count, received: r}
	first := len(es.occurrences) == 0 && count == 1
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
	es.occurrences = append(es.occurrences, oc)
}

// evidence describes an occurrence as evidence for a milestone.
func (oc occurrence) evidence(e *EventObservation) Evidence {
	ev := Evidence{What: "Event " + e.Reason, Received: timePtr(oc.received)}
	if !oc.api.IsZero() {
		ev.API, ev.Precision = timePtr(oc.api), oc.apiPrec
	}
	ev.NameTime = timePtr(oc.nameTime)
	if oc.count > 1 {
		ev.Note = "repeat: count " + strconv.Itoa(int(oc.count))
	}
	return ev
}

// containerEvents are the occurrences of one container's Events, by reason, in time order.
type containerEvents map[string][]eventOcc

type eventOcc struct {
	occurrence
	ev *EventObservation
}

// byContainer sorts a pod's Event occurrences by the container their fieldPath names ("" for
// the pod itself) and by reason.
func byContainer(evs []*eventState) map[string]containerEvents {
	m := map[string]containerEvents{}
	for _, es := range evs {
		e := es.last
		ce := m[e.Container]
		if ce == nil {
			ce = containerEvents{}
			m[e.Container] = ce
		}
		for _, oc := range es.occurrences {
			ce[e.Reason] = append(ce[e.Reason], eventOcc{oc, e})
		}
	}
	for _, ce := range m {
		for _, list := range ce {
			sortOccs(list)
		}
	}
	return m
}

func sortOccs(list []eventOcc) {
	sort.SliceStable(list, func(i, j int) bool { return list[i].at.Before(list[j].at) })
}
