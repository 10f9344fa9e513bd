package recfile

import (
	"errors"
	"reflect"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/sidecar-top/sidecar-top/watch"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// A Reader of slim objects (Options.Objects Slim) decodes a Pod or a core/v1 Event into what Slim keeps of it,
// reading only those members of each line: labels, annotations, volume mounts, images, resources
// and the like are skipped as JSON (checked to be well-formed, not decoded). The object comes out
// as Slim of the whole one (TestSlimReaderReadsAsSlim), so translation sees the same: what replay needs,
// for a fraction of the decoding. A member replay does not read that holds a value of the wrong
// type (a number for the labels) then goes unnoticed, as it would under a Kubernetes client that
// does not know the member.

// slimWire is where a slim decoder reads objects into before it makes them: one per decoding
// worker, used again for every line.
type slimWire struct {
	pod   slimWirePod
	event slimWireEvent

	// A decoder of no objects (NoObjects) decodes every Pod into podObj and every Event into
	// eventObj, once the last line's is translated.
	transient bool
	podObj    corev1.Pod
	eventObj  corev1.Event
}

// reusedPod is podObj, emptied for the next line but for the room of its status lists, which
// fill writes into: nothing holds them once the pod is translated (Observe copies what it reads).
func (s *slimWire) reusedPod() *corev1.Pod {
	st := s.podObj.Status
	s.podObj = corev1.Pod{}
	p := &s.podObj.Status
	p.Conditions, p.InitContainerStatuses = st.Conditions[:0], st.InitContainerStatuses[:0]
	p.ContainerStatuses, p.EphemeralContainerStatuses = st.ContainerStatuses[:0], st.EphemeralContainerStatuses[:0]
	return &s.podObj
}

// owns reports whether obj is the transient decoder's own Pod or Event.
func (s *slimWire) owns(obj any) bool {
	return s.transient && (obj == any(&s.podObj) || obj == any(&s.eventObj))
}

// slimWirePod is what a slim reader decodes of a Pod.
type slimWirePod struct {
	Meta   slimWireMeta   `json:"metadata"`
	Spec   cachedSpec     `json:"spec"`
	Status slimWireStatus `json:"status"`
}

// slimWireMeta is what SlimMeta reads of an object's metadata.
type slimWireMeta struct {
	Name                       string                  `json:"name"`
	Namespace                  string                  `json:"namespace"`
	UID                        types.UID               `json:"uid"`
	ResourceVersion            string                  `json:"resourceVersion"`
	CreationTimestamp          metav1.Time             `json:"creationTimestamp"`
	DeletionTimestamp          *metav1.Time            `json:"deletionTimestamp"`
	DeletionGracePeriodSeconds *int64                  `json:"deletionGracePeriodSeconds"`
	OwnerReferences            []metav1.OwnerReference `json:"ownerReferences"`
}

func (m *slimWireMeta) meta() metav1.ObjectMeta {
	return watch.SlimMeta(&metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID,
		ResourceVersion: m.ResourceVersion, CreationTimestamp: m.CreationTimestamp,
		DeletionTimestamp: m.DeletionTimestamp, DeletionGracePeriodSeconds: m.DeletionGracePeriodSeconds,
		OwnerReferences: m.OwnerReferences})
}

// slimWireStatus is what slimPod keeps of a PodStatus.
type slimWireStatus struct {
	Phase                      corev1.PodPhase                   `json:"phase"`
	Reason                     string                            `json:"reason"`
	Conditions                 wireList[slimWireCondition]       `json:"conditions"`
	InitContainerStatuses      wireList[slimWireContainerStatus] `json:"initContainerStatuses"`
	ContainerStatuses          wireList[slimWireContainerStatus] `json:"containerStatuses"`
	EphemeralContainerStatuses wireList[slimWireContainerStatus] `json:"ephemeralContainerStatuses"`
}

type slimWireCondition struct {
	Type               corev1.PodConditionType `json:"type"`
	Status             corev1.ConditionStatus  `json:"status"`
	Reason             string                  `json:"reason"`
	Message            string                  `json:"message"`
	LastTransitionTime metav1.Time             `json:"lastTransitionTime"`
}

type slimWireContainerStatus struct {
	Name                 string                `json:"name"`
	State                corev1.ContainerState `json:"state"`
	LastTerminationState corev1.ContainerState `json:"lastState"`
	Ready                bool                  `json:"ready"`
	RestartCount         int32                 `json:"restartCount"`
	Started              *bool                 `json:"started"`
	ContainerID          string                `json:"containerID"`
}

// reset readies w for the next pod, whose spec goes through spec, keeping its lists' room.
func (w *slimWirePod) reset(spec cachedSpec) {
	st := &w.Status
	c, i, a, e := st.Conditions.items, st.InitContainerStatuses.items, st.ContainerStatuses.items, st.EphemeralContainerStatuses.items
	*w = slimWirePod{Spec: spec}
	st.Conditions.items, st.InitContainerStatuses.items = c[:0], i[:0]
	st.ContainerStatuses.items, st.EphemeralContainerStatuses.items = a[:0], e[:0]
}

// wireList is a JSON array read into a slice used again from object to object (where decoding
// into a new slice grew one for every pod, a tenth of what a replay allocated); set says the
// member held an array, not null or nothing, which decodes to a nil slice.
type wireList[T any] struct {
	items []T
	set   bool
}

// UnmarshalJSONFrom implements json.UnmarshalerFrom.
func (l *wireList[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	l.items, l.set = l.items[:0], false
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		return err
	case '[':
	default:
		var v []T
		return json.UnmarshalDecode(dec, &v) // the library's error for what is not an array
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for dec.PeekKind() != ']' {
		var zero T
		l.items = append(l.items, zero)
		if err := json.UnmarshalDecode(dec, &l.items[len(l.items)-1]); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	l.set = true
	return err
}

// fill makes p, whose spec w decoded, the Pod that slimPod would make of the whole one.
// The status lists go into p's own (empty, with room) where a transient decoder reuses p.
func (w *slimWirePod) fill(p *corev1.Pod) {
	old := p.Status
	p.TypeMeta = metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}
	p.ObjectMeta = w.Meta.meta()
	p.Status = corev1.PodStatus{Phase: w.Status.Phase, Reason: w.Status.Reason,
		InitContainerStatuses:      slimWireStatuses(old.InitContainerStatuses, w.Status.InitContainerStatuses),
		ContainerStatuses:          slimWireStatuses(old.ContainerStatuses, w.Status.ContainerStatuses),
		EphemeralContainerStatuses: slimWireStatuses(old.EphemeralContainerStatuses, w.Status.EphemeralContainerStatuses)}
	if l := w.Status.Conditions; l.set {
		out := into(old.Conditions, len(l.items))
		for _, c := range l.items {
			out = append(out, corev1.PodCondition{Type: c.Type, Status: c.Status, Reason: c.Reason,
				Message: c.Message, LastTransitionTime: c.LastTransitionTime})
		}
		p.Status.Conditions = out
	}
}

// slimWireStatuses are the statuses l holds, written into dst's room: nil for a list that was
// null or absent, as decoding the whole pod leaves it.
func slimWireStatuses(dst []corev1.ContainerStatus, l wireList[slimWireContainerStatus]) []corev1.ContainerStatus {
	if !l.set {
		return nil
	}
	out := into(dst, len(l.items))
	for i := range l.items {
		c := &l.items[i]
		out = append(out, corev1.ContainerStatus{Name: c.Name, ContainerID: c.ContainerID, RestartCount: c.RestartCount,
			Ready: c.Ready, Started: c.Started, State: c.State, LastTerminationState: c.LastTerminationState})
	}
	return out
}

// into is dst emptied, with room for n: a new slice (not nil, even for none) when dst has none.
func into[T any](dst []T, n int) []T {
	if dst == nil {
		return make([]T, 0, n)
	}
	return slices.Grow(dst[:0], n)
}

// slimWireEvent is what slimEvent keeps of a core/v1 Event.
type slimWireEvent struct {
	Meta           slimWireEventMeta    `json:"metadata"`
	InvolvedObject slimWireObjectRef    `json:"involvedObject"`
	Type           string               `json:"type"`
	Reason         string               `json:"reason"`
	Message        string               `json:"message"`
	Reporting      string               `json:"reportingComponent"`
	Source         slimWireEventSource  `json:"source"`
	Count          int32                `json:"count"`
	FirstTimestamp metav1.Time          `json:"firstTimestamp"`
	LastTimestamp  metav1.Time          `json:"lastTimestamp"`
	EventTime      metav1.MicroTime     `json:"eventTime"`
	Series         *slimWireEventSeries `json:"series"`
}

type slimWireEventMeta struct {
	Name            string    `json:"name"`
	Namespace       string    `json:"namespace"`
	UID             types.UID `json:"uid"`
	ResourceVersion string    `json:"resourceVersion"`
}

type slimWireObjectRef struct {
	Kind      string    `json:"kind"`
	Name      string    `json:"name"`
	UID       types.UID `json:"uid"`
	FieldPath string    `json:"fieldPath"`
}

type slimWireEventSource struct {
	Component string `json:"component"`
}

type slimWireEventSeries struct {
	Count            int32            `json:"count"`
	LastObservedTime metav1.MicroTime `json:"lastObservedTime"`
}

// fill makes e the Event that slimEvent would make of the whole one.
func (w *slimWireEvent) fill(e *corev1.Event) {
	*e = corev1.Event{
		TypeMeta: metav1.TypeMeta{Kind: "Event", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: w.Meta.Name, Namespace: w.Meta.Namespace, UID: w.Meta.UID,
			ResourceVersion: w.Meta.ResourceVersion},
		InvolvedObject: corev1.ObjectReference{Kind: w.InvolvedObject.Kind, Name: w.InvolvedObject.Name,
			UID: w.InvolvedObject.UID, FieldPath: w.InvolvedObject.FieldPath},
		Type: w.Type, Reason: w.Reason, Message: w.Message, ReportingController: w.Reporting,
		Source: corev1.EventSource{Component: w.Source.Component}, Count: w.Count,
		FirstTimestamp: w.FirstTimestamp, LastTimestamp: w.LastTimestamp, EventTime: w.EventTime,
	}
	if w.Series != nil {
		e.Series = &corev1.EventSeries{Count: w.Series.Count, LastObservedTime: w.Series.LastObservedTime}
	}
}

// wholeTypes name, for each wire type, the Kubernetes type it stands for.
var wholeTypes = map[reflect.Type]reflect.Type{
	reflect.TypeFor[slimWirePod]():             reflect.TypeFor[corev1.Pod](),
	reflect.TypeFor[slimWireMeta]():            reflect.TypeFor[metav1.ObjectMeta](),
	reflect.TypeFor[slimWireStatus]():          reflect.TypeFor[corev1.PodStatus](),
	reflect.TypeFor[slimWireCondition]():       reflect.TypeFor[corev1.PodCondition](),
	reflect.TypeFor[slimWireContainerStatus](): reflect.TypeFor[corev1.ContainerStatus](),
	reflect.TypeFor[slimWireEvent]():           reflect.TypeFor[corev1.Event](),
	reflect.TypeFor[slimWireEventMeta]():       reflect.TypeFor[metav1.ObjectMeta](),
	reflect.TypeFor[slimWireObjectRef]():       reflect.TypeFor[corev1.ObjectReference](),
	reflect.TypeFor[slimWireEventSource]():     reflect.TypeFor[corev1.EventSource](),
	reflect.TypeFor[slimWireEventSeries]():     reflect.TypeFor[corev1.EventSeries](),
}

// asWhole has a decoding error name the Kubernetes type a wire type stands for, as the error of
// decoding the whole object would ("cannot unmarshal JSON string into Go v1.PodStatus"), not a
// type of this package.
func asWhole(err error) error {
	var se *json.SemanticError
	if errors.As(err, &se) && se.GoType != nil {
		se.GoType = wholeType(se.GoType)
	}
	return err
}

func wholeType(t reflect.Type) reflect.Type {
	switch t.Kind() {
	case reflect.Slice:
		return reflect.SliceOf(wholeType(t.Elem()))
	case reflect.Pointer:
		return reflect.PointerTo(wholeType(t.Elem()))
	}
	if w, ok := wholeTypes[t]; ok {
		return w
	}
	return t
}
