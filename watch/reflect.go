package watch

import (
	"context"
	"slices"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// retryBackoff spaces a watch's attempts after a failure: 250 ms doubling to 2 s, with 20 %
// jitter, so that a watch resumes within about 2.4 s of the API server answering again,
// whatever happened before. client-go's default (0.8 s doubling to 30 s, with a jitter that
// makes it up to 60 s, and reset only every 2 minutes) left a recorder blind for 53 s after a
// server that was killed five times in a row came back, and a pod's last restart unseen.
// A SharedIndexInformer does not let its reflector's back-off be set (client-go v0.37.2, TODO
// #136943 in tools/cache/reflector.go); a Reflector does. Steps is enough to reach the cap:
// after it, every delay is the cap.
var retryBackoff = wait.Backoff{Duration: 250 * time.Millisecond, Factor: 2, Jitter: 0.2, Cap: 2 * time.Second, Steps: 4}

// retryReset is when retryBackoff starts again from its first step, as a reflector's does.
const retryReset = 2 * time.Minute

// newReflector makes the reflector of one watch: it lists and watches with lw, retries as
// retryBackoff says, and fills store. Its errors name resource ("failed to list pods: ..."),
// as an informer's, whose ObjectDescription it was, did.
func newReflector(resource string, lw cache.ListerWatcher, obj any, store *relayStore) *cache.Reflector {
	b := retryBackoff
	return cache.NewReflectorWithOptions(lw, obj, store,
		cache.ReflectorOptions{Name: resource, TypeDescription: resource, Backoff: &b})
}

// runReflector lists and watches with r until ctx ends, as r.RunWithContext does, and hands
// onError each error a list-and-watch ends with (a failed list, a watch that could not start),
// as an informer hands its watch error handler: a Reflector made outside client-go's cache
// package has no way to set its own handler, which would only log. Between attempts it waits
// as retryBackoff says; the reflector waits so too between watches refused by a server down.
func runReflector(ctx context.Context, r *cache.Reflector, onError func(error)) {
	delay := retryBackoff.DelayWithReset(clock.RealClock{}, retryReset)
	_ = delay.Until(ctx, true, true, func(ctx context.Context) (bool, error) {
		if err := r.ListAndWatchWithContext(ctx); err != nil {
			onError(err)
		}
		return false, nil
	})
}

// relayStore is the store a watch's reflector fills. It keeps the last state of each object,
// transformed, by key, and tells accept what changed, as a SharedIndexInformer's handlers
// were told: an object it did not have is Added, one it had is Modified unless its
// ResourceVersion is the same (a resync, or an object a relist found unchanged), a deleted
// one is Deleted. A relist (Replace) says Deleted, with the last state it had, of each object
// gone meanwhile, before the changes and additions, in the list's order.
//
// The reflector calls it from its own goroutine; accept is called with mu held, so that what
// it is told comes in the order the reflector saw it. accept must not block.
type relayStore struct {
	transform func(any) (any, error)
	accept    func(timeline.WatchType, any)

	// shadow, if set, is what the store keeps of an object once accept was told of it, in
	// place of the object; nil keeps the object.
	shadow func(any) any

	mu      sync.Mutex
	objects map[string]any // by cache.MetaNamespaceKeyFunc
	// listed, if set, is told after each list how many objects it held, once they were told
	// to accept.
	listed func(n int)
	// replaced says a list has been taken whole (Replace): from then on, a streamed list's
	// objects wait for it, as a relist's deletions come before its changes.
	replaced bool
}

func newRelayStore(transform func(any) (any, error), accept func(timeline.WatchType, any)) *relayStore {
	return &relayStore{transform: transform, accept: accept, objects: map[string]any{}}
}

// Add takes an object the watch says was added.
func (s *relayStore) Add(obj any) error { return s.put(obj) }

// Update takes an object the watch says was modified.
func (s *relayStore) Update(obj any) error { return s.put(obj) }

// put keeps obj and says it was added or modified: a SharedIndexInformer too tells an
// addition of an object it has as an update, and an update of one it has not as an addition.
func (s *relayStore) put(obj any) error {
	obj, key, err := s.keyed(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keepLocked(key, obj)
	return nil
}

// keepLocked keeps obj under key and tells accept; s.mu is held.
func (s *relayStore) keepLocked(key string, obj any) {
	old, had := s.objects[key]
	if s.shadow != nil {
		s.objects[key] = s.shadow(obj)
	} else {
		s.objects[key] = obj
	}
	switch {
	case !had:
		s.accept(timeline.Added, obj)
	case sameVersion(old, obj):
		// nothing changed
	default:
		s.accept(timeline.Modified, obj)
	}
}

// Delete forgets an object the watch says was deleted, and says so with the state the watch
// gave, as an informer's handler was told even of an object it did not have.
func (s *relayStore) Delete(obj any) error {
	obj, key, err := s.keyed(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.objects, key)
	s.accept(timeline.Deleted, obj)
	return nil
}

// Replace takes a list, the first one or a relist after a watch ended: what is gone from it
// was deleted meanwhile, and is said Deleted with the last state kept (an informer's handler
// got it in a tombstone); the rest is kept and told as put does.
func (s *relayStore) Replace(list []any, _ string) error {
	objs := make([]any, len(list))
	keys := make([]string, len(list))
	listed := make(map[string]bool, len(list))
	for i, obj := range list {
		if k, ok := obj.(cache.ExplicitKey); ok { // kept as it streamed (Transformer)
			keys[i], listed[string(k)] = string(k), true
			continue
		}
		var err error
		if objs[i], keys[i], err = s.keyed(obj); err != nil {
			return err
		}
		listed[keys[i]] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var gone []string
	for key := range s.objects {
		if !listed[key] {
			gone = append(gone, key)
		}
	}
	slices.Sort(gone)
	for _, key := range gone {
		obj := s.objects[key]
		if sh, ok := obj.(shadowed); ok {
			obj = sh.expand()
		}
		delete(s.objects, key)
		s.accept(timeline.Deleted, obj)
	}
	for i, obj := range objs {
		if obj != nil {
			s.keepLocked(keys[i], obj)
		}
	}
	s.replaced = true
	if s.listed != nil {
		s.listed(len(objs))
	}
	return nil
}

// Transformer is the store's transform, for the reflector's own store of a streamed list
// (cache.TransformingStore): with client-go's watch-list, the reflector gathers the whole first
// list before it calls Replace, and without this it held every object of it as the API server
// sent it (for -A, every pod and Event of the cluster whole at once: the run's peak resident
// set). Each object is transformed as it arrives instead; Replace transforms again, which a
// transform must allow (slim and Sanitize of their own output give the same output).
//
// Until the first list has been taken whole, each object of it is kept and told to accept as
// it arrives (put), rather than all of them at Replace, and the reflector's list holds only its
// key (a cache.ExplicitKey) in its place: the first list of a cluster's 20,000 pods and 100,000
// Events streams for seconds, and the timeline is built while it does, so that the first full
// table follows the list's end instead of starting then; and the list no longer holds a slim
// copy of each object besides the store's until then, the run's peak. Replace takes a key as an
// object kept already. Nothing can be gone from a first list; a relist's objects wait for
// Replace, which says what is gone first.
func (s *relayStore) Transformer() cache.TransformFunc {
	return func(obj any) (any, error) {
		out, err := s.transform(obj)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.replaced {
			return out, nil
		}
		key, err := cache.MetaNamespaceKeyFunc(out)
		if err != nil {
			return nil, err
		}
		s.keepLocked(key, out)
		return cache.ExplicitKey(key), nil
	}
}

// Resync does nothing: it would tell each object kept as an update with the same
// ResourceVersion, which is dropped. The reflector calls it only with a resync period, and
// has none.
func (s *relayStore) Resync() error { return nil }

// keyed transforms obj and gives its key.
func (s *relayStore) keyed(obj any) (any, string, error) {
	obj, err := s.transform(obj)
	if err != nil {
		return nil, "", err
	}
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return nil, "", err
	}
	return obj, key, nil
}

// sameVersion says whether two states of an object have the same ResourceVersion.
func sameVersion(old, obj any) bool {
	o, ok1 := versionOf(old)
	n, ok2 := versionOf(obj)
	return ok1 && ok2 && o == n
}

// versionOf is an object's ResourceVersion, or its shadow's.
func versionOf(obj any) (string, bool) {
	if sh, ok := obj.(shadowed); ok {
		return sh.shadowVersion(), true
	}
	m := meta(obj)
	if m == nil {
		return "", false
	}
	return m.GetResourceVersion(), true
}
