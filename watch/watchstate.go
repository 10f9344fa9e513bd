package watch

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
)

// watchState follows each watch of a Live (pods, events, jobs, job events) through the list and
// watch calls its informer, or podEvents, makes, and says in a note when one stopped and could
// not start again (WatchLost), when the server took it again (WatchResumed), and when the server
// said it expired (WatchExpired, 410 Gone). The informers' own error handler sees none of this:
// a reflector retries a refused watch by itself and relists an expired one without a word.
//
// A watch that ends is not yet lost: a watch ends every few minutes and starts again at once.
// It is lost when the next call fails, and then since it ended.
type watchState struct {
	now  func() time.Time
	note func(*Note) // enqueues a note; called with mu held, so notes come in order
	mu   sync.Mutex
	of   map[string]*watchOf
}

// watchOf is one watch's state.
type watchOf struct {
	ended time.Time // when its last watch ended; zero while one runs
	lost  time.Time // since when it is not watching; zero while it is
}

func newWatchState(now func() time.Time, note func(*Note)) *watchState {
	return &watchState{now: now, note: note, of: map[string]*watchOf{}}
}

func (s *watchState) get(resource string) *watchOf {
	w := s.of[resource]
	if w == nil {
		w = &watchOf{}
		s.of[resource] = w
	}
	return w
}

// called records how a list or watch call of resource went. An error after ctx ended is the
// end of the watch, not a fault.
func (s *watchState) called(ctx context.Context, resource string, err error) {
	if err != nil && ctx.Err() != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.get(resource)
	switch {
	case err == nil:
		if !w.lost.IsZero() {
			n := NewNote(WatchResumed, resource)
			n.Since, n.Until = w.lost, s.now()
			s.note(n)
		}
		w.lost, w.ended = time.Time{}, time.Time{}
	case w.lost.IsZero():
		w.lost = w.ended
		if w.lost.IsZero() {
			w.lost = s.now()
		}
		n := NewNote(WatchLost, resource)
		n.Since, n.Detail = w.lost, errorDetail(err)
		s.note(n)
	}
}

// ended records that a watch of resource ended by itself (its server closed it, or went away).
func (s *watchState) ended(resource string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.get(resource); w.lost.IsZero() {
		w.ended = s.now()
	}
}

// expired says that the server refused to go on with a watch of resource from its version.
func (s *watchState) expired(resource string, st *metav1.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := NewNote(WatchExpired, resource)
	n.Since, n.Detail = s.now(), strings.TrimSpace(st.Message)
	s.note(n)
}

// track wraps a ListWatch so that its calls and its watches' ends are followed.
func (s *watchState) track(resource string, lw *cache.ListWatch) *cache.ListWatch {
	list, start := lw.ListWithContextFunc, lw.WatchFuncWithContext
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			obj, err := list(ctx, o)
			s.called(ctx, resource, err)
			return obj, err
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			w, err := start(ctx, o)
			s.called(ctx, resource, err)
			if err != nil {
				return nil, err
			}
			return s.follow(resource, w), nil
		},
	}
}

// follow passes a watch's events on, noting an expiry and the watch's end.
func (s *watchState) follow(resource string, w watch.Interface) watch.Interface {
	f := &followed{w: w, out: make(chan watch.Event), stop: make(chan struct{})}
	go func() {
		defer close(f.out)
		in := w.ResultChan()
		for {
			select {
			case <-f.stop:
				return
			case ev, ok := <-in:
				if !ok {
					select {
					case <-f.stop: // stopped by its consumer
					default:
						s.ended(resource)
					}
					return
				}
				if st, ok := ev.Object.(*metav1.Status); ok && ev.Type == watch.Error && isExpired(st) {
					s.expired(resource, st)
				}
				select {
				case f.out <- ev:
				case <-f.stop:
					return
				}
			}
		}
	}()
	return f
}

// isExpired says whether a watch's error status is the server's "too old resource version".
func isExpired(st *metav1.Status) bool {
	err := &apierrors.StatusError{ErrStatus: *st}
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// followed is a watch whose events pass through a goroutine that looks at them.
type followed struct {
	w    watch.Interface
	out  chan watch.Event
	stop chan struct{}
	once sync.Once
}

func (f *followed) ResultChan() <-chan watch.Event { return f.out }

func (f *followed) Stop() {
	f.once.Do(func() {
		close(f.stop)
		f.w.Stop()
	})
}

// errorDetail is the part of a failed call's error a note needs: the server's message, or the
// network's error without the request's URL.
func errorDetail(err error) string {
	var st apierrors.APIStatus
	var uerr *url.Error
	switch {
	case errors.As(err, &st) && st.Status().Message != "":
		return strings.TrimSpace(st.Status().Message)
	case errors.As(err, &uerr):
		return uerr.Err.Error()
	}
	return err.Error()
}

// trackedEvents is the Events client of podEvents, whose list and watch calls are followed as
// the informers' are.
type trackedEvents struct {
	corev1client.EventInterface
	state *watchState
}

func (e trackedEvents) List(ctx context.Context, o metav1.ListOptions) (*corev1.EventList, error) {
	l, err := e.EventInterface.List(ctx, o)
	e.state.called(ctx, "events", err)
	return l, err
}

func (e trackedEvents) Watch(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
	w, err := e.EventInterface.Watch(ctx, o)
	e.state.called(ctx, "events", err)
	if err != nil {
		return nil, err
	}
	return e.state.follow("events", w), nil
}
