package timeline

import "runtime"

// Stream is the end of a run for output that writes each pod once, in order, and keeps none
// (replay -o json). Final derives every pod before the first is written, and its snapshot holds
// them all until the last one is; a Stream derives each pod as it is taken, on the goroutine that
// takes it (which writes it next, while what it derived is in that core's cache), lets go of its
// facts then, and keeps of it only what the rest of the document needs: its Events (facts
// already) and, for a Job's pod, its warnings. The Document it makes is Final's, pod for pod
// (TestStreamIsFinal).
//
// Measured on replay -o json of a 2,200-pod Job's 101 MiB recording (2026-12-06, copies of the
// binaries): writing the pods after Final had derived them all took 74-82 ms on both cores
// (131-151 CPU-ms), and marshalling each pod as soon as it was derived added 32 ms to the end's
// derivation; with the pods streamed, means of ten rounds in turn went 0.711 -> 0.656 s wall and
// 1.241 -> 1.141 CPU-s, and 0.580 -> 0.541 s and 1.014 -> 0.932 CPU-s, peak 92 MiB both.
type Stream struct {
	b        *Builder
	last     *Snapshot    // the end, when nothing changed since the last snapshot: its pods are derived
	facts    []*podState  // else the pods' facts, in order: each nil once taken
	events   []Seq[Event] // each pod's Events
	owners   []*Pod       // each Job pod once taken, with only its namespace and owner (for ownedBy)
	warnings [][]Finding  // each Job pod's warnings, once taken
	free     chan *deriver
	others   []*deriver // the derivers beside the Builder's
	notes    []string   // the player's, after the timeline's own
}

// Stream is Final for output that writes the pods one by one (see Stream). notes are the
// player's, listed after the timeline's own, as a player lists them in its snapshots. The
// Builder takes no observation after it (Apply panics).
func (b *Builder) Stream(notes ...string) *Stream {
	st := &Stream{b: b, notes: notes}
	if b.taken && !b.changed {
		last := b.last
		st.last = &last
		b.drop()
		return st
	}
	b.changed, b.taken = false, true
	b.order(true)
	st.facts = b.endFacts()
	b.final = true // Apply panics, as after Final
	n := len(st.facts)
	st.events = make([]Seq[Event], n)
	for i, ps := range st.facts {
		st.events[i] = ps.events.view()
	}
	st.owners, st.warnings = make([]*Pod, n), make([][]Finding, n)
	workers := runtime.GOMAXPROCS(0)
	st.free = make(chan *deriver, workers)
	st.free <- &b.d
	for range workers - 1 {
		d := &deriver{final: true}
		st.others = append(st.others, d)
		st.free <- d
	}
	return st
}

// Len is the number of pods.
func (st *Stream) Len() int {
	if st.last != nil {
		return st.last.Pods.Len()
	}
	return len(st.facts)
}

// Empty reports whether the end holds nothing a timeline shows: no pod, job or Event.
func (st *Stream) Empty() bool {
	if st.last != nil {
		return st.last.Pods.Len() == 0 && len(st.last.Jobs) == 0 && len(st.last.Orphans) == 0
	}
	return len(st.facts) == 0 && len(st.b.jobList) == 0 && len(st.b.last.Orphans) == 0
}

// Pod derives pod i and lets go of its facts. It is safe to call from several goroutines at
// once, for different pods; each pod is taken once, and every one before Document.
func (st *Stream) Pod(i int) *Pod {
	if st.last != nil {
		return st.last.Pods.At(i)
	}
	d := <-st.free
	defer func() { st.free <- d }()
	ps := st.facts[i]
	derive(d, ps)
	st.facts[i] = nil
	p := ps.out
	if p.Owner != nil && p.Owner.Kind == "Job" {
		st.owners[i] = &Pod{Namespace: p.Namespace, Owner: p.Owner}
		for _, f := range p.Findings() {
			if f.Severity == SeverityWarning {
				st.warnings[i] = append(st.warnings[i], f)
			}
		}
	}
	return p
}

// Document is the Document of the end, without its pods (which were taken): what NewDocument
// makes of Final's snapshot, but the pods, with notes after its own.
func (st *Stream) Document(namespace, target string) Document {
	var d Document
	if st.last != nil {
		d = NewDocument(namespace, target, *st.last)
		d.Pods = nil
	} else {
		var s Snapshot
		st.b.gather(st.others)
		st.b.complete(&s, true)
		d = Document{Kind: DocumentKind, Version: DocumentVersion, Namespace: namespace, Target: target, Notes: s.Notes,
			Events: mergeEvents(len(st.events), func(i int) Seq[Event] { return st.events[i] }, s.Jobs, s.Orphans)}
		for _, j := range s.Jobs {
			var fs []Finding
			for i, p := range st.owners {
				if p != nil && ownedBy(p, j) {
					fs = append(fs, st.warnings[i]...)
				}
			}
			d.Jobs = append(d.Jobs, JobDocument{Job: j, Findings: fs})
		}
	}
	if len(st.notes) > 0 {
		d.Notes = append(d.Notes[:len(d.Notes):len(d.Notes)], st.notes...)
	}
	return d
}
