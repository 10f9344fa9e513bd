package timeline

import (
	"sort"
	"time"
)

// Builder turns observations into a timeline. It is deterministic: the same observations in the
// same order give the same Snapshot. It keeps the facts each observation adds (with the local
// receive time that bounds them) and derives milestones from all facts at Snapshot time, so an
// Event that arrives before the status it explains still lands on the right milestone.
// A Builder is not safe for concurrent use: one goroutine owns it.
type Builder struct {
	pods     map[string]*podState // by UID
	podOrder []string
	jobs     map[string]*jobState
	jobOrder []string
	events   map[string]*eventState // by event UID, else namespace/name
	evOrder  []string
	skew     bool
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{
		pods:   map[string]*podState{},
		jobs:   map[string]*jobState{},
		events: map[string]*eventState{},
	}
}

// Apply adds one observation.
func (b *Builder) Apply(o Observation) {
	switch {
	case o.Pod != nil:
		b.applyPod(o.Received, o.Type, o.Pod)
	case o.Event != nil:
		b.applyEvent(o.Received, o.Type, o.Event)
	case o.Job != nil:
		b.applyJob(o.Received, o.Type, o.Job)
	}
}

func (b *Builder) applyPod(r time.Time, t WatchType, p *PodObservation) {
	key := p.UID
	if key == "" {
		key = p.Namespace + "/" + p.Name
	}
	ps, ok := b.pods[key]
	if !ok {
		ps = newPodState()
		b.pods[key] = ps
		b.podOrder = append(b.podOrder, key)
	}
	ps.observe(r, t, p)
}

func (b *Builder) applyJob(r time.Time, t WatchType, j *JobObservation) {
	key := j.UID
	if key == "" {
		key = j.Namespace + "/" + j.Name
	}
	js, ok := b.jobs[key]
	if !ok {
		js = &jobState{}
		b.jobs[key] = js
		b.jobOrder = append(b.jobOrder, key)
	}
	js.observe(r, t, j)
}

func (b *Builder) applyEvent(r time.Time, t WatchType, e *EventObservation) {
	if t == Deleted {
		return // Events expire (TTL); that is not something that happened to the pod
	}
	key := e.UID
	if key == "" {
		key = e.Namespace + "/" + e.Name
	}
	es, ok := b.events[key]
	if !ok {
		es = &eventState{}
		b.events[key] = es
		b.evOrder = append(b.evOrder, key)
	}
	es.observe(r, e)
}

// Snapshot derives the timeline from everything applied so far.
func (b *Builder) Snapshot() Snapshot {
	var s Snapshot
	d := &deriver{skew: b.skew}
	byPod := b.eventsByObject()
	for _, key := range b.podOrder {
		ps := b.pods[key]
		s.Pods = append(s.Pods, d.pod(ps, byPod[podRef(ps.last)]))
	}
	sort.SliceStable(s.Pods, func(i, j int) bool { return s.Pods[i].Created.Before(s.Pods[j].Created) })
	for _, key := range b.jobOrder {
		js := b.jobs[key]
		s.Jobs = append(s.Jobs, d.job(js, s.Pods))
	}
	s.Events = b.eventList()
	if d.skew {
		s.Notes = append(s.Notes, "this machine's clock and the API server's disagree: some bounds from receive times were dropped")
	}
	return s
}

// objectRef keys Events by the object they involve: its UID when the Event has one, which
// keeps a recreated pod's Events apart from its predecessor's.
type objectRef struct{ kind, namespace, name, uid string }

func podRef(p *PodObservation) objectRef {
	return objectRef{"Pod", p.Namespace, p.Name, p.UID}
}

// eventsByObject groups Events by the pod they involve; an Event without an involved UID is
// filed under the one pod of that name seen (Job Events only go to the events list).
func (b *Builder) eventsByObject() map[objectRef][]*eventState {
	m := map[objectRef][]*eventState{}
	uids := map[objectRef]string{} // name-only ref -> the one UID known for it
	for _, key := range b.podOrder {
		p := b.pods[key].last
		uids[objectRef{"Pod", p.Namespace, p.Name, ""}] = p.UID
	}
	for _, key := range b.evOrder {
		es := b.events[key]
		e := es.last
		ref := objectRef{e.InvolvedKind, e.Namespace, e.InvolvedName, e.InvolvedUID}
		if ref.uid == "" {
			ref.uid = uids[objectRef{e.InvolvedKind, e.Namespace, e.InvolvedName, ""}]
		}
		m[ref] = append(m[ref], es)
	}
	return m
}

// eventList is every Event occurrence, oldest first.
func (b *Builder) eventList() []Event {
	var out []Event
	for _, key := range b.evOrder {
		es := b.events[key]
		e := es.last
		for _, oc := range es.occurrences {
			out = append(out, Event{
				At:        oc.at,
				Object:    e.InvolvedKind + "/" + e.InvolvedName,
				Container: e.Container,
				Type:      e.Type,
				Reason:    e.Reason,
				Message:   e.Message,
				Count:     oc.count,
			})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}
