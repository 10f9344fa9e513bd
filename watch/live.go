package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// WatchError is a problem an informer met after the watch began. It is not fatal: informers
// retry on their own. Live.Next returns it so the user sees it.
type WatchError struct {
	Resource string
	Err      error
}

func (e *WatchError) Error() string { return "watching " + e.Resource + ": " + e.Err.Error() }
func (e *WatchError) Unwrap() error { return e.Err }

// maxPending bounds the Events kept for pods not seen yet (selector, job and deployment targets
// watch all pod Events of the namespace and keep only their pods').
const maxPending = 1000

// Live watches a target through informers and is a Source. Informer handlers only stamp,
// filter and enqueue; they never block and share nothing with the consumer but the queue.
type Live struct {
	client   kubernetes.Interface
	target   Target
	selector string // label selector for pods, resolved for deployments
	q        *queue[entry]
	base     time.Time

	mu      sync.Mutex // guards stamping and enqueueing, so queue order is receive order
	pods    map[types.UID]bool
	pending []*corev1.Event
}

type entry struct {
	item Item
	err  error
}

// NewLive prepares a watch of t. Call Start, then Next.
func NewLive(client kubernetes.Interface, t Target) *Live {
	return &Live{client: client, target: t, q: newQueue[entry](), base: time.Now(), pods: map[types.UID]bool{}}
}

// now is the receive clock: wall time at start plus the monotonic time since, so that receive
// times are immune to wall-clock steps and still print as times of day.
func (l *Live) now() time.Time { return l.base.Add(time.Since(l.base)).Round(0) }

// Start resolves the target and starts the informers; they stop with ctx.
func (l *Live) Start(ctx context.Context) error {
	t := l.target
	switch t.Kind {
	case TargetJob:
		l.selector = batchv1.JobNameLabel + "=" + t.Name
	case TargetSelector:
		l.selector = t.Selector
	case TargetDeployment:
		d, err := l.client.AppsV1().Deployments(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("deployment %s: %w", t.Name, err)
		}
		sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil {
			return fmt.Errorf("deployment %s has a bad selector: %w", t.Name, err)
		}
		l.selector = sel.String()
	}
	podFields := ""
	if t.Kind == TargetPod {
		podFields = fields.OneTermEqualSelector("metadata.name", t.Name).String()
	}
	// A factory's list options apply to every informer in it: pods, events and jobs each get one.
	pods := l.factory(podFields, l.selector)
	l.inform(pods.Core().V1().Pods().Informer(), "pods", l.acceptPod)
	evFields := fields.Set{"involvedObject.kind": "Pod"}
	if t.Kind == TargetPod {
		evFields["involvedObject.name"] = t.Name
	}
	events := l.factory(fields.SelectorFromSet(evFields).String(), "")
	l.inform(events.Core().V1().Events().Informer(), "events", l.acceptPodEvent)
	factories := []informers.SharedInformerFactory{pods, events}
	if t.Kind == TargetJob {
		jobs := l.factory(fields.OneTermEqualSelector("metadata.name", t.Name).String(), "")
		l.inform(jobs.Batch().V1().Jobs().Informer(), "jobs", l.acceptJob)
		jobEvents := l.factory(fields.SelectorFromSet(fields.Set{"involvedObject.kind": "Job", "involvedObject.name": t.Name}).String(), "")
		l.inform(jobEvents.Core().V1().Events().Informer(), "job events", l.acceptJobEvent)
		factories = append(factories, jobs, jobEvents)
	}
	for _, f := range factories {
		f.Start(ctx.Done())
	}
	return nil
}

func (l *Live) factory(fieldSelector, labelSelector string) informers.SharedInformerFactory {
	return informers.NewSharedInformerFactoryWithOptions(l.client, 0,
		informers.WithNamespace(l.target.Namespace),
		informers.WithTransform(Sanitize),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector, o.LabelSelector = fieldSelector, labelSelector
		}))
}

// inform registers the handlers: each call is stamped first, filtered (the fake clientset
// ignores field selectors, and selector targets see every pod Event), and enqueued.
// Updates that do not change the ResourceVersion (resyncs) are dropped; a delete seen only
// after a relist comes as a tombstone and is unwrapped.
func (l *Live) inform(inf cache.SharedIndexInformer, resource string, accept func(timeline.WatchType, any)) {
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { accept(timeline.Added, obj) },
		UpdateFunc: func(old, obj any) {
			if o, n := meta(old), meta(obj); o != nil && n != nil && o.GetResourceVersion() == n.GetResourceVersion() {
				return
			}
			accept(timeline.Modified, obj)
		},
		DeleteFunc: func(obj any) {
			if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = t.Obj
			}
			accept(timeline.Deleted, obj)
		},
	})
	_ = inf.SetWatchErrorHandler(func(_ *cache.Reflector, err error) {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
			return // a watch closing or expiring is routine: the reflector relists
		}
		l.q.put(entry{err: &WatchError{Resource: resource, Err: err}})
	})
}

func meta(obj any) metav1.Object {
	m, ok := obj.(metav1.Object)
	if !ok {
		return nil
	}
	return m
}

func (l *Live) acceptPod(t timeline.WatchType, obj any) {
	p, ok := obj.(*corev1.Pod)
	if !ok || (l.target.Kind == TargetPod && p.Name != l.target.Name) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.put(t, p)
	if !l.pods[p.UID] {
		l.pods[p.UID] = true
		// Events listed before their pod: release them now, after it.
		kept := l.pending[:0]
		for _, e := range l.pending {
			if e.InvolvedObject.UID == p.UID {
				l.put(timeline.Added, e)
			} else {
				kept = append(kept, e)
			}
		}
		l.pending = kept
	}
}

func (l *Live) acceptPodEvent(t timeline.WatchType, obj any) {
	e, ok := obj.(*corev1.Event)
	if !ok || e.InvolvedObject.Kind != "Pod" || (l.target.Kind == TargetPod && e.InvolvedObject.Name != l.target.Name) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.target.Kind != TargetPod && !l.pods[e.InvolvedObject.UID] {
		l.hold(t, e)
		return
	}
	l.put(t, e)
}

// hold keeps the latest state of an Event whose pod has not been seen (yet); l.mu is held.
func (l *Live) hold(t timeline.WatchType, e *corev1.Event) {
	for i, p := range l.pending {
		if p.UID == e.UID {
			l.pending = append(l.pending[:i], l.pending[i+1:]...)
			break
		}
	}
	if t == timeline.Deleted {
		return
	}
	l.pending = append(l.pending, e)
	if len(l.pending) > maxPending {
		l.pending = l.pending[len(l.pending)-maxPending:]
	}
}

func (l *Live) acceptJob(t timeline.WatchType, obj any) {
	if j, ok := obj.(*batchv1.Job); ok && j.Name == l.target.Name {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.put(t, j)
	}
}

func (l *Live) acceptJobEvent(t timeline.WatchType, obj any) {
	if e, ok := obj.(*corev1.Event); ok && e.InvolvedObject.Kind == "Job" && e.InvolvedObject.Name == l.target.Name {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.put(t, e)
	}
}

// put stamps and enqueues; l.mu is held. Objects come from the informer's cache, read-only.
func (l *Live) put(t timeline.WatchType, obj runtime.Object) {
	l.q.put(entry{item: Item{Time: l.now(), Type: t, Object: obj}})
}

// Next returns the next item, or a *WatchError (not fatal: keep calling), or ctx's error.
func (l *Live) Next(ctx context.Context) (Item, error) {
	e, err := l.q.get(ctx)
	if err != nil {
		return Item{}, err
	}
	return e.item, e.err
}
