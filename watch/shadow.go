package watch

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// shadowed is what a watch's store keeps of an object in place of the object (relayStore's
// shadow): enough to tell a new version from the same one, and the object to tell a relist's
// deletion with.
type shadowed interface {
	shadowVersion() string
	expand() any
}

// eventShade is what a watch's store keeps of a core/v1 Event once it has been passed on: its
// identity and version, and what it is about. The store needs no more: it compares versions,
// and tells a relist's vanished Events as Deleted with what it kept, which the timeline drops
// (an Event that expires did not happen to the pod). Keeping whole Events had the store hold
// every Event of a scope a second time beside what the timeline keeps of it; even an Event
// emptied of all but these is a struct of about 700 bytes, this a fifth of that.
type eventShade struct {
	name, namespace, version string
	uid                      types.UID
	kind, objName, objNS     string
	objUID                   types.UID
}

// eventShadow is a relayStore's shadow for Events; other objects are kept as they are.
func eventShadow(obj any) any {
	e, ok := obj.(*corev1.Event)
	if !ok {
		return obj
	}
	o := &e.InvolvedObject
	return &eventShade{name: e.Name, namespace: e.Namespace, version: e.ResourceVersion, uid: e.UID,
		kind: o.Kind, objName: o.Name, objNS: o.Namespace, objUID: o.UID}
}

func (s *eventShade) shadowVersion() string { return s.version }

// expand is the Event as far as the shade knows it.
func (s *eventShade) expand() any {
	return &corev1.Event{
		TypeMeta: metav1.TypeMeta{Kind: "Event", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: s.name, Namespace: s.namespace, UID: s.uid,
			ResourceVersion: s.version},
		InvolvedObject: corev1.ObjectReference{Kind: s.kind, Namespace: s.objNS, Name: s.objName, UID: s.objUID},
	}
}

// podShade is what a watch's store keeps of a pod once it has been passed on: its version, and
// the pod (slim, as the transform made it) in its protobuf encoding, to tell a relist's deletion
// with. The store compares versions at each update and expands a pod only when a relist no
// longer has it. A slim pod held as Go objects is several KB (its quantities, conditions and
// statuses, each a value of its own); its encoding is a single slice a few times smaller, and
// the timeline holds what it needs of the pod anyway.
type podShade struct {
	version string
	data    []byte
}

// podShadow is a relayStore's shadow for pods; other objects are kept as they are, and a pod that
// cannot be encoded too.
func podShadow(obj any) any {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return obj
	}
	data, err := p.Marshal()
	if err != nil {
		return obj
	}
	return &podShade{version: p.ResourceVersion, data: data}
}

func (s *podShade) shadowVersion() string { return s.version }

// expand is the pod as it was kept.
func (s *podShade) expand() any {
	p := &corev1.Pod{}
	if err := p.Unmarshal(s.data); err != nil {
		return p // the store's own encoding: it decodes
	}
	p.TypeMeta = metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}
	return p
}
