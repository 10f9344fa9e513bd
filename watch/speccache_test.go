package watch

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestWirePodIsPod: wirePod decodes every member a Pod has, and no other, so that a Kubernetes
// version that adds one to Pod fails here rather than drop it from what the reader decodes.
func TestWirePodIsPod(t *testing.T) {
	var pod []string
	for f := range reflect.TypeFor[corev1.Pod]().Fields() {
		if f.Anonymous && f.Type == reflect.TypeFor[metav1.TypeMeta]() {
			for g := range f.Type.Fields() {
				pod = append(pod, jsonName(g))
			}
			continue
		}
		pod = append(pod, jsonName(f))
	}
	var wire []string
	for f := range reflect.TypeFor[wirePod]().Fields() {
		wire = append(wire, jsonName(f))
	}
	slices.Sort(pod)
	slices.Sort(wire)
	if !slices.Equal(pod, wire) {
		t.Errorf("Pod's members are %v; wirePod decodes %v", pod, wire)
	}
	p := &corev1.Pod{}
	w := newWirePod(p, &specCache{})
	if w.Kind != &p.Kind || w.APIVersion != &p.APIVersion || w.ObjectMeta != &p.ObjectMeta || w.Spec.spec != &p.Spec || w.Status != &p.Status {
		t.Error("newWirePod does not point into the Pod")
	}
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}
