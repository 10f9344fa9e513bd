package watch

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// told is what a test compares of what a watch told: an object's change, or a note.
type told struct {
	Type        timeline.WatchType
	Kind, Name  string // a note's Name is its reason
	Version     string
	Transformed bool // the managed fields the test's objects have are gone
}

func tell(t timeline.WatchType, obj any) told {
	if n, ok := obj.(*Note); ok {
		return told{Type: t, Kind: NoteKind, Name: string(n.Reason)}
	}
	p := obj.(*corev1.Pod)
	return told{Type: t, Kind: "Pod", Name: p.Name, Version: p.ResourceVersion, Transformed: len(p.ManagedFields) == 0}
}

// markTransformed is a transform whose work shows: it drops a copy's managed fields, as
// Sanitize and slim do.
func markTransformed(obj any) (any, error) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, fmt.Errorf("not a pod: %T", obj)
	}
	p = p.DeepCopy()
	p.ManagedFields = nil
	return p, nil
}

func pod(name, version string) *corev1.Pod { return testPod(name, name, version, nil) }

// TestRelayStore drives the store as a reflector would and checks that it tells what a
// SharedIndexInformer's handlers in Live were told.
func TestRelayStore(t *testing.T) {
	var got []told
	s := newRelayStore(markTransformed, func(wt timeline.WatchType, obj any) { got = append(got, tell(wt, obj)) })
	steps := []struct {
		name string
		do   func() error
		want []told
	}{
		{"first list", func() error { return s.Replace([]any{pod("a", "1"), pod("b", "1")}, "1") }, []told{
			{Type: timeline.Added, Kind: "Pod", Name: "a", Version: "1", Transformed: true},
			{Type: timeline.Added, Kind: "Pod", Name: "b", Version: "1", Transformed: true}}},
		{"add", func() error { return s.Add(pod("c", "2")) }, []told{
			{Type: timeline.Added, Kind: "Pod", Name: "c", Version: "2", Transformed: true}}},
		{"update", func() error { return s.Update(pod("a", "3")) }, []told{
			{Type: timeline.Modified, Kind: "Pod", Name: "a", Version: "3", Transformed: true}}},
		{"update, same version", func() error { return s.Update(pod("a", "3")) }, nil},
		{"add of one kept, same version", func() error { return s.Add(pod("b", "1")) }, nil},
		{"add of one kept, new version", func() error { return s.Add(pod("b", "4")) }, []told{
			{Type: timeline.Modified, Kind: "Pod", Name: "b", Version: "4", Transformed: true}}},
		{"update of one not kept", func() error { return s.Update(pod("d", "5")) }, []told{
			{Type: timeline.Added, Kind: "Pod", Name: "d", Version: "5", Transformed: true}}},
		{"delete, with the watch's state", func() error { return s.Delete(pod("c", "6")) }, []told{
			{Type: timeline.Deleted, Kind: "Pod", Name: "c", Version: "6", Transformed: true}}},
		{"delete of one not kept", func() error { return s.Delete(pod("x", "7")) }, []told{
			{Type: timeline.Deleted, Kind: "Pod", Name: "x", Version: "7", Transformed: true}}},
		{"resync", s.Resync, nil},
		// a relist: a unchanged, b gone (its last state kept is told), d changed, e new; c, deleted
		// already, is not told again.
		{"relist", func() error {
			return s.Replace([]any{pod("e", "9"), pod("a", "3"), pod("d", "8")}, "9")
		}, []told{
			{Type: timeline.Deleted, Kind: "Pod", Name: "b", Version: "4", Transformed: true},
			{Type: timeline.Added, Kind: "Pod", Name: "e", Version: "9", Transformed: true},
			{Type: timeline.Modified, Kind: "Pod", Name: "d", Version: "8", Transformed: true}}},
		{"relist of nothing", func() error { return s.Replace(nil, "10") }, []told{
			{Type: timeline.Deleted, Kind: "Pod", Name: "a", Version: "3", Transformed: true},
			{Type: timeline.Deleted, Kind: "Pod", Name: "d", Version: "8", Transformed: true},
			{Type: timeline.Deleted, Kind: "Pod", Name: "e", Version: "9", Transformed: true}}},
		{"a transform's error", func() error {
			if err := s.Add(&corev1.Event{}); err == nil {
				return errors.New("no error")
			}
			return nil
		}, nil},
	}
	for _, st := range steps {
		got = nil
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if diff := cmp.Diff(got, st.want); diff != "" {
			t.Errorf("%s told (-got +want):\n%s", st.name, diff)
		}
	}
}

// scriptedPods is a ListWatch of pods whose answers a test gives: each list takes the next
// list from lists, and each watch started is handed to the test on watches.
type scriptedPods struct {
	lists   chan *corev1.PodList
	watches chan *watch.RaceFreeFakeWatcher
}

func newScriptedPods() *scriptedPods {
	return &scriptedPods{lists: make(chan *corev1.PodList, 10), watches: make(chan *watch.RaceFreeFakeWatcher, 10)}
}

func (s *scriptedPods) list(ctx context.Context, _ metav1.ListOptions) (runtime.Object, error) {
	select {
	case l := <-s.lists:
		return l, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *scriptedPods) watch(context.Context, metav1.ListOptions) (watch.Interface, error) {
	w := watch.NewRaceFreeFake()
	s.watches <- w
	return w, nil
}

func podList(version string, pods ...*corev1.Pod) *corev1.PodList {
	l := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: version}}
	for _, p := range pods {
		l.Items = append(l.Items, *p)
	}
	return l
}

// TestLiveRelistAfterExpiry: a watch the server says expired is listed again; a pod deleted
// meanwhile is told Deleted, one unchanged is not told again, one created meanwhile is Added.
func TestLiveRelistAfterExpiry(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), liveTimeout)
	defer cancel()
	l := NewLiveWithOptions(fake.NewClientset(), Target{Kind: TargetSelector, Namespace: "ns", Selector: "app=x"}, LiveOptions{Recording: true})
	s := newScriptedPods()
	run := l.reflector("pods", &corev1.Pod{}, "", "app=x", s.list, s.watch, l.acceptPod)
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(ctx)
	}()
	defer func() { cancel(); <-done }()

	var got []told
	until := func(name, version string) { // takes what is told until that pod is
		t.Helper()
		for len(got) == 0 || got[len(got)-1].Name != name || got[len(got)-1].Version != version {
			it, err := l.Next(ctx)
			if err != nil {
				t.Fatalf("Next after %v: %v", got, err)
			}
			got = append(got, tell(it.Type, it.Object))
		}
	}
	s.lists <- podList("1", pod("a", "1"), pod("b", "1"))
	w := nextWatch(t, ctx, s)
	w.Modify(pod("a", "2"))
	until("a", "2")
	w.Error(&metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired,
		Message: "too old resource version: 1 (5)"})
	s.lists <- podList("5", pod("a", "2"), pod("c", "4"))
	w = nextWatch(t, ctx, s) // the relist is told before the watch starts again
	w.Add(pod("z", "6"))     // the last one told
	until("z", "6")
	want := []told{
		{Type: timeline.Added, Kind: "Pod", Name: "a", Version: "1", Transformed: true},
		{Type: timeline.Added, Kind: "Pod", Name: "b", Version: "1", Transformed: true},
		{Type: timeline.Modified, Kind: "Pod", Name: "a", Version: "2", Transformed: true},
		{Type: timeline.Added, Kind: NoteKind, Name: string(WatchExpired)},
		{Type: timeline.Deleted, Kind: "Pod", Name: "b", Version: "1", Transformed: true},
		{Type: timeline.Added, Kind: "Pod", Name: "c", Version: "4", Transformed: true},
		{Type: timeline.Added, Kind: "Pod", Name: "z", Version: "6", Transformed: true},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("told (-got +want):\n%s", diff)
	}
}

func nextWatch(t *testing.T, ctx context.Context, s *scriptedPods) *watch.RaceFreeFakeWatcher {
	t.Helper()
	select {
	case w := <-s.watches:
		return w
	case <-ctx.Done():
		t.Fatal("no watch started")
		return nil
	}
}

// TestReflectorRetriesWithinCap: while the server refuses its lists, or its watches, a watch
// tries again at most retryBackoff's cap apart, however many attempts failed before, so that it
// resumes soon after the server answers again. client-go's default back-off would wait 0.8,
// 1.6, 3.2, 6.4 and 12.8 s or more (25 s in all) after five refusals in a row; retryBackoff
// waits 6.9 s at most.
func TestReflectorRetriesWithinCap(t *testing.T) {
	const refusals = 5
	const within = 15 * time.Second // the sixth attempt comes within this of the first
	for _, tc := range []struct {
		name      string
		refuse    string // the call refused: list or watch
		watchList bool   // the first objects come from a watch (the real server's way), not a list
	}{
		{"list", "list", false},
		{"watch after a list", "watch", false},
		{"watch-list", "watch", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(t.Context())
			attempts := make(chan time.Time, 100)
			var n atomic.Int32
			call := func(what string) error {
				if what != tc.refuse {
					return nil
				}
				attempts <- time.Now()
				if n.Add(1) > refusals {
					return nil
				}
				return refused
			}
			pods := &cache.ListWatch{
				ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
					if err := call("list"); err != nil {
						return nil, err
					}
					return podList("1"), nil
				},
				WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
					if err := call("watch"); err != nil {
						return nil, err
					}
					return watch.NewRaceFreeFake(), nil
				},
			}
			var lw cache.ListerWatcher = pods
			if !tc.watchList {
				lw = cache.ToListWatcherWithWatchListSemantics(pods, fake.NewClientset()) // the fake cannot
			}
			errs := make(chan error, 100)
			r := newReflector("pods", lw, &corev1.Pod{}, newRelayStore(markTransformed, func(timeline.WatchType, any) {}))
			done := make(chan struct{})
			go func() {
				defer close(done)
				runReflector(ctx, r, func(err error) { errs <- err })
			}()
			defer func() { cancel(); <-done }()

			var at []time.Time
			deadline := time.After(within)
			for len(at) <= refusals {
				select {
				case a := <-attempts:
					at = append(at, a)
				case <-deadline:
					t.Fatalf("%d attempts to %s within %v, want %d: %v apart", len(at), tc.refuse, within, refusals+1, gaps(at))
				}
			}
			t.Logf("attempts to %s %v apart", tc.refuse, gaps(at))
			// A refused list is the error a list-and-watch ends with, and the user sees it; a
			// refused watch the reflector retries by itself.
			wantErrs := map[string]int{"list": refusals, "watch": 0}[tc.refuse]
			if len(errs) != wantErrs {
				t.Errorf("%d errors handed on, want %d", len(errs), wantErrs)
			}
			for range len(errs) {
				// It names the resource, as an informer's did.
				if err := <-errs; !errors.Is(err, syscall.ECONNREFUSED) || !strings.HasPrefix(err.Error(), "failed to list pods: ") {
					t.Errorf("error handed on: %v, want the refusal to list pods", err)
				}
			}
		})
	}
}

// gaps are the times between attempts.
func gaps(at []time.Time) []time.Duration {
	var d []time.Duration
	for i := 1; i < len(at); i++ {
		d = append(d, at[i].Sub(at[i-1]).Round(time.Millisecond))
	}
	return d
}
