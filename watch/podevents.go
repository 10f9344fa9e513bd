package watch

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// podEventsSelector is what the one namespace-wide watch asks for: the API server cannot
// select a set of pods, so the Events of other pods come too and are dropped on arrival.
var podEventsSelector = fields.OneTermEqualSelector("involvedObject.kind", "Pod").String()

// maxRetry caps the delay between attempts after a failure: as for the reflectors (reflect.go),
// a watch is asked for again within about 2 s of the API server answering again.
const maxRetry = 2 * time.Second

// steadyWatch is how long a watch must have run for the delay to start again from the first.
const steadyWatch = 10 * time.Second

// podEvents follows the Events of a growing set of pods (a Job's, a Deployment's, a label
// selector's) at a cost that follows that set, not the namespace: no informer, so no cache
// of every pod Event in the namespace, and nothing held for pods outside the set.
//
// One plain watch of the namespace's pod Events (a client-go RetryWatcher, which resumes a
// closed watch from the last version seen) starts from a current resourceVersion; Events of
// pods outside the set are dropped as they arrive. When a pod joins the set, its Events so far
// are listed with a field selector on its UID; the list is taken after the watch's version, so
// together they miss nothing. When the watch expires (410 Gone), a new one starts from a fresh
// version and every pod of the set is listed again. An Event can thus come both ways, or come
// late; each is delivered once per resourceVersion, and never an older version after a newer.
//
// A pod joins the set only after its own item was put, so its Events reach the consumer after
// it. Lists run in their own goroutine so that the watch's Events are never held up behind
// them (the client's rate limit spaces requests).
type podEvents struct {
	client    corev1client.EventInterface
	transform func(any) (any, error)
	put       func(timeline.WatchType, *corev1.Event) // enqueues for the consumer
	fail      func(error)                             // reports an error the user should see
	retry     time.Duration                           // first delay after a failure

	mu      sync.Mutex
	pods    map[types.UID]map[types.UID]string // pod in the set → its Events delivered → resourceVersion
	pending []types.UID                        // pods whose Events are to be listed
	queued  map[types.UID]bool                 // the pods in pending
	ready   bool                               // a watch runs from a version older than any list to come
	wake    chan struct{}
}

func newPodEvents(client corev1client.EventInterface, transform func(any) (any, error),
	put func(timeline.WatchType, *corev1.Event), fail func(error)) *podEvents {
	return &podEvents{client: client, transform: transform, put: put, fail: fail, retry: time.Second,
		pods: map[types.UID]map[types.UID]string{}, queued: map[types.UID]bool{}, wake: make(chan struct{}, 1)}
}

// add puts a pod in the set and has its Events listed. It never blocks: informer handlers call it.
func (f *podEvents) add(uid types.UID) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.pods[uid]; ok {
		return
	}
	f.pods[uid] = map[types.UID]string{}
	f.queueLocked(uid)
}

func (f *podEvents) queueLocked(uid types.UID) {
	if !f.queued[uid] {
		f.queued[uid] = true
		f.pending = append(f.pending, uid)
	}
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// run follows the Events until ctx ends.
func (f *podEvents) run(ctx context.Context) {
	go f.lister(ctx)
	delay := f.retry
	for ctx.Err() == nil {
		began := time.Now()
		err := f.follow(ctx)
		if time.Since(began) > steadyWatch {
			delay = f.retry // it watched: the failure is a new one
		}
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, errExpired):
			delay = f.retry
			continue // start again at once from a fresh version, and list every pod again
		case err != nil:
			f.fail(err)
		}
		if !sleep(ctx, delay) {
			return
		}
		delay = min(2*delay, maxRetry)
	}
}

var errExpired = errors.New("the watch expired")

// follow runs one watch from a current version until it ends. It returns errExpired when the
// version became too old, nil when the watch ended for no reason worth telling (ctx ending),
// and otherwise the error the user should see.
func (f *podEvents) follow(ctx context.Context) error {
	list, err := f.client.List(ctx, metav1.ListOptions{FieldSelector: podEventsSelector, Limit: 1})
	if err != nil {
		return fmt.Errorf("listing pod events: %w", err)
	}
	w, err := watchtools.NewRetryWatcherWithContext(ctx, list.ResourceVersion, &cache.ListWatch{WatchFuncWithContext: f.watch})
	if err != nil {
		return err
	}
	defer w.Stop()
	f.startLists()
	defer f.stopLists()
	for ev := range w.ResultChan() {
		switch ev.Type {
		case watch.Added, watch.Modified, watch.Deleted:
			if e, ok := ev.Object.(*corev1.Event); ok {
				f.observe(ev.Type, e)
			}
		case watch.Error:
			err := apierrors.FromObject(ev.Object)
			if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
				return errExpired
			}
			return err
		}
	}
	return nil
}

// watch starts the namespace's pod Event watch for the RetryWatcher. A RetryWatcher retries
// forever, from the same version, a watch that fails to start with 410 Gone; handing it the
// error as an event instead ends it, and follow starts over from a fresh version.
func (f *podEvents) watch(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
	o.FieldSelector = podEventsSelector
	w, err := f.client.Watch(ctx, o)
	var status apierrors.APIStatus
	if (apierrors.IsResourceExpired(err) || apierrors.IsGone(err)) && errors.As(err, &status) {
		ch := make(chan watch.Event, 1)
		s := status.Status()
		ch <- watch.Event{Type: watch.Error, Object: &s}
		close(ch)
		return watch.NewProxyWatcher(ch), nil
	}
	return w, err
}

// startLists marks a watch as running and has every pod of the set listed (again): Events
// made while no watch ran are found that way.
func (f *podEvents) startLists() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ready = true
	for uid := range f.pods {
		f.queueLocked(uid)
	}
}

func (f *podEvents) stopLists() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ready = false
}

// observe delivers a watched Event if its pod is in the set, and drops it at once otherwise.
func (f *podEvents) observe(t watch.EventType, e *corev1.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if seen, ok := f.pods[e.InvolvedObject.UID]; ok {
		f.deliverLocked(seen, t == watch.Deleted, e)
	}
}

// deliverLocked puts an Event unless this version, or a newer one, was put before. The first
// version of an Event goes out as Added, later ones as Modified, as an informer would say.
func (f *podEvents) deliverLocked(seen map[types.UID]string, deleted bool, e *corev1.Event) {
	last, had := seen[e.UID]
	switch {
	case deleted && !had:
		return
	case deleted:
		delete(seen, e.UID)
	case had && !newer(e.ResourceVersion, last):
		return
	default:
		seen[e.UID] = e.ResourceVersion
	}
	t := timeline.Added
	switch {
	case deleted:
		t = timeline.Deleted
	case had:
		t = timeline.Modified
	}
	obj, _ := f.transform(e)
	f.put(t, obj.(*corev1.Event))
}

// newer tells whether resourceVersion a comes after b. Resource versions are opaque, but the
// API server's are etcd revisions, integers that grow; when they are not, different is newer.
func newer(a, b string) bool {
	x, errA := strconv.ParseUint(a, 10, 64)
	y, errB := strconv.ParseUint(b, 10, 64)
	if errA != nil || errB != nil {
		return a != b
	}
	return x > y
}

// lister lists the Events of each pod queued, one at a time, while a watch runs.
func (f *podEvents) lister(ctx context.Context) {
	delay := f.retry
	for {
		uid, ok := f.next(ctx)
		if !ok {
			return
		}
		if err := f.list(ctx, uid); err != nil {
			if ctx.Err() != nil {
				return
			}
			f.fail(err)
			f.mu.Lock()
			f.queueLocked(uid)
			f.mu.Unlock()
			if !sleep(ctx, delay) {
				return
			}
			delay = min(2*delay, maxRetry)
			continue
		}
		delay = f.retry
	}
}

// next waits for a pod to list while a watch runs; false when ctx ends.
func (f *podEvents) next(ctx context.Context) (types.UID, bool) {
	for {
		f.mu.Lock()
		if f.ready && len(f.pending) > 0 {
			uid := f.pending[0]
			f.pending = f.pending[1:]
			delete(f.queued, uid)
			f.mu.Unlock()
			return uid, true
		}
		f.mu.Unlock()
		select {
		case <-f.wake:
		case <-ctx.Done():
			return "", false
		}
	}
}

// list delivers the Events of one pod that were not delivered yet.
func (f *podEvents) list(ctx context.Context, uid types.UID) error {
	sel := fields.Set{"involvedObject.kind": "Pod", "involvedObject.uid": string(uid)}.AsSelector().String()
	list, err := f.client.List(ctx, metav1.ListOptions{FieldSelector: sel})
	if err != nil {
		return fmt.Errorf("listing the events of pod %s: %w", uid, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	seen := f.pods[uid]
	for i := range list.Items {
		e := list.Items[i]
		if e.InvolvedObject.UID == uid { // a fake clientset ignores field selectors
			f.deliverLocked(seen, false, &e)
		}
	}
	return nil
}
