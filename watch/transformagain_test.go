package watch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The reflector transforms a streamed list's objects with the store's transform
// (cache.TransformingStore), and Replace transforms them again: both of a Live's transforms
// must give their own output back unchanged.
var _ cache.TransformingStore = (*relayStore)(nil)

func TestTransformTwiceIsOnce(t *testing.T) {
	objects := []runtime.Object{richPod(), &corev1.Event{}}
	for _, name := range recordings.Names() {
		f, err := recordings.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		_, items, _, err := ReadAll(f, name)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			objects = append(objects, it.Object)
		}
	}
	for name, transform := range map[string]cache.TransformFunc{"slim": slim, "Sanitize": Sanitize} {
		for i, obj := range objects {
			once, err := transform(obj.DeepCopyObject())
			if err != nil {
				t.Fatal(err)
			}
			twice, err := transform(once.(runtime.Object).DeepCopyObject())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(once, twice); diff != "" {
				t.Fatalf("%s of object %d (%T) changes its own output (-once +twice):\n%s", name, i, obj, diff)
			}
		}
	}
}

// TestRelayStoreGivesItsTransform: the store hands the reflector the transform it was made with.
func TestRelayStoreGivesItsTransform(t *testing.T) {
	s := newRelayStore(markTransformed, func(timeline.WatchType, any) {})
	got, err := s.Transformer()(pod("a", "1"))
	if err != nil || len(got.(*corev1.Pod).ManagedFields) != 0 {
		t.Fatalf("Transformer() = %v, %v: not the store's transform", got, err)
	}
}
