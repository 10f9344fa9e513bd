package watch

import (
	"context"
	"errors"
	"net/url"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// stateClock is a watchState whose clock the test moves and whose notes it keeps.
type stateClock struct {
	now   time.Time
	notes []*Note
}

func (c *stateClock) state() *watchState {
	return newWatchState(func() time.Time { return c.now }, func(n *Note) { c.notes = append(c.notes, n) })
}

var refused = &url.Error{Op: "Get", URL: "https://127.0.0.1:6443/api/v1/namespaces/ns/pods?watch=true",
	Err: &netOpError{syscall.ECONNREFUSED}}

// netOpError stands for the dialer's error, whose text names the refusal.
type netOpError struct{ err error }

func (e *netOpError) Error() string { return "dial tcp 127.0.0.1:6443: connect: " + e.err.Error() }
func (e *netOpError) Unwrap() error { return e.err }

func TestWatchStateNotes(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	c := &stateClock{now: t0}
	s := c.state()
	ctx := context.Background()
	at := func(d time.Duration) time.Time { return t0.Add(d) }

	s.called(ctx, "pods", nil) // the first watch: nothing to say
	c.now = at(10 * time.Second)
	s.ended("pods") // the server went away
	c.now = at(10*time.Second + 300*time.Millisecond)
	s.called(ctx, "pods", refused) // lost, since the watch ended
	c.now = at(12 * time.Second)
	s.called(ctx, "pods", refused) // still lost: said once
	s.called(ctx, "events", apierrors.NewTooManyRequests("the server is starting", 1))
	c.now = at(15 * time.Second)
	s.called(ctx, "pods", nil) // back
	s.called(ctx, "pods", nil) // and still: nothing more
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	s.called(cancelled, "pods", context.Canceled) // the watch stopping: not a fault

	lost := NewNote(WatchLost, "pods")
	lost.Since, lost.Detail = at(10*time.Second), "dial tcp 127.0.0.1:6443: connect: connection refused"
	events := NewNote(WatchLost, "events")
	events.Since, events.Detail = at(12*time.Second), "the server is starting"
	back := NewNote(WatchResumed, "pods")
	back.Since, back.Until = at(10*time.Second), at(15*time.Second)
	if diff := cmp.Diff([]*Note{lost, events, back}, c.notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// TestWatchStateFollow: a watch passed through follow hands on every event, says when the
// server expired it (410), and counts its end only when its consumer did not stop it.
func TestWatchStateFollow(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	c := &stateClock{now: t0}
	s := c.state()
	fw := watch.NewFake()
	w := s.follow("pods", fw)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}
	expired := apierrors.NewResourceExpired("too old resource version: 10 (20)").ErrStatus
	go func() {
		fw.Add(pod)
		fw.Error(&expired)
		fw.Stop() // the server closes it
	}()
	var got []watch.EventType
	for ev := range w.ResultChan() {
		got = append(got, ev.Type)
	}
	if diff := cmp.Diff([]watch.EventType{watch.Added, watch.Error}, got); diff != "" {
		t.Errorf("events handed on (-want +got):\n%s", diff)
	}
	n := NewNote(WatchExpired, "pods")
	n.Since, n.Detail = t0, "too old resource version: 10 (20)"
	if diff := cmp.Diff([]*Note{n}, c.notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if got := s.of["pods"].ended; !got.Equal(t0) {
		t.Errorf("ended = %v, want %v: the server closed the watch", got, t0)
	}

	// Stopped by its consumer, a watch has not ended by itself.
	s = c.state()
	fw = watch.NewFake()
	w = s.follow("events", fw)
	w.Stop()
	for range w.ResultChan() {
	}
	if got := s.of["events"]; got != nil && !got.ended.IsZero() {
		t.Errorf("a watch its consumer stopped counted as ended at %v", got.ended)
	}
}

// TestWatchStateTrack: the calls of a tracked ListWatch are followed.
func TestWatchStateTrack(t *testing.T) {
	c := &stateClock{now: time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)}
	s := c.state()
	fail := true
	lw := s.track("jobs", &cache.ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			if fail {
				return nil, apierrors.NewForbidden(schema.GroupResource{Group: "batch", Resource: "jobs"}, "", errors.New("RBAC: no"))
			}
			return &corev1.PodList{}, nil
		},
		WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			return watch.NewFake(), nil
		},
	})
	ctx := context.Background()
	if _, err := lw.ListWithContext(ctx, metav1.ListOptions{}); err == nil {
		t.Fatal("List did not fail")
	}
	fail = false
	if _, err := lw.ListWithContext(ctx, metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	w, err := lw.WatchWithContext(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	var got []string
	for _, n := range c.notes {
		got = append(got, n.Text())
	}
	want := []string{
		`not watching jobs since 08:00:00.0Z: jobs.batch is forbidden: RBAC: no`,
		"not watching jobs from 08:00:00.0Z to 08:00:00.0Z (0s): watching again; changes made meanwhile come as their latest state",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}
