package recfile

import (
	"bytes"
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

// TestMarkedSpec: a spec seen before is taken from the cache where a line holds it as the pod's
// spec, and every line that holds that text anywhere else reads (or fails) as the library reads
// it: in metadata, twice, before a literal 0, in an Event or a Job, with a space.
func TestMarkedSpec(t *testing.T) {
	const spec = `{"nodeName":"n","containers":[{"name":"app","image":"i"}],"initContainers":[{"name":"sc","image":"i","restartPolicy":"Always"}]}`
	const head = `{"time":"2026-12-02T08:00:01Z","type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1",`
	const status = `"status":{"phase":"Running"}}}`
	cases := []struct {
		name   string
		line   string
		marked bool // read by the token, with the spec from the cache
	}{
		{"the spec as the recorder writes it", head + `"metadata":{"name":"p","uid":"u"},"spec":` + spec + `,` + status, true},
		{"the spec before metadata", head + `"spec":` + spec + `,"status":{},"metadata":{"name":"p"}}}`, true},
		{"a member spec in metadata first", head + `"metadata":{"name":"p","spec":` + spec + `,"status":{}},"spec":` + spec + `,` + status, false},
		{"a member spec in metadata, the pod's a 0", head + `"metadata":{"name":"p","spec":` + spec + `,"status":1},"spec":0,` + status, false},
		{"the spec twice", head + `"spec":` + spec + `,"status":{},"spec":` + spec + `,` + status, false},
		{"the spec with a space", head + `"spec": ` + spec + `,` + status, false},
		{"the spec, then a space", head + `"spec":` + spec + ` ,` + status, false},
		{"the spec cut short", head + `"spec":` + spec[:len(spec)-1] + `,` + status, false},
		{"in an Event", `{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Event","apiVersion":"v1","related":{"spec":` + spec + `,"status":1},"reason":"Started"}}`, false},
		{"in a Job", `{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Job","apiVersion":"batch/v1","spec":` + spec + `,"status":{}}}`, false},
	}
	first := []byte(head + `"metadata":{"name":"p"},"spec":` + spec + `,` + status)
	for _, c := range cases {
		tok, lib := newSlimLineDecoder(false), newSlimLineDecoder(false)
		if _, diff := decodeBoth(tok, lib, first); diff != "" {
			t.Fatalf("the first line: %s", diff)
		}
		marks := tok.specs.marks
		via, diff := decodeBoth(tok, lib, []byte(c.line))
		if diff != "" {
			t.Errorf("%s: read by the token and by the library differ (-library +token):\n%s", c.name, diff)
		}
		if marked := via && tok.specs.marks > marks; marked != c.marked {
			t.Errorf("%s: spec taken from the cache by its mark: %v, want %v", c.name, marked, c.marked)
		}
	}
	// And the recordings' Pods after their first line are read so.
	for name, data := range slimInputs(t) {
		tok, lib := newSlimLineDecoder(false), newSlimLineDecoder(false)
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n"))[1:] {
			if _, diff := decodeBoth(tok, lib, line); diff != "" {
				t.Fatalf("%s: %s", name, diff)
			}
		}
		if tok.specs.marks == 0 {
			t.Errorf("%s: no spec was taken from the cache by its mark", name)
		}
	}
}
