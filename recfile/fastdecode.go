package recfile

import (
	"bytes"
	"io"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// A slim decoder first reads a line of a Pod or a core/v1 Event by the token (tokenLine), with
// the library's tokenizer, into the same wire types the library's decoding fills (wireLine,
// slimWirePod, slimWireEvent), member by member, where the library finds each member's field
// and arshaler by reflection: that bookkeeping was most of what decoding a line cost, more than
// the tokenizing itself (docs/performance.md). It reads only what it expects, as the library
// would read it: plain member names,
// strings, plain integers, true, false, null and times. At anything else (an escape in a member
// name, a number with a fraction, a member the library would decode into a Kubernetes type but
// that is not read here, a line with no time, any error) it gives up and the line is decoded
// again from its start by the library, which makes the same objects or words the error; so the
// token read needs to be right only where it succeeds, and it is held to the library's read of
// every line (TestTokenLineReadsAsLibrary, FuzzTokenLine) and to what translation reads, member
// by member (translatedFields, TestFastDecodeReadsEveryTranslatedField). The short strings and
// the times that repeat are made once per worker (tokenReader.str, .time), where the library's
// own cache of strings made them once per line (BenchmarkReader).

// tokenReader reads one line by the token; bad says it gave up.
type tokenReader struct {
	dec     jsontext.Decoder
	buf     bytes.Buffer
	bad     bool
	intern  *internTable    // the short strings and metav1.Times read before
	marked  []byte          // the line with a spec seen before replaced by a mark (specCache.find)
	markEnd int64           // where the mark ends in marked, or -1: no mark
	spec    *corev1.PodSpec // the spec the mark stands for
}

// tokenLine reads b into l by the token, with the object decoded into slim's wire types and
// the Pod or Event newObject gives; ok is false where the library must decode b instead.
func (d *lineDecoder) tokenLine(b []byte, l *wireLine) (ok bool) {
	r := d.tokens
	if r == nil {
		r = &tokenReader{intern: new(internTable)}
		d.tokens = r
	}
	in := b
	r.markEnd = -1
	if spec, from, to := d.specs.find(b); spec != nil {
		r.marked = append(append(append(r.marked[:0], b[:from]...), specMark), b[to:]...)
		in, r.markEnd, r.spec = r.marked, int64(from+1), spec
	}
	r.buf = *bytes.NewBuffer(in) // the decoder reads a bytes.Buffer's bytes where they are
	r.dec.Reset(&r.buf, decodeOptions)
	r.bad = false
	sawObject := false
	r.object(func(name []byte) {
		switch string(name) {
		case "time":
			r.check(json.UnmarshalDecode(&r.dec, &l.Time))
		case "type":
			l.Type = timeline.WatchType(r.str())
		case "object":
			sawObject = true
			r.typedObject(&l.Object)
		default:
			r.skip()
		}
	})
	if _, err := r.dec.ReadToken(); err != io.EOF {
		r.bad = true // more after the line's object, or the library's error to word
	}
	return !r.bad && sawObject && l.Object.obj != nil
}

// typedObject reads a Pod or a core/v1 Event as decodeSlim does.
func (r *tokenReader) typedObject(o *wireObject) {
	if r.bad || r.dec.PeekKind() != '{' {
		r.bad = true
		return
	}
	kind, apiVersion, ok := sniffTypeMeta(r.dec.UnreadBuffer())
	if !ok || apiVersion != "v1" || kind != "Pod" && kind != "Event" {
		r.bad = true
		return
	}
	switch obj := o.newObject(kind, apiVersion).(type) {
	case *corev1.Pod:
		w := &o.slim.pod
		w.reset(cachedSpec{o.specs, &obj.Spec})
		r.pod(w)
		if !r.bad {
			w.fill(obj)
			o.obj = obj
		}
	case *corev1.Event:
		w := &o.slim.event
		*w = slimWireEvent{}
		r.event(w)
		if !r.bad {
			w.fill(obj)
			o.obj = obj
		}
	}
}

func (r *tokenReader) pod(w *slimWirePod) {
	r.object(func(name []byte) {
		switch string(name) {
		case "metadata":
			r.meta(&w.Meta)
		case "spec":
			if r.markEnd >= 0 && r.dec.PeekKind() == specMark {
				r.markedSpec(&w.Spec)
				return
			}
			r.check(w.Spec.UnmarshalJSONFrom(&r.dec))
		case "status":
			r.status(&w.Status)
		default:
			r.skip()
		}
	})
}

func (r *tokenReader) meta(m *slimWireMeta) {
	r.object(func(name []byte) {
		switch string(name) {
		case "name":
			m.Name = r.str()
		case "namespace":
			m.Namespace = r.str()
		case "uid":
			m.UID = types.UID(r.str())
		case "resourceVersion":
			m.ResourceVersion = r.unique()
		case "creationTimestamp":
			m.CreationTimestamp = r.mtime()
		case "deletionTimestamp":
			if !r.null() {
				m.DeletionTimestamp = &metav1.Time{Time: r.time(time.RFC3339)}
			}
		case "deletionGracePeriodSeconds":
			if !r.null() {
				v := r.int(64)
				m.DeletionGracePeriodSeconds = &v
			}
		case "ownerReferences":
			if !r.null() {
				m.OwnerReferences = []metav1.OwnerReference{}
				r.array(func() {
					m.OwnerReferences = append(m.OwnerReferences, r.ownerReference())
				})
			}
		default:
			r.skip()
		}
	})
}

// ownerReference reads a whole metav1.OwnerReference (any member this does not read: give up).
func (r *tokenReader) ownerReference() (o metav1.OwnerReference) {
	r.object(func(name []byte) {
		switch string(name) {
		case "apiVersion":
			o.APIVersion = r.str()
		case "kind":
			o.Kind = r.str()
		case "name":
			o.Name = r.str()
		case "uid":
			o.UID = types.UID(r.str())
		case "controller":
			o.Controller = r.boolPtr()
		case "blockOwnerDeletion":
			o.BlockOwnerDeletion = r.boolPtr()
		default:
			r.bad = true
		}
	})
	return o
}

func (r *tokenReader) status(s *slimWireStatus) {
	r.object(func(name []byte) {
		switch string(name) {
		case "phase":
			s.Phase = corev1.PodPhase(r.str())
		case "reason":
			s.Reason = r.str()
		case "conditions":
			tokenList(r, &s.Conditions, r.condition)
		case "initContainerStatuses":
			tokenList(r, &s.InitContainerStatuses, r.containerStatus)
		case "containerStatuses":
			tokenList(r, &s.ContainerStatuses, r.containerStatus)
		case "ephemeralContainerStatuses":
			tokenList(r, &s.EphemeralContainerStatuses, r.containerStatus)
		default:
			r.skip()
		}
	})
}

// tokenList reads null or an array into l as wireList.UnmarshalJSONFrom does.
func tokenList[T any](r *tokenReader, l *wireList[T], item func(*T)) {
	l.items, l.set = l.items[:0], false
	if r.null() {
		return
	}
	r.array(func() {
		var zero T
		l.items = append(l.items, zero)
		item(&l.items[len(l.items)-1])
	})
	l.set = !r.bad
}

func (r *tokenReader) condition(c *slimWireCondition) {
	r.object(func(name []byte) {
		switch string(name) {
		case "type":
			c.Type = corev1.PodConditionType(r.str())
		case "status":
			c.Status = corev1.ConditionStatus(r.str())
		case "reason":
			c.Reason = r.str()
		case "message":
			c.Message = r.str()
		case "lastTransitionTime":
			c.LastTransitionTime = r.mtime()
		default:
			r.skip()
		}
	})
}

func (r *tokenReader) containerStatus(c *slimWireContainerStatus) {
	r.object(func(name []byte) {
		switch string(name) {
		case "name":
			c.Name = r.str()
		case "state":
			c.State = r.containerState()
		case "lastState":
			c.LastTerminationState = r.containerState()
		case "ready":
			c.Ready = r.bool()
		case "restartCount":
			c.RestartCount = int32(r.int(32))
		case "started":
			c.Started = r.boolPtr()
		case "containerID":
			c.ContainerID = r.str()
		default:
			r.skip()
		}
	})
}
