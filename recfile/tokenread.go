package recfile

import (
	"bytes"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// What tokenLine reads of a container's state and of an Event, and the values it reads as the
// library does (see fastdecode.go).

// containerState reads a whole corev1.ContainerState (any member this does not read: give up).
func (r *tokenReader) containerState() (s corev1.ContainerState) {
	r.object(func(name []byte) {
		switch string(name) {
		case "waiting":
			if !r.null() {
				w := &corev1.ContainerStateWaiting{}
				r.object(func(name []byte) {
					switch string(name) {
					case "reason":
						w.Reason = r.str()
					case "message":
						w.Message = r.str()
					default:
						r.bad = true
					}
				})
				s.Waiting = w
			}
		case "running":
			if !r.null() {
				w := &corev1.ContainerStateRunning{}
				r.object(func(name []byte) {
					if string(name) != "startedAt" {
						r.bad = true
						return
					}
					w.StartedAt = r.mtime()
				})
				s.Running = w
			}
		case "terminated":
			if !r.null() {
				s.Terminated = r.terminated()
			}
		default:
			r.bad = true
		}
	})
	return s
}

func (r *tokenReader) terminated() *corev1.ContainerStateTerminated {
	t := &corev1.ContainerStateTerminated{}
	r.object(func(name []byte) {
		switch string(name) {
		case "exitCode":
			t.ExitCode = int32(r.int(32))
		case "signal":
			t.Signal = int32(r.int(32))
		case "reason":
			t.Reason = r.str()
		case "message":
			t.Message = r.str()
		case "startedAt":
			t.StartedAt = r.mtime()
		case "finishedAt":
			t.FinishedAt = r.mtime()
		case "containerID":
			t.ContainerID = r.str()
		default:
			r.bad = true
		}
	})
	return t
}

func (r *tokenReader) event(e *slimWireEvent) {
	r.object(func(name []byte) {
		switch string(name) {
		case "metadata":
			r.eventMeta(&e.Meta)
		case "involvedObject":
			r.objectRef(&e.InvolvedObject)
		case "type":
			e.Type = r.str()
		case "reason":
			e.Reason = r.str()
		case "message":
			e.Message = r.str()
		case "reportingComponent":
			e.Reporting = r.str()
		case "source":
			r.eventSource(&e.Source)
		case "count":
			e.Count = int32(r.int(32))
		case "firstTimestamp":
			e.FirstTimestamp = r.mtime()
		case "lastTimestamp":
			e.LastTimestamp = r.mtime()
		case "eventTime":
			e.EventTime = metav1.MicroTime{Time: r.time(metav1.RFC3339Micro)}
		case "series":
			if !r.null() {
				e.Series = r.eventSeries()
			}
		default:
			r.skip()
		}
	})
}

func (r *tokenReader) eventMeta(m *slimWireEventMeta) {
	r.object(func(name []byte) {
		switch string(name) {
		case "name":
			m.Name = r.unique()
		case "namespace":
			m.Namespace = r.str()
		case "uid":
			m.UID = types.UID(r.unique())
		case "resourceVersion":
			m.ResourceVersion = r.unique()
		default:
			r.skip()
		}
	})
}

func (r *tokenReader) objectRef(o *slimWireObjectRef) {
	r.object(func(name []byte) {
		switch string(name) {
		case "kind":
			o.Kind = r.str()
		case "name":
			o.Name = r.str()
		case "uid":
			o.UID = types.UID(r.str())
		case "fieldPath":
			o.FieldPath = r.str()
		default:
			r.skip()
		}
	})
}

func (r *tokenReader) eventSource(s *slimWireEventSource) {
	r.object(func(name []byte) {
		if string(name) == "component" {
			s.Component = r.str()
		} else {
			r.skip()
		}
	})
}

func (r *tokenReader) eventSeries() *slimWireEventSeries {
	s := &slimWireEventSeries{}
	r.object(func(name []byte) {
		switch string(name) {
		case "count":
			s.Count = int32(r.int(32))
		case "lastObservedTime":
			s.LastObservedTime = metav1.MicroTime{Time: r.time(metav1.RFC3339Micro)}
		default:
			r.skip()
		}
	})
	return s
}

// object reads null (no members) or an object, calling member with each member's name for it
// to read the value. Names with an escape are left to the library.
func (r *tokenReader) object(member func(name []byte)) {
	if r.bad || r.null() {
		return
	}
	if tok, err := r.dec.ReadToken(); err != nil || tok.Kind() != '{' {
		r.bad = true
		return
	}
	for !r.bad {
		if r.dec.PeekKind() == '}' {
			_, err := r.dec.ReadToken()
			r.check(err)
			return
		}
		name, err := r.dec.ReadValue()
		if err != nil || len(name) < 2 || bytes.IndexByte(name, '\\') >= 0 {
			r.bad = true
			return
		}
		member(name[1 : len(name)-1])
	}
}

// array reads an array, calling item for each element (null is not an array here).
func (r *tokenReader) array(item func()) {
	if r.bad {
		return
	}
	if tok, err := r.dec.ReadToken(); err != nil || tok.Kind() != '[' {
		r.bad = true
		return
	}
	for !r.bad {
		if r.dec.PeekKind() == ']' {
			_, err := r.dec.ReadToken()
			r.check(err)
			return
		}
		item()
	}
}

// null reads a null if one comes next.
func (r *tokenReader) null() bool {
	if r.bad || r.dec.PeekKind() != 'n' {
		return false
	}
	_, err := r.dec.ReadToken()
	r.check(err)
	return true
}

// str reads null ("") or a string. The strings of a recording repeat from line to line (names,
// UIDs, reasons, the containers' IDs), so short ones are made once per decoding worker, as the
// library makes them once per line: by far most of what reading by the token allocated.
func (r *tokenReader) str() string { return r.readString(true) }

// unique reads a string that no other line holds (a resourceVersion, an Event's name and UID),
// without keeping it: it would only push out strings that do repeat.
func (r *tokenReader) unique() string { return r.readString(false) }

func (r *tokenReader) readString(keep bool) string {
	if r.bad {
		return ""
	}
	raw, err := r.dec.ReadValue()
	switch {
	case err != nil: // a value read without error is never empty
	case raw[0] == 'n':
		return ""
	case raw[0] == '"':
		in := raw[1 : len(raw)-1]
		// A string of one line is never kept: looking it up would be in vain. One kept is of a
		// text without escapes, and valid UTF-8: so is a text the same as one kept.
		if keep && len(raw) <= maxInterned {
			if s, ok := r.intern.str(in); ok || bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in) {
				if !ok {
					r.intern.keep(in, s)
				}
				return s
			}
		}
		s, ok := unquote(raw)
		if !ok {
			break
		}
		return s
	}
	r.bad = true
	return ""
}

// maxInterned is the longest string (quoted) that a tokenReader keeps for the next line.
const maxInterned = 80

// unquote is the quoted JSON string raw, unescaped: not ok where it holds invalid UTF-8, which
// the library reads its own way.
func unquote(raw []byte) (string, bool) {
	in := raw[1 : len(raw)-1]
	if bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in) {
		return string(in), true
	}
	b, err := jsontext.AppendUnquote(nil, raw)
	return string(b), err == nil
}

func (r *tokenReader) bool() bool {
	if r.bad {
		return false
	}
	tok, err := r.dec.ReadToken()
	switch {
	case err != nil:
	case tok.Kind() == 't' || tok.Kind() == 'f':
		return tok.Bool()
	case tok.Kind() == 'n':
		return false
	}
	r.bad = true
	return false
}

func (r *tokenReader) boolPtr() *bool {
	if r.null() || r.bad {
		return nil
	}
	v := r.bool()
	return &v
}

// int reads null (0) or a number written as a plain integer that fits in bits.
func (r *tokenReader) int(bits int) int64 {
	if r.bad || r.null() {
		return 0
	}
	raw, err := r.dec.ReadValue()
	if err != nil {
		r.bad = true
		return 0
	}
	v, err := strconv.ParseInt(string(raw), 10, bits) // refuses a string, a fraction, an exponent
	r.check(err)
	return v
}

// time reads a time as timeUnmarshalers do. The times of a recording repeat from line to line
// too (a pod's creation, its conditions' transitions, its containers' starts): those written
// as metav1.Time writes them are parsed once per decoding worker.
func (r *tokenReader) time(layout string) time.Time {
	if r.bad {
		return time.Time{}
	}
	raw, err := r.dec.ReadValue()
	switch {
	case err != nil: // a value read without error is never empty
	case raw[0] == 'n':
		return time.Time{}
	case raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0:
		parse := func() (time.Time, bool) {
			t, err := time.Parse(layout, string(raw[1:len(raw)-1]))
			return t.Local(), err == nil
		}
		var t time.Time
		var ok bool
		if layout == time.RFC3339 {
			t, ok = r.intern.time(raw, parse)
		} else {
			t, ok = parse()
		}
		if !ok {
			break
		}
		return t
	}
	r.bad = true
	return time.Time{}
}

func (r *tokenReader) skip() {
	if !r.bad {
		r.check(r.dec.SkipValue())
	}
}

func (r *tokenReader) check(err error) {
	if err != nil {
		r.bad = true
	}
}

func (r *tokenReader) mtime() metav1.Time { return metav1.Time{Time: r.time(time.RFC3339)} }
