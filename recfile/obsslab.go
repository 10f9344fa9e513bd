package recfile

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// obsSlab is where a batch's Pod and Event observations are written, and their conditions and
// containers, for a reader that reuses them (Options.Reuse). Each list only grows within a batch:
// when one is full a bigger one is made, and the observations written into the old one keep it.
type obsSlab struct {
	pods   []timeline.PodObservation
	events []timeline.EventObservation
	conds  []timeline.Condition
	ctrs   []timeline.ContainerObservation
}

// reset empties the slab for a batch's observations, holding none of the last batch's values.
func (s *obsSlab) reset() {
	clear(s.pods)
	clear(s.events)
	clear(s.conds)
	clear(s.ctrs)
	s.pods, s.events, s.conds, s.ctrs = s.pods[:0], s.events[:0], s.conds[:0], s.ctrs[:0]
}

// observe is Observe of it, into the slab's memory for a Pod or a core/v1 Event.
func (s *obsSlab) observe(it watch.Item) (timeline.Observation, bool) {
	switch obj := it.Object.(type) {
	case *corev1.Pod:
		o := slabNext(&s.pods)
		n := len(obj.Spec.InitContainers) + len(obj.Spec.Containers) + len(obj.Spec.EphemeralContainers)
		watch.FillPod(o, obj, slabTake(&s.conds, len(obj.Status.Conditions)), slabTake(&s.ctrs, n))
		return timeline.Observation{Received: it.Time, Type: it.Type, Pod: o}, true
	case *corev1.Event:
		o := slabNext(&s.events)
		watch.FillEvent(o, obj)
		return timeline.Observation{Received: it.Time, Type: it.Type, Event: o}, true
	}
	return watch.Observe(it)
}

// slabChunk is the least a slab's list grows by.
const slabChunk = 64

// slabNext is a new element at the end of *l.
func slabNext[T any](l *[]T) *T {
	if len(*l) == cap(*l) {
		*l = make([]T, 0, max(2*cap(*l), slabChunk))
	}
	*l = (*l)[:len(*l)+1]
	return &(*l)[len(*l)-1]
}

// slabTake is room for n elements at the end of *l, as FillPod's storage: empty, of capacity n (nil
// for none).
func slabTake[T any](l *[]T, n int) []T {
	if n == 0 {
		return nil
	}
	if cap(*l)-len(*l) < n {
		*l = make([]T, 0, max(2*cap(*l), n, slabChunk))
	}
	from := len(*l)
	*l = (*l)[:from+n]
	return (*l)[from : from : from+n]
}
