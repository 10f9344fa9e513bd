package watch

import (
	"context"
	"errors"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// eventWatches makes the namespace-wide pod Event watches of a fake clientset ones the test
// drives: each call takes the next error, if any, or else hands the test a fake watcher. The
// clientset's store still answers lists, so what a list sees and what the watch says are
// apart, as across an expired watch on a real server.
type eventWatches struct {
	calls chan watchCall
	mu    sync.Mutex
	errs  []error
}

type watchCall struct {
	opts metav1.ListOptions
	w    *watch.RaceFreeFakeWatcher
}

func driveEventWatches(c *fake.Clientset, errs ...error) *eventWatches {
	ew := &eventWatches{calls: make(chan watchCall, 10), errs: errs}
	c.PrependWatchReactor("events", func(action clienttesting.Action) (bool, watch.Interface, error) {
		opts := action.(clienttesting.WatchActionImpl).ListOptions
		if opts.FieldSelector != podEventsSelector {
			return false, nil, nil
		}
		ew.mu.Lock()
		defer ew.mu.Unlock()
		if len(ew.errs) > 0 {
			err := ew.errs[0]
			ew.errs = ew.errs[1:]
			return true, nil, err
		}
		w := watch.NewRaceFreeFake()
		ew.calls <- watchCall{opts, w}
		return true, w, nil
	})
	return ew
}

// next waits for the next watch the follower starts.
func (ew *eventWatches) next(t *testing.T, ctx context.Context) watchCall {
	t.Helper()
	select {
	case c := <-ew.calls:
		return c
	case <-ctx.Done():
		t.Fatal("no watch of pod Events started")
		return watchCall{}
	}
}

// delivered is what a test compares of an Event podEvents put.
type delivered struct {
	Type          timeline.WatchType
	Name, Version string
}

// sink collects what podEvents puts and the errors it reports.
type sink struct {
	mu   sync.Mutex
	got  []delivered
	errs []error
}

func (s *sink) put(t timeline.WatchType, e *corev1.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, delivered{t, e.Name, e.ResourceVersion})
}

func (s *sink) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errs = append(s.errs, err)
}

// wait waits until the last Event put is this one, and returns all put so far.
func (s *sink) wait(t *testing.T, ctx context.Context, name, version string) []delivered {
	t.Helper()
	for {
		s.mu.Lock()
		got := append([]delivered(nil), s.got...)
		s.mu.Unlock()
		if n := len(got); n > 0 && got[n-1].Name == name && got[n-1].Version == version {
			return got
		}
		select {
		case <-ctx.Done():
			t.Fatalf("Event %s at version %s not put; got %v", name, version, got)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func (s *sink) errors() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]error(nil), s.errs...)
}

// versioned is an Event of a pod at a resource version.
func versioned(name, podUID, version string) *corev1.Event {
	return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID(name), ResourceVersion: version},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: podUID, UID: types.UID(podUID)}, Reason: "Started"}
}

// startPodEvents runs a podEvents on c until the test ends; it retries after 10 ms.
func startPodEvents(t *testing.T, ctx context.Context, c *fake.Clientset) (*podEvents, *sink) {
	s := &sink{}
	identity := func(obj any) (any, error) { return obj, nil }
	f := newPodEvents(c.CoreV1().Events("ns"), identity, s.put, s.fail)
	f.retry = 10 * time.Millisecond
	go f.run(ctx)
	return f, s
}

// listsOf counts the lists of one pod's Events the clientset was asked for.
func listsOf(c *fake.Clientset, podUID string) int {
	n := 0
	for _, a := range c.Actions() {
		if l, ok := a.(clienttesting.ListActionImpl); ok && l.GetResource().Resource == "events" &&
			l.ListRestrictions.Fields.String() == "involvedObject.kind=Pod,involvedObject.uid="+podUID {
			n++
		}
	}
	return n
}

func TestPodEventsListsThenFollows(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	c := fake.NewClientset(versioned("a.1", "a", "5"), versioned("b.1", "b", "6"))
	ew := driveEventWatches(c)
	f, s := startPodEvents(t, ctx, c)
	w := ew.next(t, ctx)
	if w.opts.ResourceVersion == "" || w.opts.ResourceVersion == "0" {
		t.Errorf("watch from version %q, want the version of a list", w.opts.ResourceVersion)
	}
	f.add("a")
	s.wait(t, ctx, "a.1", "5")

	w.w.Add(versioned("b.2", "b", "7"))    // another pod's: dropped
	w.w.Modify(versioned("a.1", "a", "5")) // listed already
	w.w.Modify(versioned("a.1", "a", "4")) // older than listed
	w.w.Modify(versioned("a.1", "a", "8"))
	w.w.Add(versioned("a.2", "a", "9"))
	w.w.Delete(versioned("a.2", "a", "10"))
	w.w.Delete(versioned("b.1", "b", "11"))
	w.w.Add(versioned("a.3", "a", "12"))
	got := s.wait(t, ctx, "a.3", "12")

	want := []delivered{
		{timeline.Added, "a.1", "5"},
		{timeline.Modified, "a.1", "8"},
		{timeline.Added, "a.2", "9"},
		{timeline.Deleted, "a.2", "10"},
		{timeline.Added, "a.3", "12"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Events put mismatch (-want +got):\n%s", diff)
	}
	f.mu.Lock()
	kept := map[types.UID]map[types.UID]string{}
	for uid, seen := range f.pods {
		kept[uid] = seen
	}
	f.mu.Unlock()
	wantKept := map[types.UID]map[types.UID]string{"a": {"a.1": "8", "a.3": "12"}}
	if diff := cmp.Diff(wantKept, kept); diff != "" {
		t.Errorf("versions kept mismatch (-want +got):\n%s", diff)
	}
	if errs := s.errors(); len(errs) > 0 {
		t.Errorf("errors reported: %v", errs)
	}
}

// TestPodEventsExpired checks that a watch that expires, in its stream or when it starts, is
// followed by a list of every pod's Events and a watch from a fresh version, silently.
func TestPodEventsExpired(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	c := fake.NewClientset(versioned("a.1", "a", "5"))
	// The watch after the first has expired already when it starts.
	ew := driveEventWatches(c, apierrors.NewResourceExpired("too old resource version: 5 (9)"))
	f, s := startPodEvents(t, ctx, c)
	w := ew.next(t, ctx)
	f.add("a")
	s.wait(t, ctx, "a.1", "5")

	// While no watch runs, a.1 changes and a.2 is made: only a list can see them.
	if _, err := c.CoreV1().Events("ns").Update(ctx, versioned("a.1", "a", "6"), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CoreV1().Events("ns").Create(ctx, versioned("a.2", "a", "7"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	gone := apierrors.NewGone("too old resource version").ErrStatus
	w.w.Error(&gone)
	w = ew.next(t, ctx)
	list, err := c.CoreV1().Events("ns").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w.opts.ResourceVersion != list.ResourceVersion {
		t.Errorf("new watch from version %q, want the latest list's %q", w.opts.ResourceVersion, list.ResourceVersion)
	}
	s.wait(t, ctx, "a.2", "7")
	w.w.Add(versioned("a.2", "a", "7")) // seen by the list already
	w.w.Add(versioned("a.3", "a", "8"))
	got := s.wait(t, ctx, "a.3", "8")

	want := []delivered{
		{timeline.Added, "a.1", "5"},
		{timeline.Modified, "a.1", "6"},
		{timeline.Added, "a.2", "7"},
		{timeline.Added, "a.3", "8"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Events put mismatch (-want +got):\n%s", diff)
	}
	if errs := s.errors(); len(errs) > 0 {
		t.Errorf("errors reported for an expired watch: %v", errs)
	}
}

// TestPodEventsForbidden checks that a forbidden watch or list is reported, then retried.
func TestPodEventsForbidden(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	c := fake.NewClientset(versioned("a.1", "a", "5"))
	events := schema.GroupResource{Resource: "events"}
	ew := driveEventWatches(c, apierrors.NewForbidden(events, "", errors.New("no watch")))
	listed := 0
	c.PrependReactor("list", "events", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if action.(clienttesting.ListActionImpl).ListRestrictions.Fields.String() == podEventsSelector {
			return false, nil, nil
		}
		if listed++; listed == 1 {
			return true, nil, apierrors.NewForbidden(events, "", errors.New("no list"))
		}
		return false, nil, nil
	})
	f, s := startPodEvents(t, ctx, c)
	f.add("a")
	w := ew.next(t, ctx)
	s.wait(t, ctx, "a.1", "5")
	w.w.Add(versioned("a.2", "a", "6"))
	s.wait(t, ctx, "a.2", "6")

	var got []string
	for _, err := range s.errors() {
		if !apierrors.IsForbidden(err) {
			t.Errorf("error %v is not Forbidden", err)
		}
		got = append(got, err.Error())
	}
	sort.Strings(got) // the list and the watch fail side by side
	want := []string{"events is forbidden: no watch", "listing the events of pod a: events is forbidden: no list"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors reported mismatch (-want +got):\n%s", diff)
	}
}

// TestPodEventsClosedWatch checks that a watch the server closes is resumed from the last
// version seen, without listing again.
func TestPodEventsClosedWatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	c := fake.NewClientset()
	ew := driveEventWatches(c)
	f, s := startPodEvents(t, ctx, c)
	w := ew.next(t, ctx)
	f.add("a")
	w.w.Add(versioned("a.1", "a", "5"))
	s.wait(t, ctx, "a.1", "5")
	w.w.Stop()
	w = ew.next(t, ctx)
	if w.opts.ResourceVersion != "5" {
		t.Errorf("watch resumed from version %q, want 5", w.opts.ResourceVersion)
	}
	w.w.Add(versioned("a.2", "a", "6"))
	got := s.wait(t, ctx, "a.2", "6")
	want := []delivered{{timeline.Added, "a.1", "5"}, {timeline.Added, "a.2", "6"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Events put mismatch (-want +got):\n%s", diff)
	}
	if n := listsOf(c, "a"); n != 1 {
		t.Errorf("a's Events listed %d times, want 1", n)
	}
}
