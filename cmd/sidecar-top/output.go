package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/sidecar-top/sidecar-top/internal/jsonsafe"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// writeJSON prints the final timeline as a timeline.Document, compact unless pretty.
func writeJSON(w io.Writer, namespace, target string, s timeline.Snapshot, pretty bool) error {
	return writeDocument(w, timeline.NewDocument(namespace, target, s), pretty)
}

// writeDocument prints a timeline.Document, compact unless pretty. It writes one pod (job,
// Event) at a time, so that a timeline of thousands of pods is never held whole as text: the
// output costs what one pod's does.
func writeDocument(w io.Writer, d timeline.Document, pretty bool) error {
	return writeParts(w, d, len(d.Pods), func(i int) any { return d.Pods[i] }, func() timeline.Document { return d }, pretty)
}

// writeDocumentAs prints a timeline.Document as format says: json (compact unless pretty) or
// yaml.
func writeDocumentAs(w io.Writer, format string, d timeline.Document, pretty bool) error {
	if format == "yaml" {
		return writeYAML(w, func(w io.Writer) error { return writeDocument(w, d, false) })
	}
	return writeDocument(w, d, pretty)
}

// writeStream prints the Document of a run's end as st derives it, pod by pod, with note (if
// any) after its notes, as withNote adds it to a snapshot: what writeDocument prints of the
// Document of the same end taken whole (timeline.Builder.Final), without holding its pods.
func writeStream(w io.Writer, namespace, target string, st *timeline.Stream, note string, pretty bool) error {
	head := timeline.Document{Kind: timeline.DocumentKind, Version: timeline.DocumentVersion, Namespace: namespace, Target: target}
	return writeParts(w, head, st.Len(), func(i int) any { return st.Pod(i) }, func() timeline.Document {
		d := st.Document(namespace, target)
		if note != "" {
			d.Notes = append(d.Notes[:len(d.Notes):len(d.Notes)], note)
		}
		return d
	}, pretty)
}

// writeParts prints a Document whose kind, version, namespace and target head has, whose n
// pods at gives, and whose other members rest gives once the pods are written.
func writeParts(w io.Writer, head timeline.Document, n int, at func(int) any, rest func() timeline.Document, pretty bool) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	jw := &jsonWriter{w: bw, pretty: pretty}
	b, err := json.Marshal(struct {
		Kind      string `json:"kind"`
		Version   int    `json:"version"`
		Namespace string `json:"namespace,omitempty"`
		Target    string `json:"target,omitempty"`
	}{head.Kind, head.Version, head.Namespace, head.Target})
	if err != nil {
		return err
	}
	jw.raw(b[:len(b)-1]) // the object, still open
	jw.list("pods", n, 1, false, at)
	d := rest()
	jw.jobs(d.Jobs)
	jw.list("events", len(d.Events), smallPer, true, func(i int) any { return d.Events[i] })
	jw.list("notes", len(d.Notes), smallPer, true, func(i int) any { return d.Notes[i] })
	if d.Summary != nil {
		jw.member("summary", d.Summary)
	}
	jw.raw([]byte("}\n"))
	if jw.err != nil {
		return jw.err
	}
	return bw.Flush()
}

// jsonWriter writes the members of a JSON object one value at a time.
type jsonWriter struct {
	w           *bufio.Writer
	pretty      bool
	buf         bytes.Buffer
	slots       []marshalSlot // the ring of buffers values are marshalled into, used again and again
	marshallers []marshaller  // one for each goroutine marshalled runs, kept for the next list
	err         error
}

// raw writes b, with what a terminal could obey spelled as JSON escapes (jsonsafe): the text
// is kept as it was.
func (j *jsonWriter) raw(b []byte) {
	if j.err == nil {
		_, j.err = j.w.Write(jsonsafe.Escape(b))
	}
}

// list writes `,"name":[v0,v1,...]`, each value marshalled on its own, per values at a time
// (see marshalled); an empty list is left out when omitEmpty.
func (j *jsonWriter) list(name string, n, per int, omitEmpty bool, at func(int) any) {
	if n == 0 && omitEmpty {
		return
	}
	j.raw([]byte(`,` + j.nl(1) + `"` + name + `":` + j.sp()))
	j.array(n, per, at)
}

// array writes `[v0,v1,...]` (see list).
func (j *jsonWriter) array(n, per int, at func(int) any) {
	j.raw([]byte("["))
	j.marshalled(n, per, at, func(i int, b []byte, err error) {
		if err != nil && j.err == nil {
			j.err = err
		}
		if i > 0 {
			j.raw([]byte(","))
		}
		j.raw([]byte(j.nl(2)))
		if j.pretty {
			j.buf.Reset()
			if err := json.Indent(&j.buf, b, "    ", "  "); err == nil {
				b = j.buf.Bytes()
			}
		}
		j.raw(b)
	})
	if n > 0 {
		j.raw([]byte(j.nl(1)))
	}
	j.raw([]byte("]"))
}

// jobs writes `,"jobs":[...]`, each JobDocument as encoding/json writes it, but its pods'
// warnings (one of each pod of a Job of thousands) as a list of their own, marshalled as the
// Events are: whole, a 2,200-pod Job's was one value of 727 KB, marshalled on one core into a
// buffer grown for it after the pods were written (14-15 ms, most of it faulting in the new
// memory). Pretty output writes each JobDocument whole, indented as the other values.
func (j *jsonWriter) jobs(jobs []timeline.JobDocument) {
	if j.pretty || len(jobs) == 0 {
		j.list("jobs", len(jobs), 1, true, func(i int) any { return jobs[i] })
		return
	}
	j.raw([]byte(`,"jobs":[`))
	for i, d := range jobs {
		if i > 0 {
			j.raw([]byte(","))
		}
		head, err := marshal(timeline.JobDocument{Job: d.Job})
		if err != nil && j.err == nil {
			j.err = err
		}
		if d.Job == nil || len(d.Findings) == 0 || len(head) < 2 || head[len(head)-1] != '}' {
			head, err = marshal(d)
			if err != nil && j.err == nil {
				j.err = err
			}
			j.raw(head)
			continue
		}
		j.raw(head[:len(head)-1]) // the object, still open
		j.raw([]byte(`,"findings":`))
		j.array(len(d.Findings), smallPer, func(k int) any { return d.Findings[k] })
		j.raw([]byte("}"))
	}
	j.raw([]byte("]"))
}

// smallPer is how many values of a list of small ones (Events, warnings: a few hundred bytes
// each) a goroutine of marshalled takes at a time: handed over one by one, the Events of a
// 2,200-pod Job (17,600) cost more in handing over than in marshalling (10-14 ms).
const smallPer = 64

// marshalAhead is how many batches of values of a list may be marshalled and not yet written:
// the output of a Job's thousands of pods is never held whole.
const marshalAhead = 64

// marshalled marshals at(0) … at(n-1) on every core and hands each to write in order, on this
// goroutine, as soon as it and those before it are done. The goroutines take the values per at a
// time (a batch) and stay at most marshalAhead batches ahead of the writing, each batch into a
// buffer of the ring j.slots that the batch marshalAhead before it was written from. (They had
// marshalled windows of 64 values, each goroutine every other value, and waited for the window to
// be written: while it was, and while the slower goroutine finished, a core idled; a runtime
// trace of writing a 2,200-pod Job's timeline showed 1.4-1.5 goroutines running, 1.8-2.0 since.)
// A snapshot is immutable, and what a Pod derives on demand is derived once under a sync.Once.
func (j *jsonWriter) marshalled(n, per int, at func(int) any, write func(i int, b []byte, err error)) {
	if n == 0 {
		return
	}
	per = max(per, 1)
	batches := (n + per - 1) / per
	workers := min(runtime.GOMAXPROCS(0), batches)
	for len(j.marshallers) < workers {
		j.marshallers = append(j.marshallers, marshaller{})
	}
	if j.slots == nil {
		j.slots = make([]marshalSlot, marshalAhead)
		for k := range j.slots {
			j.slots[k].ready = make(chan struct{}, 1)
		}
	}
	// A token for each batch taken and not yet written: a goroutine takes batch k only once the
	// batch marshalAhead before it has been written, so its slot is free.
	tokens := make(chan struct{}, marshalAhead)
	for range marshalAhead {
		tokens <- struct{}{}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		m := &j.marshallers[w]
		m.longest = 0 // a list's values are of one kind: a Job's are not an Event's
		wg.Go(func() {
			for {
				<-tokens
				k := int(next.Add(1)) - 1
				if k >= batches {
					return
				}
				s := &j.slots[k%marshalAhead]
				s.b, s.ends, s.errs = m.buffer(s.b), s.ends[:0], s.errs[:0]
				for i := k * per; i < min(n, (k+1)*per); i++ {
					var err error
					s.b, err = m.append(s.b, at(i))
					s.ends, s.errs = append(s.ends, len(s.b)), append(s.errs, err)
				}
				m.longest = max(m.longest, len(s.b))
				s.ready <- struct{}{}
			}
		})
	}
	for k := range batches {
		s := &j.slots[k%marshalAhead]
		<-s.ready
		from := 0
		for v, end := range s.ends {
			write(k*per+v, s.b[from:end], s.errs[v])
			from = end
		}
		tokens <- struct{}{}
	}
	wg.Wait()
}

// marshalSlot is one buffer of marshalled's ring: a batch of values, where each ends in b and
// its error, and word that they are there.
type marshalSlot struct {
	b     []byte
	ends  []int
	errs  []error
	ready chan struct{}
}

// marshaller is what one of marshalled's goroutines keeps from one value to the next.
type marshaller struct {
	pods    timeline.PodWriter
	longest int // the longest batch of the list at hand written
}

// buffer is b emptied for the next batch, or, if it is smaller than the longest batch written so
// far, a buffer of that size: grown by append, 1.25 times at a time, a pod's buffer allocated
// some five times the size it came to (14 of the 31 MB that writing the 2,200 pods of a Job
// allocated), and each collection under the replay's memory limit costs what the heap holds.
func (m *marshaller) buffer(b []byte) []byte {
	if cap(b) < m.longest {
		return make([]byte, 0, m.longest+m.longest/8)
	}
	return b[:0]
}

// append appends v as marshal writes it to b; a value that can (an Event) writes itself there,
// and a Pod is written by m.pods.
func (m *marshaller) append(b []byte, v any) ([]byte, error) {
	var err error
	switch v := v.(type) {
	case *timeline.Pod:
		b, err = m.pods.AppendJSON(b, v)
	case interface{ AppendJSON([]byte) ([]byte, error) }:
		b, err = v.AppendJSON(b)
	default:
		var js []byte
		js, err = marshal(v)
		b = append(b, js...)
	}
	return b, err
}

// marshal is json.Marshal of v, but a value that marshals itself (a Pod) is asked directly:
// json.Marshal would then scan its output again to check and compact what encoding/json made
// compact already, which for a Job's thousands of pods was half of what writing them cost.
func marshal(v any) ([]byte, error) {
	if m, ok := v.(json.Marshaler); ok {
		return m.MarshalJSON()
	}
	return json.Marshal(v)
}

// member writes `,"name":v`.
func (j *jsonWriter) member(name string, v any) {
	b, err := marshal(v)
	if err != nil && j.err == nil {
		j.err = err
	}
	if j.pretty {
		j.buf.Reset()
		if err := json.Indent(&j.buf, b, "  ", "  "); err == nil {
			b = j.buf.Bytes()
		}
	}
	j.raw([]byte(`,` + j.nl(1) + `"` + name + `":` + j.sp()))
	j.raw(b)
}

// nl is a new line at depth d when pretty, else nothing.
func (j *jsonWriter) nl(d int) string {
	if !j.pretty {
		return ""
	}
	return "\n" + string(bytes.Repeat([]byte("  "), d))
}

func (j *jsonWriter) sp() string {
	if j.pretty {
		return " "
	}
	return ""
}
