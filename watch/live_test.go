package watch

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// liveTimeout bounds each live test, so that a bug fails it instead of hanging it.
const liveTimeout = 30 * time.Second

// fakeCluster is a fake clientset whose watches report on a channel when they start. The fake
// ignores field selectors and resource versions, and does not apply label selectors to
// watches, so objects created before an informer's watch starts may be missed: the tests wait
// for every watch, as client-go's examples/fake-client does.
type fakeCluster struct {
	*fake.Clientset
	watches chan string // the resource of each watch started
}

func newFakeCluster(objects ...runtime.Object) *fakeCluster {
	c := &fakeCluster{Clientset: fake.NewClientset(objects...), watches: make(chan string, 100)}
	c.PrependWatchReactor("*", func(action clienttesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if wa, ok := action.(clienttesting.WatchActionImpl); ok {
			opts = wa.ListOptions
		}
		w, err := c.Tracker().Watch(action.GetResource(), action.GetNamespace(), opts)
		if err != nil {
			return false, nil, err
		}
		select {
		case c.watches <- action.GetResource().Resource:
		default:
		}
		return true, w, nil
	})
	return c
}

// startLive starts a Live on the cluster and waits until the watches of these resources
// (one entry per informer, and one for the Events of a Job's, Deployment's or selector's pods)
// have started.
func startLive(t *testing.T, ctx context.Context, c *fakeCluster, target Target, opts LiveOptions, resources ...string) *Live {
	t.Helper()
	l := NewLiveWithOptions(c, target, opts)
	if err := l.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	want := map[string]int{}
	for _, r := range resources {
		want[r]++
	}
	for n := len(resources); n > 0; n-- {
		select {
		case r := <-c.watches:
			if want[r]--; want[r] < 0 {
				t.Fatalf("unexpected watch of %s", r)
			}
		case <-ctx.Done():
			t.Fatalf("watches not started: %v still missing", want)
		}
	}
	return l
}

// seen is what a test compares of an item; its receive time is only checked for order.
type seen struct {
	Type                       timeline.WatchType
	Kind, Name, Version        string
	ManagedFields, LastApplied bool // what Sanitize must have removed
}

func see(it Item) seen {
	m := it.Object.(metav1.Object)
	_, applied := m.GetAnnotations()[lastApplied]
	return seen{Type: it.Type, Kind: it.Object.GetObjectKind().GroupVersionKind().Kind, Name: m.GetName(),
		Version: m.GetResourceVersion(), ManagedFields: len(m.GetManagedFields()) > 0, LastApplied: applied}
}

// collector gathers what a Live delivers, and checks that receive times never go backwards.
type collector struct {
	t    *testing.T
	ctx  context.Context
	l    *Live
	got  []seen
	last time.Time
}

// next takes n items.
func (c *collector) next(n int) {
	c.t.Helper()
	for range n {
		it, err := c.l.Next(c.ctx)
		if err != nil {
			c.t.Fatalf("Next after %v: %v", c.got, err)
		}
		if it.Time.IsZero() || it.Time.Before(c.last) {
			c.t.Errorf("item %d received at %v, before the previous one at %v", len(c.got), it.Time, c.last)
		}
		c.last = it.Time
		c.got = append(c.got, see(it))
	}
}

// testMeta is the metadata of a test object, with what Sanitize removes.
func testMeta(name, uid, version string, labels map[string]string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID(uid), ResourceVersion: version, Labels: labels,
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply}},
		Annotations:   map[string]string{lastApplied: "{}"}}
}

func testPod(name, uid, version string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: testMeta(name, uid, version, labels),
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app"}}}}
}

func podEvent(name, pod, podUID string) *corev1.Event {
	return &corev1.Event{ObjectMeta: testMeta(name, name, "1", nil), Reason: "Started",
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: pod, UID: types.UID(podUID)}}
}

func create[T runtime.Object](t *testing.T, ctx context.Context, fn func(context.Context, T, metav1.CreateOptions) (T, error), obj T) {
	t.Helper()
	if _, err := fn(ctx, obj, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create %T: %v", obj, err)
	}
}

func TestLivePod(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	c := newFakeCluster()
	l := startLive(t, ctx, c, Target{Kind: TargetPod, Name: "app", Namespace: "ns"}, LiveOptions{Recording: true}, "pods", "events")
	pods, events := c.CoreV1().Pods("ns"), c.CoreV1().Events("ns")
	got := &collector{t: t, ctx: ctx, l: l}

	// Another pod comes first: had it passed the filter, it would come out before app.
	create(t, ctx, pods.Create, testPod("other", "other-uid", "1", nil))
	create(t, ctx, pods.Create, testPod("app", "app-uid", "2", nil))
	got.next(1)
	create(t, ctx, events.Create, podEvent("other.1", "other", "other-uid"))
	create(t, ctx, events.Create, podEvent("app.1", "app", "app-uid"))
	got.next(1)

	// An update that does not change the ResourceVersion (a resync) is dropped; had it not
	// been, it would come out before the real update, with version 2.
	same := testPod("app", "app-uid", "2", map[string]string{"resync": "true"})
	if _, err := pods.Update(ctx, same, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pods.Update(ctx, testPod("app", "app-uid", "3", nil), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	got.next(1)
	if err := pods.Delete(ctx, "app", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	got.next(1)

	want := []seen{
		{Type: timeline.Added, Kind: "Pod", Name: "app", Version: "2"},
		{Type: timeline.Added, Kind: "Event", Name: "app.1", Version: "1"},
		{Type: timeline.Modified, Kind: "Pod", Name: "app", Version: "3"},
		{Type: timeline.Deleted, Kind: "Pod", Name: "app", Version: "3"},
	}
	if diff := cmp.Diff(want, got.got); diff != "" {
		t.Errorf("items mismatch (-want +got):\n%s", diff)
	}
}

func TestLiveSelector(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	// The fake applies label selectors to lists but not to watches: a pod that does not match
	// is created before the informers list. An Event of the target's pod made before the watch
	// can only come from the list made when its pod is first seen.
	c := newFakeCluster(testPod("other", "other-uid", "1", map[string]string{"app": "y"}),
		podEvent("web.1", "web", "web-uid"))
	l := startLive(t, ctx, c, Target{Kind: TargetSelector, Selector: "app=x", Namespace: "ns"}, LiveOptions{Recording: true},
		"pods", "events")
	pods, events := c.CoreV1().Pods("ns"), c.CoreV1().Events("ns")
	got := &collector{t: t, ctx: ctx, l: l}

	create(t, ctx, events.Create, podEvent("other.1", "other", "other-uid"))
	create(t, ctx, pods.Create, testPod("web", "web-uid", "2", map[string]string{"app": "x"}))
	got.next(2)
	create(t, ctx, events.Create, podEvent("web.2", "web", "web-uid"))
	got.next(1)

	want := []seen{
		{Type: timeline.Added, Kind: "Pod", Name: "web", Version: "2"},
		{Type: timeline.Added, Kind: "Event", Name: "web.1", Version: "1"}, // listed right after its pod
		{Type: timeline.Added, Kind: "Event", Name: "web.2", Version: "1"},
	}
	if diff := cmp.Diff(want, got.got); diff != "" {
		t.Errorf("items mismatch (-want +got):\n%s", diff)
	}
	// Nothing is kept of the other pod's Event, and nothing else is waiting.
	l.events.mu.Lock()
	var followed []types.UID
	for uid := range l.events.pods {
		followed = append(followed, uid)
	}
	l.events.mu.Unlock()
	if diff := cmp.Diff([]types.UID{"web-uid"}, followed); diff != "" {
		t.Errorf("pods whose Events are followed mismatch (-want +got):\n%s", diff)
	}
	l.q.mu.Lock()
	queued := len(l.q.items)
	l.q.mu.Unlock()
	if queued != 0 {
		t.Errorf("%d items queued after the last expected one, want 0", queued)
	}
}

func TestLiveJob(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	c := newFakeCluster()
	l := startLive(t, ctx, c, Target{Kind: TargetJob, Name: "sc-b1", Namespace: "ns"}, LiveOptions{Recording: true},
		"pods", "events", "jobs", "events")
	jobs, pods, events := c.BatchV1().Jobs("ns"), c.CoreV1().Pods("ns"), c.CoreV1().Events("ns")
	got := &collector{t: t, ctx: ctx, l: l}

	create(t, ctx, jobs.Create, &batchv1.Job{ObjectMeta: testMeta("other", "other-uid", "1", nil)})
	create(t, ctx, jobs.Create, &batchv1.Job{ObjectMeta: testMeta("sc-b1", "job-uid", "2", nil)})
	got.next(1)
	jobEvent := func(name, job string) *corev1.Event {
		return &corev1.Event{ObjectMeta: testMeta(name, name, "1", nil), Reason: "SuccessfulCreate",
			InvolvedObject: corev1.ObjectReference{Kind: "Job", Namespace: "ns", Name: job}}
	}
	create(t, ctx, events.Create, jobEvent("other.1", "other"))
	create(t, ctx, events.Create, jobEvent("sc-b1.1", "sc-b1"))
	got.next(1)
	create(t, ctx, pods.Create, testPod("sc-b1-x7k2p", "pod-uid", "3", map[string]string{batchv1.JobNameLabel: "sc-b1"}))
	got.next(1)
	create(t, ctx, events.Create, podEvent("sc-b1-x7k2p.1", "sc-b1-x7k2p", "pod-uid"))
	got.next(1)

	want := []seen{
		{Type: timeline.Added, Kind: "Job", Name: "sc-b1", Version: "2"},
		{Type: timeline.Added, Kind: "Event", Name: "sc-b1.1", Version: "1"},
		{Type: timeline.Added, Kind: "Pod", Name: "sc-b1-x7k2p", Version: "3"},
		{Type: timeline.Added, Kind: "Event", Name: "sc-b1-x7k2p.1", Version: "1"},
	}
	if diff := cmp.Diff(want, got.got); diff != "" {
		t.Errorf("items mismatch (-want +got):\n%s", diff)
	}
}

func TestLiveDeployment(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	c := newFakeCluster(&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}})

	l := NewLive(c, Target{Kind: TargetDeployment, Name: "nope", Namespace: "ns"})
	err := l.Start(ctx)
	if err == nil || !strings.Contains(err.Error(), "deployment nope") || !strings.Contains(err.Error(), "not found") {
		t.Errorf("Start(deployment/nope) error = %v, want one saying deployment nope is not found", err)
	}

	// An existing Deployment's pods are those its selector matches.
	l = startLive(t, ctx, c, Target{Kind: TargetDeployment, Name: "web", Namespace: "ns"}, LiveOptions{}, "pods", "events")
	if l.selector != "app=web" {
		t.Errorf("deployment/web watches pods with selector %q, want %q", l.selector, "app=web")
	}
	create(t, ctx, c.CoreV1().Pods("ns").Create, testPod("web-1", "web-1-uid", "2", map[string]string{"app": "web"}))
	got := &collector{t: t, ctx: ctx, l: l}
	got.next(1)
	want := []seen{{Type: timeline.Added, Kind: "Pod", Name: "web-1", Version: "2"}}
	if diff := cmp.Diff(want, got.got); diff != "" {
		t.Errorf("items mismatch (-want +got):\n%s", diff)
	}
}

// TestLiveSlimUnlessRecording checks what the informer caches and podEvents hand out: slim
// objects for a view, sanitized whole ones for a recording.
func TestLiveSlimUnlessRecording(t *testing.T) {
	for _, target := range []Target{
		{Kind: TargetPod, Name: "web", Namespace: "ns"},
		{Kind: TargetSelector, Selector: "app=x", Namespace: "ns"},
	} {
		for _, recording := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s recording=%t", target, recording), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
				defer cancel()
				pod := testPod("web", "web-uid", "2", map[string]string{"app": "x"})
				pod.Spec.Containers[0].Image = "busybox"
				ev := podEvent("web.1", "web", "web-uid")
				ev.Source.Host = "node-1"
				c := newFakeCluster(pod, ev)
				l := startLive(t, ctx, c, target, LiveOptions{Recording: recording}, "pods", "events")
				var got []string
				for range 2 {
					it, err := l.Next(ctx)
					if err != nil {
						t.Fatalf("Next: %v", err)
					}
					switch o := it.Object.(type) {
					case *corev1.Pod:
						got = append(got, "pod image "+o.Spec.Containers[0].Image+", labels "+fmt.Sprint(o.Labels))
					case *corev1.Event:
						got = append(got, "event host "+o.Source.Host)
					}
				}
				sort.Strings(got) // a pod target's Event may come before its pod
				want := []string{"event host ", "pod image , labels map[]"}
				if recording {
					want = []string{"event host node-1", "pod image busybox, labels map[app:x]"}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("objects mismatch (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestLiveStartWatches: the watches Start begins for each kind of target, with the field and
// label selectors each lists and watches by.
func TestLiveStartWatches(t *testing.T) {
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	objects := []runtime.Object{
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"}, Spec: appsv1.DeploymentSpec{Selector: selector}},
		&appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "ns"}, Spec: appsv1.StatefulSetSpec{Selector: selector}},
		&appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "ns"}, Spec: appsv1.DaemonSetSpec{Selector: selector}},
		&appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web-5d9f", Namespace: "ns"}, Spec: appsv1.ReplicaSetSpec{Selector: selector}},
		&batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "nightly", Namespace: "ns", UID: "cj-uid"}},
	}
	podEventsWatch := "events [involvedObject.kind=Pod] []"
	tests := []struct {
		target Target
		want   []string // "resource [fields] [labels]", sorted
	}{
		{Target{Kind: TargetPod, Name: "app"}, []string{"events [involvedObject.kind=Pod,involvedObject.name=app] []", "pods [metadata.name=app] []"}},
		{Target{Kind: TargetJob, Name: "batch"}, []string{"events [involvedObject.kind=Job,involvedObject.name=batch] []",
			podEventsWatch, "jobs [metadata.name=batch] []", "pods [] [batch.kubernetes.io/job-name=batch]"}},
		{Target{Kind: TargetCronJob, Name: "nightly"}, []string{podEventsWatch, "jobs [] []", "pods [] [batch.kubernetes.io/job-name]"}},
		{Target{Kind: TargetDeployment, Name: "web"}, []string{podEventsWatch, "pods [] [app=web]"}},
		{Target{Kind: TargetStateful, Name: "db"}, []string{podEventsWatch, "pods [] [app=web]"}},
		{Target{Kind: TargetDaemonSet, Name: "agent"}, []string{podEventsWatch, "pods [] [app=web]"}},
		{Target{Kind: TargetReplicaSet, Name: "web-5d9f"}, []string{podEventsWatch, "pods [] [app=web]"}},
		{Target{Kind: TargetSelector, Selector: "tier in (a,b)"}, []string{podEventsWatch, "pods [] [tier in (a,b)]"}},
		{Target{Kind: TargetPodPattern, Name: "^web-"}, []string{podEventsWatch, "pods [] []"}},
		{Target{Kind: TargetScope}, []string{"events [involvedObject.kind=Pod] []", "pods [] []"}},
		{Target{Kind: TargetScope, Selector: "app=web"}, []string{"events [involvedObject.kind=Pod] []", "pods [] [app=web]"}},
	}
	for _, tt := range tests {
		t.Run(tt.target.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
			defer cancel()
			c := newFakeCluster(objects...)
			if tt.target.Kind != TargetScope {
				tt.target.Namespace = "ns"
			}
			var resources []string
			for _, w := range tt.want {
				resources = append(resources, strings.Fields(w)[0])
			}
			startLive(t, ctx, c, tt.target, LiveOptions{}, resources...)
			var got []string
			for _, a := range c.Actions() {
				if w, ok := a.(clienttesting.WatchActionImpl); ok {
					got = append(got, fmt.Sprintf("%s [%v] [%v]", w.GetResource().Resource, w.WatchRestrictions.Fields, w.WatchRestrictions.Labels))
				}
			}
			sort.Strings(got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("watches mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
