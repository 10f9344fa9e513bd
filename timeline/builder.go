package timeline

import (
	"cmp"
	"slices"
	"sort"
	"time"
)

// Builder turns observations into a timeline. It is deterministic: the same observations in the
// same order give the same Snapshot, however often Snapshot is called in between. It keeps the
// facts each observation adds (with the local receive time that bounds them); Snapshot derives
// milestones from them again only where they changed since the last Snapshot, so an Event that
// arrives before the status it explains still lands on the right milestone, and a snapshot costs
// what changed, not the whole history.
// A Builder is not safe for concurrent use: one goroutine owns it.
type Builder struct {
	pods    map[string]*podState // by UID
	byName  map[nsName][]*podState
	podList []*podState // by creation, then arrival
	jobs    map[string]*jobState
	jobList []*jobState
	events  map[string]*eventState // by event UID, else namespace/name
	waiting map[objectRef][]waiter
	waitFor []objectRef // the keys of waiting, in the order they came
	names   laneNames   // the status fields' names, by kind and name of container

	// What the snapshots' pod list is made from: podSeq holds each pod's last derivation in
	// podList's order. listFrom is the first place in podList whose pod changed since the last
	// snapshot (a new pod went there, or the list was sorted); touched are the pods that changed
	// where they are. So a snapshot costs the pods that changed, not the list: it had been a new
	// slice of every pod, and a look at each, at every snapshot.
	podSeq   seqBuilder[*Pod]
	listFrom int
	touched  []*podState

	d        deriver
	keep     func(*Pod) bool            // brief mode: which pods are kept whole (see Brief); nil: all
	hide     func(*PodObservation) bool // which pods are only counted (see Hide); nil: none
	hidden   map[string]bool            // the pods hide picked, by key, until their deletion
	changed  bool                       // something changed since the last Snapshot
	reorder  bool                       // a pod's creation changed: sort the pod list again
	orphaned bool                       // the Events waiting for their object changed
	final    bool                       // Final was called: nothing more is taken
	taken    bool                       // a snapshot has been taken: last is it
	last     Snapshot
}

type nsName struct{ namespace, name string }

// objectRef names the object an Event is about: its UID when the Event has one, which keeps a
// recreated pod's Events apart from its predecessor's.
type objectRef struct{ kind, namespace, name, uid string }

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{
		pods:    map[string]*podState{},
		byName:  map[nsName][]*podState{},
		jobs:    map[string]*jobState{},
		events:  map[string]*eventState{},
		waiting: map[objectRef][]waiter{},
		names:   laneNames{},
	}
}

// Apply adds one observation, and reports whether the timeline may have changed: not for an
// Event's deletion (Events expire; that is not something that happened to the pod), nor for
// anything about a hidden pod, nor for a log of a lane not seen: a live scope gets these all
// the time (a cluster's Events expire an hour after they were made; three of four pods of -A
// are hidden), and asks for a frame only when something changed. Of a pod's or an Event's
// observation it keeps nothing, neither the observation nor its lists: it copies what it keeps,
// so that the caller may write the next one into the same memory (watch.Translator;
// TestTranslatorIsObserve). A Job's it keeps.
func (b *Builder) Apply(o Observation) (changed bool) {
	if b.final {
		panic("timeline: Builder.Apply after Final or Stream")
	}
	switch {
	case o.Pod != nil:
		changed = b.applyPod(o.Received, o.Type, o.Pod)
	case o.Event != nil:
		changed = b.applyEvent(o.Received, o.Type, o.Event)
	case o.Job != nil:
		b.applyJob(o.Received, o.Type, o.Job)
		changed = true
	case o.Log != nil:
		changed = b.applyLog(o.Received, o.Log)
	case o.Kubelet != nil:
		changed = b.applyKubelet(o.Received, o.Kubelet)
	}
	b.changed = b.changed || changed
	return changed
}

// lane is the lane of a pod's container (and the pod), by the pod's UID or else its newest of
// that name, marked for derivation; nil when the pod or container has not been seen (what a log says of it is
// then dropped: logs are read only for pods the watch has shown).
func (b *Builder) lane(namespace, pod, uid, container string) (*podState, *laneState) {
	ps := b.pods[uid]
	if ps == nil {
		if list := b.byName[nsName{namespace, pod}]; len(list) > 0 {
			ps = list[len(list)-1]
		}
	}
	if ps == nil {
		return nil, nil
	}
	ls := ps.lanes[container]
	if ls != nil {
		ps.touch()
	}
	return ps, ls
}

// applyPod adds a pod's observation; of a hidden pod it says only whether the count of hidden
// pods changed.
func (b *Builder) applyPod(r time.Time, t WatchType, p *PodObservation) bool {
	key := p.UID
	if key == "" {
		key = p.Namespace + "/" + p.Name
	}
	if hidden, counted := b.hidePod(key, t, p); hidden {
		return counted
	}
	ps, ok := b.pods[key]
	if !ok {
		ps = newPodState(key, &b.touched)
		ps.arrival = len(b.podList)
		b.pods[key] = ps
		n := nsName{p.Namespace, p.Name}
		b.byName[n] = append(b.byName[n], ps)
		b.podList = append(b.podList, ps)
	}
	if ps.last != nil && !ps.last.Created.Equal(p.Created) {
		b.reorder = true
	}
	ps.observe(r, t, p, b.names)
	if !ok && !b.reorder {
		b.place(ps)
	}
	if !ok {
		b.release(objectRef{"Pod", p.Namespace, p.Name, p.UID}, eventOwner{pod: ps})
		b.release(objectRef{"Pod", p.Namespace, p.Name, ""}, eventOwner{pod: ps})
	}
	return true
}

// placeWalk is how far back a new pod is moved into its place by creation; one that belongs
// farther back has the whole list sorted at the next snapshot instead (order). Pods mostly
// arrive in creation order, or a few places out (a Job's, a watch's new pods); a scope's first
// list comes in the API server's order, and moving each pod of it back into place cost half the
// list for each: a square of the cluster's pods before the first table.
const placeWalk = 64

// place moves the pod that arrived last, ps, into its place by creation, after the pods made at
// the same time: the list stays in order without sorting all of it again for every new pod of a
// big Job.
func (b *Builder) place(ps *podState) {
	c := ps.created()
	i := len(b.podList) - 1
	for stop := max(i-placeWalk, 0); i > stop && c.Before(b.podList[i-1].created()); i-- {
		b.podList[i], b.podList[i-1] = b.podList[i-1], b.podList[i]
	}
	if i > 0 && c.Before(b.podList[i-1].created()) {
		b.reorder = true
		return
	}
	b.listFrom = min(b.listFrom, i)
}

func (b *Builder) applyJob(r time.Time, t WatchType, j *JobObservation) {
	key := j.UID
	if key == "" {
		key = j.Namespace + "/" + j.Name
	}
	js, ok := b.jobs[key]
	if !ok {
		js = &jobState{key: key}
		b.jobs[key] = js
		b.jobList = append(b.jobList, js)
		b.reorder = true
	}
	js.observe(r, t, j)
	if !ok {
		b.release(objectRef{"Job", j.Namespace, j.Name, j.UID}, eventOwner{job: js})
		b.release(objectRef{"Job", j.Namespace, j.Name, ""}, eventOwner{job: js})
	}
}

// applyEvent adds an Event's occurrence; false for its deletion (Events expire (TTL); that is
// not something that happened to the pod) and for an Event about a hidden pod.
func (b *Builder) applyEvent(r time.Time, t WatchType, e *EventObservation) bool {
	if t == Deleted || b.hiddenEvent(e) {
		return false
	}
	key := e.UID
	if key == "" {
		key = e.Namespace + "/" + e.Name
	}
	es, ok := b.events[key]
	if !ok {
		es = &eventState{}
		b.events[key] = es
	}
	oc, isNew := es.observe(r, e)
	if !ok {
		es.owner = b.ownerOf(e)
		if es.owner == (eventOwner{}) {
			ref := objectRef{e.InvolvedKind, e.Namespace, e.InvolvedName, e.InvolvedUID}
			if len(b.waiting[ref]) == 0 {
				b.waitFor = append(b.waitFor, ref)
			}
			b.waiting[ref] = append(b.waiting[ref], waiter{key, es})
		}
	}
	if isNew {
		if es.owner == (eventOwner{}) {
			es.waiting = append(es.waiting, oc)
		}
		b.file(es, eventOcc{oc, es.last})
	}
	return true
}

// ownerOf is the pod or job an Event is about, if it has been seen: by the Event's involved UID,
// else the newest one of that name.
func (b *Builder) ownerOf(e *EventObservation) eventOwner {
	switch e.InvolvedKind {
	case "Pod":
		if e.InvolvedUID != "" {
			return eventOwner{pod: b.pods[e.InvolvedUID]}
		}
		if list := b.byName[nsName{e.Namespace, e.InvolvedName}]; len(list) > 0 {
			return eventOwner{pod: list[len(list)-1]}
		}
	case "Job":
		for i := len(b.jobList) - 1; i >= 0; i-- {
			js := b.jobList[i]
			if js.last.Namespace == e.Namespace && js.last.Name == e.InvolvedName &&
				(e.InvolvedUID == "" || e.InvolvedUID == js.last.UID) {
				return eventOwner{job: js}
			}
		}
	}
	return eventOwner{}
}

// file adds an occurrence where its Event belongs.
func (b *Builder) file(es *eventState, oc eventOcc) {
	switch {
	case es.owner.pod != nil:
		es.owner.pod.addOcc(oc)
	case es.owner.job != nil:
		es.owner.job.dirty = true
		addEvent(&es.owner.job.events, oc.listEvent())
	default:
		b.orphaned = true
	}
}

// release files the Events that waited for the object ref names, now that it has been seen.
func (b *Builder) release(ref objectRef, owner eventOwner) {
	list := b.waiting[ref]
	if len(list) == 0 {
		return
	}
	delete(b.waiting, ref)
	for _, w := range list {
		es := w.es
		es.owner = owner
		for _, oc := range es.waiting {
			b.file(es, eventOcc{oc, es.last})
		}
		es.waiting = nil
	}
	b.orphaned = true
}

// orphans are the occurrences of the Events still waiting for their object, in time order.
func (b *Builder) orphans() []Event {
	var out []Event
	kept := b.waitFor[:0]
	for _, ref := range b.waitFor {
		if len(b.waiting[ref]) == 0 {
			continue
		}
		kept = append(kept, ref)
		for _, w := range b.waiting[ref] {
			for _, oc := range w.es.waiting {
				out = append(out, eventOcc{oc, w.es.last}.listEvent())
			}
		}
	}
	b.waitFor = kept
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

// Snapshot derives the timeline from everything applied so far: again only the pods and jobs
// that changed since the last Snapshot; the rest is shared with it.
func (b *Builder) Snapshot() Snapshot { return b.snapshot(false) }

// Final is the last Snapshot, for a run that has read all it will: the Builder lets each pod's
// facts go as soon as the pod is derived, and takes no observation after it (Apply panics). So
// the end of a replay holds the timeline, not the timeline and every fact beside it: deriving
// the 2,200 pods of a Job's recording at its end had the facts (28 MB) and the pods (25 MB)
// live at once.
func (b *Builder) Final() Snapshot {
	if b.taken && !b.changed {
		b.drop()
		return b.last
	}
	return b.snapshot(true)
}

// testHookFinalPod, when set, is told of each pod Final has derived and let go of (by the
// worker that derived it, when there are several: see finalWorkers).
var testHookFinalPod func(i int)

// drop lets go of everything but the last snapshot.
func (b *Builder) drop() { *b = Builder{last: b.last, final: true, taken: true} }

func (b *Builder) snapshot(final bool) Snapshot {
	if !b.changed && b.taken {
		return b.last
	}
	b.changed, b.taken = false, true
	b.order(final)
	s := Snapshot{}
	if final {
		s.Pods = b.finalPods()
	} else {
		s.Pods = b.podTimelines()
	}
	s.Hidden = len(b.hidden)
	b.complete(&s, final)
	return s
}

// order sorts the pod list again if a pod's creation changed, and at the end gathers the
// Events still waiting for their object, before the facts they would be filed under go.
func (b *Builder) order(final bool) {
	if b.reorder {
		b.reorder = false
		// By creation, then arrival: the order the list is kept in as pods arrive, whenever it
		// is sorted (a stable sort of the list as it was would keep ties in the order pods had
		// reached until then, which depends on when snapshots were taken).
		slices.SortFunc(b.podList, func(x, y *podState) int {
			if c := x.created().Compare(y.created()); c != 0 {
				return c
			}
			return cmp.Compare(x.arrival, y.arrival)
		})
		b.listFrom = 0
	}
	if final && b.orphaned {
		b.orphaned = false
		b.last.Orphans = b.orphans()
	}
}

// complete adds to s, whose pods are derived, the jobs, the orphaned Events and the notes, and
// makes it the last snapshot; at the end, the Builder then lets go of everything else.
func (b *Builder) complete(s *Snapshot, final bool) {
	for _, js := range b.jobList {
		if js.dirty || js.out == nil {
			js.dirty = false
			js.out = b.d.job(js)
		}
		s.Jobs = append(s.Jobs, js.out)
	}
	s.Orphans = b.last.Orphans
	if b.orphaned {
		b.orphaned = false
		s.Orphans = b.orphans()
	}
	if b.d.skew {
		s.Notes = append(s.Notes, "this machine's clock and the API server's disagree: some bounds from receive times were dropped")
	}
	notes := slices.Clone(b.d.notes)
	slices.Sort(notes) // the same however the snapshots came
	s.Notes = append(s.Notes, notes...)
	b.last = *s
	if final {
		b.drop()
	}
}

// podTimelines derives the pods that changed since the last snapshot and is the list of every
// pod's timeline, in podList's order: the pods from listFrom on (their places changed), then
// the others touched.
func (b *Builder) podTimelines() Seq[*Pod] {
	for i := b.listFrom; i < len(b.podList); i++ {
		ps := b.podList[i]
		ps.index = i
		b.derive(ps)
		if i < b.podSeq.len() {
			if *b.podSeq.at(i) != ps.out {
				b.podSeq.set(i, ps.out)
			}
		} else {
			b.podSeq.insert(i, ps.out)
		}
	}
	b.listFrom = len(b.podList)
	for _, ps := range b.touched {
		if ps.dirty {
			b.derive(ps)
			b.podSeq.set(ps.index, ps.out)
		}
	}
	clear(b.touched)
	b.touched = b.touched[:0]
	return b.podSeq.view()
}

// derive derives a pod again, with d, if it changed: afresh if what was kept is its brief.
func derive(d *deriver, ps *podState) {
	if ps.dirty || ps.out == nil {
		ps.dirty = false
		if ps.out != nil && ps.out.Brief {
			ps.out = nil
		}
		ps.out = d.pod(ps)
	}
}

// derive derives a pod again if it changed, and in brief mode keeps its brief if so asked.
func (b *Builder) derive(ps *podState) {
	if ps.dirty || ps.out == nil {
		derive(&b.d, ps)
		b.briefOrKeep(ps)
	}
}
