package watch

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestEventStoreKeepsShadows: an Event's store passes the whole Event on, keeps only its
// shadow, still tells a new version as Modified and the same version as nothing, and tells a
// relist's vanished Event as Deleted with the shadow.
func TestEventStoreKeepsShadows(t *testing.T) {
	type heard struct {
		t       timeline.WatchType
		message string
		rv      string
	}
	var got []heard
	s := newRelayStore(func(o any) (any, error) { return o, nil }, func(wt timeline.WatchType, obj any) {
		e := obj.(*corev1.Event)
		got = append(got, heard{wt, e.Message, e.ResourceVersion})
	})
	s.shadow = eventShadow
	ev := func(rv string, count int32) *corev1.Event {
		return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "x.1", Namespace: "ns", ResourceVersion: rv},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "x", UID: "u"}, Reason: "Unhealthy",
			Message: "Readiness probe failed", Count: count}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Add(ev("1", 1)))
	must(s.Update(ev("1", 1)))
	must(s.Update(ev("2", 2)))
	kept, ok := s.objects["ns/x.1"].(*eventShade)
	if !ok || kept.version != "2" || kept.objUID != "u" || kept.name != "x.1" {
		t.Errorf("the store keeps %#v, want the shade of version 2", s.objects["ns/x.1"])
	}
	must(s.Replace(nil, "3"))
	want := []heard{{timeline.Added, "Readiness probe failed", "1"}, {timeline.Modified, "Readiness probe failed", "2"},
		{timeline.Deleted, "", "2"}}
	if len(got) != len(want) {
		t.Fatalf("told %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("told %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
