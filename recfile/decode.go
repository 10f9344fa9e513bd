package recfile

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// Recording lines are decoded with encoding/json/v2 (the github.com/go-json-experiment/json
// mirror until Go 1.27 makes it the standard library's): it decodes the Kubernetes types about
// three times as fast as encoding/json, and its defaults are those of apimachinery's decoder
// where encoding/json's are not. Member names match case-sensitively ("Metadata" is not
// "metadata"), as with apimachinery. Duplicate member names are refused: apimachinery takes the
// last one unless strict, but a line where "kind" or a field appears twice means two things at
// once, and nothing that writes recordings (sidecar-top, kubectl, the API server) writes one.
// Invalid UTF-8 is kept, as U+FFFD, as apimachinery does: a damaged byte in an Event's message
// should not make a whole recording unreadable. The types' own UnmarshalJSON methods
// (metav1.Time, metav1.MicroTime, resource.Quantity, intstr.IntOrString) are called with the
// same raw JSON text as under apimachinery. (Reading metav1.Time here instead, without the
// encoding/json call its method makes, saved allocations but no measurable time on its own; with
// the collector's share of a whole replay counted, it does: see timeUnmarshalers.)
var decodeOptions = json.JoinOptions(jsontext.AllowInvalidUTF8(true), json.WithUnmarshalers(timeUnmarshalers))

// decoded is one line of a recording as the reader hands it on: a record, or a line whose
// object was of a kind the timeline does not use.
type decoded struct {
	Record
	skipped bool
}

// wireLine is an item line as it is written.
type wireLine struct {
	Time   time.Time          `json:"time"`
	Type   timeline.WatchType `json:"type"`
	Object wireObject         `json:"object"`
}

// wireObject decodes the "object" member straight into the typed object its kind and apiVersion
// name, in the same pass as the rest of the line.
type wireObject struct {
	specs   *specCache // the decoding worker's
	slim    *slimWire  // the decoding worker's, when it decodes slim
	obj     runtime.Object
	skipped bool  // an object of a kind this version does not use
	err     error // the object's own decoding error, reported as a malformed object
}

// lineDecoder decodes item lines; each decoding worker has its own.
type lineDecoder struct {
	specs  specCache
	slim   *slimWire
	tokens *tokenReader // a slim decoder's, made on first use
}

func newLineDecoder() *lineDecoder { return &lineDecoder{} }

// newSlimLineDecoder decodes Pods and core/v1 Events as Slim keeps them (see slimWirePod).
func newSlimLineDecoder(transient bool) *lineDecoder {
	return &lineDecoder{specs: specCache{slim: true}, slim: &slimWire{transient: transient}}
}

// decodeLine decodes one item line, with a decoder of its own.
func decodeLine(b []byte) (decoded, error) { return newLineDecoder().decode(b) }

// decode decodes one item line in a single pass.
func (d *lineDecoder) decode(b []byte) (decoded, error) {
	if d.slim != nil {
		l := wireLine{Object: wireObject{specs: &d.specs, slim: d.slim}}
		if d.tokenLine(b, &l) {
			return d.finish(l, b)
		}
	}
	return d.decodeWithLibrary(b)
}

// decodeWithLibrary decodes one item line with the library's reflection.
func (d *lineDecoder) decodeWithLibrary(b []byte) (decoded, error) {
	l := wireLine{Object: wireObject{specs: &d.specs, slim: d.slim}}
	if err := json.Unmarshal(b, &l, decodeOptions); err != nil {
		if l.Object.err != nil {
			return decoded{}, fmt.Errorf("malformed object: %w", l.Object.err)
		}
		return decoded{}, fmt.Errorf("malformed line: %w", err)
	}
	return d.finish(l, b)
}

// finish checks a decoded line, b, and makes its item and observation.
func (d *lineDecoder) finish(l wireLine, b []byte) (decoded, error) {
	switch {
	case l.Time.IsZero():
		return decoded{}, zeroTime(b)
	case l.Type != timeline.Added && l.Type != timeline.Modified && l.Type != timeline.Deleted:
		return decoded{}, fmt.Errorf("malformed line: \"type\" is %q, not ADDED, MODIFIED or DELETED", l.Type)
	case l.Object.skipped:
		return decoded{skipped: true}, nil
	case l.Object.obj == nil:
		return decoded{}, errors.New("malformed line: no \"object\"")
	}
	it := watch.Item{Time: l.Time, Type: l.Type, Object: l.Object.obj}
	obs, ok := watch.Observe(it) // newObject makes only the types Observe knows, and Notes
	if d.slim != nil && d.slim.owns(it.Object) {
		it.Object = nil // the next line is decoded into it: the observation is all there is
	}
	return decoded{Record: Record{Item: it, Obs: obs, IsObs: ok}}, nil
}

// UnmarshalJSONFrom implements json.UnmarshalerFrom.
func (o *wireObject) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	o.err = o.decode(dec)
	return o.err
}

func (o *wireObject) decode(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		return err
	case '{':
	default:
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		return fmt.Errorf("\"object\" is %s, not a JSON object", describe(v))
	}
	kind, apiVersion, ok := sniffTypeMeta(dec.UnreadBuffer())
	if ok {
		return o.decodeTyped(kind, apiVersion, func(obj any) error { return json.UnmarshalDecode(dec, obj) }, dec.SkipValue)
	}
	// Kind and apiVersion could not be read from the bytes (see sniffTypeMeta): find them with
	// the decoder, then decode the object.
	from := dec.StackPointer()
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	start := dec.InputOffset() - int64(len(raw))
	if kind, apiVersion, err = scanTypeMeta(raw); err != nil {
		return err
	}
	return o.decodeTyped(kind, apiVersion, func(obj any) error {
		return within(json.Unmarshal(raw, obj, dec.Options()), from, start)
	}, func() error { return nil })
}

func (o *wireObject) decodeTyped(kind, apiVersion string, decode func(any) error, skip func() error) error {
	switch {
	case kind == "":
		return errors.New("the object has no \"kind\"")
	case apiVersion == "":
		return errors.New("the object has no \"apiVersion\"")
	}
	obj := o.newObject(kind, apiVersion)
	if obj == nil {
		o.skipped = true
		return skip()
	}
	if o.slim != nil {
		if done, err := o.decodeSlim(obj, decode); done {
			return err
		}
	}
	var target any = obj
	if p, ok := obj.(*corev1.Pod); ok && o.specs != nil {
		target = newWirePod(p, o.specs)
	}
	if err := decode(target); err != nil {
		return err
	}
	if c, ok := obj.(interface{ Check() error }); ok {
		if err := c.Check(); err != nil {
			return err
		}
	}
	o.obj = obj
	return nil
}

// decodeSlim decodes a Pod, a core/v1 Event or a Job as a slim reader does (see slimWirePod);
// done is false for an object of another kind, decoded whole.
func (o *wireObject) decodeSlim(obj runtime.Object, decode func(any) error) (done bool, err error) {
	switch obj := obj.(type) {
	case *corev1.Pod:
		w := &o.slim.pod
		w.reset(cachedSpec{o.specs, &obj.Spec})
		if err := decode(w); err != nil {
			return true, asWhole(err)
		}
		w.fill(obj)
		o.obj = obj
	case *corev1.Event:
		w := &o.slim.event
		*w = slimWireEvent{}
		if err := decode(w); err != nil {
			return true, asWhole(err)
		}
		w.fill(obj)
		o.obj = obj
	case *batchv1.Job: // a few lines of a recording: decoded whole, then slimmed
		if err := decode(obj); err != nil {
			return true, err
		}
		o.obj = watch.SlimJob(obj)
	default:
		return false, nil
	}
	return true, nil
}

// newObject is newObject, or the decoding worker's own Pod or Event when it is transient.
func (o *wireObject) newObject(kind, apiVersion string) runtime.Object {
	if o.slim != nil && o.slim.transient && apiVersion == "v1" {
		switch kind {
		case "Pod":
			return o.slim.reusedPod()
		case "Event":
			return &o.slim.eventObj // fill writes every member
		}
	}
	return newObject(kind, apiVersion)
}

// newObject returns an empty object of the kind and apiVersion, or nil for one Observe does
// not know and that is not a Note.
func newObject(kind, apiVersion string) runtime.Object {
	switch {
	case kind == "Pod" && apiVersion == "v1":
		return &corev1.Pod{}
	case kind == "Event" && apiVersion == "v1":
		return &corev1.Event{}
	case kind == "Event" && apiVersion == "events.k8s.io/v1":
		return &eventsv1.Event{}
	case kind == "Job" && apiVersion == "batch/v1":
		return &batchv1.Job{}
	case kind == watch.ContainerLogKind && apiVersion == watch.LogAPIVersion:
		return &watch.ContainerLog{}
	case kind == watch.KubeletLogKind && apiVersion == watch.LogAPIVersion:
		return &watch.KubeletLog{}
	case kind == watch.NoteKind && apiVersion == watch.LogAPIVersion:
		return &watch.Note{} // not an observation: Observe leaves it out
	}
	return nil
}

// zeroTime is the error of line b, whose time decoded as the zero time: it has no "time" (or
// null), or one that names the zero time, 0001-01-01T00:00:00Z, which is not when anything was
// received, and is said to be.
func zeroTime(b []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(b), decodeOptions)
	if _, err := dec.ReadToken(); err == nil {
		for dec.PeekKind() == '"' {
			name, err := dec.ReadToken()
			if err != nil {
				break
			}
			if name.String() != "time" {
				if dec.SkipValue() != nil {
					break
				}
				continue
			}
			if v, err := dec.ReadToken(); err == nil && v.Kind() == '"' {
				return fmt.Errorf("malformed line: \"time\" is %.40q, the zero time: not when anything was received", v.String())
			}
			break
		}
	}
	return errors.New("malformed line: no \"time\"")
}

// within is err, an error of decoding on its own a value that dec had read, with the JSON pointer
// and offset it gives made those of the whole line: what dec's own decoding would have said.
// from is where the value is (dec.StackPointer as it began) and starts (its input offset).
func within(err error, from jsontext.Pointer, start int64) error {
	var se *json.SemanticError
	if errors.As(err, &se) {
		se.JSONPointer = from + se.JSONPointer
		se.ByteOffset += start
	}
	return err
}

// scanTypeMeta finds the top-level "kind" and "apiVersion" of a JSON object wherever they are.
func scanTypeMeta(raw jsontext.Value) (kind, apiVersion string, err error) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), decodeOptions)
	if _, err := dec.ReadToken(); err != nil { // {
		return "", "", err
	}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return "", "", err
		}
		name := tok.String() // a Token is valid until the next read only
		var dst *string
		switch name {
		case "kind":
			dst = &kind
		case "apiVersion":
			dst = &apiVersion
		default:
			if err := dec.SkipValue(); err != nil {
				return "", "", err
			}
			continue
		}
		v, err := dec.ReadToken()
		if err != nil {
			return "", "", err
		}
		if v.Kind() != '"' {
			return "", "", fmt.Errorf("%q is %s, not a string", name, v.Kind())
		}
		*dst = v.String()
	}
	return kind, apiVersion, nil
}

// describe names a JSON value in an error message, safe for a terminal: a string is quoted with
// Go's escapes and cut at 20 bytes, a number is cut at 20 bytes, anything else is named by its
// kind.
func describe(v jsontext.Value) string {
	switch v.Kind() {
	case '"':
		var s string
		if json.Unmarshal(v, &s, decodeOptions) == nil {
			return fmt.Sprintf("the string %.20q", s)
		}
	case '0':
		return fmt.Sprintf("the number %.20s", v)
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f', 'n':
		return v.Kind().String()
	}
	return "not JSON"
}
