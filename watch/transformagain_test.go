package watch

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// The reflector transforms a streamed list's objects with the store's transform
// (cache.TransformingStore), and Replace transforms them again: both of a Live's transforms
// must give their own output back unchanged.
var _ cache.TransformingStore = (*relayStore)(nil)

// TestRelayStoreGivesItsTransform: the store hands the reflector the transform it was made with.
func TestRelayStoreGivesItsTransform(t *testing.T) {
	s := newRelayStore(markTransformed, func(timeline.WatchType, any) {})
	got, err := s.Transformer()(pod("a", "1"))
	if err != nil || len(got.(*corev1.Pod).ManagedFields) != 0 {
		t.Fatalf("Transformer() = %v, %v: not the store's transform", got, err)
	}
}
