package watch

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
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

// TestPodStoreKeepsShadows: a pod's store passes the pod on, keeps its encoding, tells a new
// version as Modified and the same as nothing, and tells a relist's vanished pod as Deleted with
// the pod as it was kept, whole.
func TestPodStoreKeepsShadows(t *testing.T) {
	var got []*corev1.Pod
	var types []timeline.WatchType
	s := newRelayStore(func(o any) (any, error) { return o, nil }, func(wt timeline.WatchType, obj any) {
		got, types = append(got, obj.(*corev1.Pod)), append(types, wt)
	})
	s.shadow = podShadow
	pod := func(rv string) *corev1.Pod {
		return &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "ns", UID: "u", ResourceVersion: rv},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "busybox"}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
				{Name: "app", RestartCount: 3, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{
					StartedAt: metav1.Unix(100, 0)}}}}}}
	}
	for _, p := range []*corev1.Pod{pod("1"), pod("1"), pod("2")} {
		if err := s.Update(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := s.objects["ns/x"].(*podShade); !ok {
		t.Fatalf("the store keeps %T, want a podShade", s.objects["ns/x"])
	}
	if err := s.Replace(nil, "3"); err != nil {
		t.Fatal(err)
	}
	want := []timeline.WatchType{timeline.Added, timeline.Modified, timeline.Deleted}
	if !slices.Equal(types, want) {
		t.Fatalf("told %v, want %v", types, want)
	}
	if !equality.Semantic.DeepEqual(got[2], pod("2")) {
		t.Errorf("the relist's deletion told\n%+v\nwant the pod kept\n%+v", got[2], pod("2"))
	}
}
