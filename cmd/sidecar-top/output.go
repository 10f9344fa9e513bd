package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"sync"

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
	bw := bufio.NewWriterSize(w, 1<<16)
	jw := &jsonWriter{w: bw, pretty: pretty}
	head, err := json.Marshal(struct {
		Kind      string `json:"kind"`
		Version   int    `json:"version"`
		Namespace string `json:"namespace,omitempty"`
		Target    string `json:"target,omitempty"`
	}{d.Kind, d.Version, d.Namespace, d.Target})
	if err != nil {
		return err
	}
	jw.raw(head[:len(head)-1]) // the object, still open
	jw.list("pods", len(d.Pods), false, func(i int) any { return d.Pods[i] })
	jw.list("jobs", len(d.Jobs), true, func(i int) any { return d.Jobs[i] })
	jw.list("events", len(d.Events), true, func(i int) any { return d.Events[i] })
	jw.list("notes", len(d.Notes), true, func(i int) any { return d.Notes[i] })
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
	window      [][]byte     // the buffers a window is marshalled into, used again for the next
	marshallers []marshaller // one for each goroutine marshalWindowAt runs, kept for the next window
	err         error
}

// raw writes b, with what a terminal could obey spelled as JSON escapes (jsonsafe): the text
// is kept as it was.
func (j *jsonWriter) raw(b []byte) {
	if j.err == nil {
		_, j.err = j.w.Write(jsonsafe.Escape(b))
	}
}

// list writes `,"name":[v0,v1,...]`, each value marshalled on its own; an empty list is left
// out when omitEmpty.
func (j *jsonWriter) list(name string, n int, omitEmpty bool, at func(int) any) {
	if n == 0 && omitEmpty {
		return
	}
	j.raw([]byte(`,` + j.nl(1) + `"` + name + `":` + j.sp() + `[`))
	for k := range j.marshallers {
		j.marshallers[k].longest = 0 // a list's values are of one kind: a Job's are not an Event's
	}
	for i := range n {
		if i%marshalWindow == 0 {
			var err error
			if j.window, err = j.marshalWindowAt(at, i, min(n, i+marshalWindow)); err != nil && j.err == nil {
				j.err = err
			}
		}
		b := j.window[i%marshalWindow]
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
	}
	if n > 0 {
		j.raw([]byte(j.nl(1)))
	}
	j.raw([]byte("]"))
}

// marshalWindow is how many values of a list are marshalled at once, on every core, before
// they are written in order: the output of a Job's thousands of pods is never held whole.
const marshalWindow = 64

// marshalWindowAt marshals at(from) … at(to-1), spread over GOMAXPROCS goroutines (a snapshot
// is immutable, and what a Pod derives on demand is derived once under a sync.Once), into the
// buffers of j.window where it has them (what the window before was written from): a new slice
// for each pod's JSON, written once, was a twelfth of what replay -o json of a Job allocated.
func (j *jsonWriter) marshalWindowAt(at func(int) any, from, to int) ([][]byte, error) {
	out := j.window[:min(len(j.window), to-from)]
	for len(out) < to-from {
		out = append(out, nil)
	}
	errs := make([]error, to-from)
	workers := min(runtime.GOMAXPROCS(0), to-from)
	for len(j.marshallers) < workers {
		j.marshallers = append(j.marshallers, marshaller{})
	}
	var wg sync.WaitGroup
	for w := range workers {
		m := &j.marshallers[w]
		wg.Go(func() {
			for i := from + w; i < to; i += workers {
				out[i-from], errs[i-from] = m.append(out[i-from][:0], at(i))
			}
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// marshaller is what one of marshalWindowAt's goroutines keeps from one value to the next.
type marshaller struct {
	pods    timeline.PodWriter
	longest int // the longest value of the list at hand written
}

// append appends v as marshal writes it to b; a value that can (an Event) writes itself there,
// and a Pod is written by m.pods. A buffer smaller than the longest value written so far is
// replaced by one of that size first: grown by append, 1.25 times at a time, a pod's buffer
// allocated some five times the size it came to (14 of the 31 MB that writing the 2,200 pods of
// a Job allocated), and each collection under the replay's memory limit costs what the heap
// holds.
func (m *marshaller) append(b []byte, v any) ([]byte, error) {
	if cap(b) < m.longest {
		b = make([]byte, 0, m.longest+m.longest/8)
	}
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
	m.longest = max(m.longest, len(b))
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
