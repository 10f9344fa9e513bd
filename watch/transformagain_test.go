package watch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// The reflector transforms a streamed list's objects with the store's transform
// (cache.TransformingStore), and Replace transforms them again: both of a Live's transforms
// must give their own output back unchanged.
var _ cache.TransformingStore = (*relayStore)(nil)

// TestRelayStoreGivesItsTransform: once the first list is in, the store hands the reflector the
// transform it was made with (a relist's objects are its output).
func TestRelayStoreGivesItsTransform(t *testing.T) {
	s := newRelayStore(markTransformed, func(timeline.WatchType, any) {})
	if err := s.Replace(nil, "1"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Transformer()(pod("a", "1"))
	if err != nil || len(got.(*corev1.Pod).ManagedFields) != 0 {
		t.Fatalf("Transformer() = %v, %v: not the store's transform", got, err)
	}
}

// TestRelayStoreStreamsFirstList: the objects of a first streamed list are told as they arrive,
// the reflector's list holding only their keys, and its Replace tells nothing again; a relist's objects wait for its Replace, which tells the
// gone ones' deletions before the rest.
func TestRelayStoreStreamsFirstList(t *testing.T) {
	var got []told
	s := newRelayStore(markTransformed, func(wt timeline.WatchType, obj any) { got = append(got, tell(wt, obj)) })
	stream := func(pods ...*corev1.Pod) []any {
		var list []any
		for _, p := range pods {
			out, err := s.Transformer()(p)
			if err != nil {
				t.Fatal(err)
			}
			list = append(list, out)
		}
		return list
	}
	first := stream(pod("a", "1"), pod("b", "1"))
	for _, o := range first {
		if _, ok := o.(cache.ExplicitKey); !ok {
			t.Fatalf("the reflector's list holds %T; want only the key of an object kept as it streamed", o)
		}
	}
	want := []told{{Type: timeline.Added, Kind: "Pod", Name: "a", Version: "1", Transformed: true},
		{Type: timeline.Added, Kind: "Pod", Name: "b", Version: "1", Transformed: true}}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Fatalf("first list as it streamed told (-got +want):\n%s", diff)
	}
	got = nil
	if err := s.Replace(first, "1"); err != nil || got != nil {
		t.Fatalf("first list's Replace: %v, told %v; want nothing again", err, got)
	}
	relist := stream(pod("c", "2"), pod("a", "2"))
	if got != nil {
		t.Fatalf("a relist as it streamed told %v; want nothing before its Replace", got)
	}
	if err := s.Replace(relist, "2"); err != nil {
		t.Fatal(err)
	}
	want = []told{{Type: timeline.Deleted, Kind: "Pod", Name: "b", Version: "1", Transformed: true},
		{Type: timeline.Added, Kind: "Pod", Name: "c", Version: "2", Transformed: true},
		{Type: timeline.Modified, Kind: "Pod", Name: "a", Version: "2", Transformed: true}}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("relist's Replace told (-got +want):\n%s", diff)
	}
}
