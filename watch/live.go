package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sync"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// WatchError is a problem a watch of the target (a reflector's, or podEvents') met after
// the watch began. It is not fatal: both retry on their own. Live.Next returns it so the user
// sees it.
type WatchError struct {
	Resource string
	Err      error
}

func (e *WatchError) Error() string { return "watching " + e.Resource + ": " + e.Err.Error() }
func (e *WatchError) Unwrap() error { return e.Err }

// Transient says a player shows the error and goes on: the watch retries on its own.
func (e *WatchError) Transient() bool { return true }

// LiveOptions say what a Live is for.
type LiveOptions struct {
	// Recording keeps every object as Sanitize leaves it, because the recorder writes it out.
	// Without it the watches' stores and the items hold only what translation reads.
	Recording bool
	// Logs, if set, follows the log of each container run seen (logs.go).
	Logs *LogOptions
	// NodeLogs, if set, polls the kubelet's log on the nodes of the target's pods (nodelogs.go).
	NodeLogs *NodeLogOptions
}

// Live watches a target through reflectors and is a Source. What a reflector's store tells is
// only stamped, filtered and enqueued: that never blocks, and shares nothing with the consumer
// but the queue.
//
// What it keeps follows the target, not the namespace: pods come from a reflector that lists
// and watches only the target's pods; a pod target's Events come from a reflector that selects
// that pod's name; the Events of a Job's, a Deployment's or a selector's pods come from
// podEvents, which caches nothing and drops other pods' Events as they arrive.
type Live struct {
	client   kubernetes.Interface
	target   Target
	opts     LiveOptions
	selector string // label selector for pods, resolved for deployments
	q        *queue[entry]
	clock    receiveClock

	mu     sync.Mutex // guards stamping and enqueueing, so queue order is receive order
	pods   map[types.UID]bool
	events *podEvents     // the Events of the target's pods; nil for a pod target
	cron   *cronJobJobs   // a CronJob target's Jobs; nil for others
	names  *regexp.Regexp // a pattern target's pattern of pod names; nil for others

	logs  *logFollowers // nil: logs are not read
	nodes *nodeLogs     // nil: the kubelet's log is not read

	state *watchState // whether each watch runs, said in notes

	listedMu sync.Mutex      // guards listing
	listing  map[string]bool // the watches whose first list is still to come
	pulse    pulse           // when the API server last answered
}

type entry struct {
	item Item
	err  error
}

// NewLive prepares a watch of t that keeps whole (sanitized) objects, as a recording needs.
// Call Start, then Next.
func NewLive(client kubernetes.Interface, t Target) *Live {
	return NewLiveWithOptions(client, t, LiveOptions{Recording: true})
}

// NewLiveWithOptions prepares a watch of t. Call Start, then Next.
func NewLiveWithOptions(client kubernetes.Interface, t Target, opts LiveOptions) *Live {
	l := &Live{client: client, target: t, opts: opts, q: newQueue[entry](), pods: map[types.UID]bool{}}
	l.state = newWatchState(l.now, l.putNote)
	return l
}

// transform is the watches' transform: objects as the recorder writes them, or slim ones.
func (l *Live) transform(obj any) (any, error) {
	if l.opts.Recording {
		return Sanitize(obj)
	}
	return slim(obj)
}

// now is the receive time of what arrives now (receiveClock).
func (l *Live) now() time.Time { return l.clock.now() }

// Start resolves the target and starts the watches; they stop with ctx.
func (l *Live) Start(ctx context.Context) error {
	if err := l.resolve(ctx); err != nil {
		return err
	}
	if l.target.Kind == TargetScope { // a scope's outputs wait for what was there (Listed)
		l.listing = map[string]bool{"pods": true, "events": true}
	}
	runs := append([]func(context.Context){l.podWatch()}, l.eventWatches(ctx)...)
	runs = append(runs, l.jobWatches()...)
	l.startLogs(ctx)
	for _, run := range runs {
		go run(ctx)
	}
	l.mu.Lock()
	l.answer() // Preflight just had its answers
	l.mu.Unlock()
	go l.beat(ctx)
	return nil
}

// errUnresolved is resolve's error for a kind of target it has no case for: its pods' watch
// would have no selector, and take every pod of the namespace.
var errUnresolved = errors.New("sidecar-top does not know how to find its pods")

// resolve reads what the target's pods are: the label selector their watch lists them by
// (a workload's own, read from the cluster), and for a pattern or a CronJob what acceptPod
// keeps of them. A pod target is found by name (podWatch), a scope by its selector if any.
func (l *Live) resolve(ctx context.Context) error {
	t := l.target
	switch t.Kind {
	case TargetPod: // by its name, in podWatch
	case TargetJob:
		l.selector = batchv1.JobNameLabel + "=" + t.Name
	case TargetSelector, TargetScope:
		l.selector = t.Selector
	case TargetPodPattern: // every pod of the namespace; acceptPod keeps those it names
		re, err := t.NamePattern()
		if err != nil {
			return err
		}
		l.names = re
	case TargetDeployment, TargetStateful, TargetDaemonSet, TargetReplicaSet:
		sel, err := workloadSelector(ctx, l.client, t)
		if err != nil {
			return err
		}
		l.selector = sel
	case TargetCronJob:
		c, err := resolveCronJob(ctx, l.client, t)
		if err != nil {
			return err
		}
		l.cron, l.selector = c, batchv1.JobNameLabel // every Job's pod; acceptPod keeps the CronJob's
	default:
		return fmt.Errorf("cannot watch %s: %w", t, errUnresolved)
	}
	return nil
}

// podWatch is the watch of the target's pods: a pod target's by its name, the others' by the
// selector resolve found.
func (l *Live) podWatch() func(context.Context) {
	podFields := ""
	if l.target.Kind == TargetPod {
		podFields = fields.OneTermEqualSelector("metadata.name", l.target.Name).String()
	}
	pods := l.client.CoreV1().Pods(l.target.Namespace)
	return l.reflector("pods", &corev1.Pod{}, podFields, l.selector, lister(pods.List), pods.Watch, l.acceptPod, l.podsListed)
}

// eventWatches are the watches of the Events of the target's pods: a pod target's by its name;
// a scope's all the pods' Events of the namespace, in one watch rather than podEvents' list per
// pod (thousands of lists when it starts); the others' through podEvents, which follows the
// pods acceptPod adds to it and is started here.
func (l *Live) eventWatches(ctx context.Context) []func(context.Context) {
	events := l.client.CoreV1().Events(l.target.Namespace)
	switch l.target.Kind {
	case TargetPod:
		evFields := fields.Set{"involvedObject.kind": "Pod", "involvedObject.name": l.target.Name}
		return []func(context.Context){l.reflector("events", &corev1.Event{}, fields.SelectorFromSet(evFields).String(), "",
			lister(events.List), events.Watch, l.acceptPodEvent)}
	case TargetScope:
		return []func(context.Context){l.reflector("events", &corev1.Event{}, fields.OneTermEqualSelector("involvedObject.kind", "Pod").String(), "",
			lister(events.List), events.Watch, func(wt timeline.WatchType, obj any) {
				if e, ok := obj.(*corev1.Event); ok {
					l.putEvent(wt, e)
				}
			}, func(int) { l.listed("events") })}
	}
	l.events = newPodEvents(trackedEvents{events, l.state}, l.transform, l.putEvent,
		func(err error) { l.q.put(entry{err: &WatchError{Resource: "events", Err: err}}) })
	go l.events.run(ctx)
	return nil
}

// jobWatches are the watches of Jobs a target needs: a CronJob's, every Job of the namespace,
// which tells cronJobJobs which are the CronJob's; a Job target's, the Job and its own Events.
func (l *Live) jobWatches() []func(context.Context) {
	t := l.target
	jobs := l.client.BatchV1().Jobs(t.Namespace)
	switch t.Kind {
	case TargetCronJob:
		return []func(context.Context){l.reflector("jobs", &batchv1.Job{}, "", "", lister(jobs.List), jobs.Watch, l.cron.acceptJob)}
	case TargetJob:
		events := l.client.CoreV1().Events(t.Namespace)
		return []func(context.Context){
			l.reflector("jobs", &batchv1.Job{}, fields.OneTermEqualSelector("metadata.name", t.Name).String(), "",
				lister(jobs.List), jobs.Watch, l.acceptJob),
			l.reflector("job events", &corev1.Event{},
				fields.SelectorFromSet(fields.Set{"involvedObject.kind": "Job", "involvedObject.name": t.Name}).String(), "",
				lister(events.List), events.Watch, l.acceptJobEvent),
		}
	}
	return nil
}

// lister is a typed client's List as a reflector's list call, which returns a runtime.Object.
func lister[L runtime.Object](list func(context.Context, metav1.ListOptions) (L, error)) func(context.Context, metav1.ListOptions) (runtime.Object, error) {
	return func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) { return list(ctx, o) }
}

// reflector makes the watch of one resource of the target's namespace, to run in its own
// goroutine until ctx ends: its list options, its calls followed by l.state, its objects
// transformed and told to accept (relayStore says how), its errors reported. A reflector
// rather than a SharedIndexInformer, because only a reflector's back-off can be set
// (reflect.go).
func (l *Live) reflector(resource string, obj runtime.Object, fieldSelector, labelSelector string,
	list func(context.Context, metav1.ListOptions) (runtime.Object, error),
	start func(context.Context, metav1.ListOptions) (watch.Interface, error),
	accept func(timeline.WatchType, any), listed ...func(int)) func(context.Context) {
	tweak := func(o metav1.ListOptions) metav1.ListOptions {
		o.FieldSelector, o.LabelSelector = fieldSelector, labelSelector
		return o
	}
	lw := l.state.track(resource, &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			return list(ctx, tweak(o))
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return start(ctx, tweak(o))
		},
	})
	store := newRelayStore(l.transform, accept)
	switch obj.(type) {
	case *corev1.Event:
		store.shadow = eventShadow
	case *corev1.Pod:
		store.shadow = podShadow
	}
	if len(listed) > 0 {
		store.listed = listed[0]
	}
	r := newReflector(resource, cache.ToListWatcherWithWatchListSemantics(lw, l.client), obj, store)
	return func(ctx context.Context) { runReflector(ctx, r, l.watchError(resource)) }
}

// watchError is what a watch of resource does with an error its list or watch ended with:
// the user sees it, unless it is routine.
func (l *Live) watchError(resource string) func(error) {
	return func(err error) {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
			return // a watch closing or expiring is routine: the reflector relists
		}
		l.q.put(entry{err: &WatchError{Resource: resource, Err: err}})
	}
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
	if !ok || (l.target.Kind == TargetPod && p.Name != l.target.Name) || (l.names != nil && !l.names.MatchString(p.Name)) || (l.cron != nil && !l.cron.owns(p)) {
		return
	}
	l.mu.Lock()
	l.put(t, p)
	first := !l.pods[p.UID]
	l.pods[p.UID] = true
	l.mu.Unlock()
	if first && l.events != nil {
		l.events.add(p.UID) // after the pod's item: its Events come after it
	}
	l.podLogs(t, p) // after the pod's item too
}

// podsListed notes the pods' first list.
func (l *Live) podsListed(int) { l.listed("pods") }

// listed notes that resource's first list is in; once the pods' and the Events' have come, a
// scope's watch says so with a Listed note, after what those lists held.
func (l *Live) listed(resource string) {
	l.listedMu.Lock()
	waiting, ok := l.listing[resource]
	if ok && waiting {
		l.listing[resource] = false
	}
	done := ok && waiting
	for _, w := range l.listing {
		done = done && !w
	}
	l.listedMu.Unlock()
	if done {
		l.putNote(NewNote(Listed, ""))
	}
}

// acceptPodEvent takes the Events of a pod target, which may come before the pod.
func (l *Live) acceptPodEvent(t timeline.WatchType, obj any) {
	e, ok := obj.(*corev1.Event)
	if !ok || e.InvolvedObject.Kind != "Pod" || e.InvolvedObject.Name != l.target.Name {
		return
	}
	l.putEvent(t, e)
}

func (l *Live) putEvent(t timeline.WatchType, e *corev1.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.put(t, e)
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

// put stamps and enqueues; l.mu is held. Objects come from a watch's store, read-only.
// An item is also a sign that the server answers.
func (l *Live) put(t timeline.WatchType, obj runtime.Object) {
	l.answer()
	l.q.put(entry{item: Item{Time: l.now(), Type: t, Object: obj}})
}

// putNote stamps and enqueues a note about the watch.
func (l *Live) putNote(n *Note) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.q.put(entry{item: Item{Time: l.now(), Type: timeline.Added, Object: n}})
}

// Next returns the next item, or a *WatchError (not fatal: keep calling), or ctx's error.
func (l *Live) Next(ctx context.Context) (Item, error) {
	e, err := l.q.get(ctx)
	if err != nil {
		return Item{}, err
	}
	return e.item, e.err
}
