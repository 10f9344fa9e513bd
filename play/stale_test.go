package play

import (
	"context"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestEngineNotes: the text of watch notes follows the builder's notes in every snapshot, and a
// note is an item (recorded, counted) but no observation.
func TestEngineNotes(t *testing.T) {
	e := NewEngine(nil)
	pod := &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{
		Namespace: "ns", Name: "web", UID: "uid-web", ResourceVersion: "1"}} // no creationTimestamp: a builder note
	lost := watch.NewNote(watch.WatchLost, "pods")
	lost.Since, lost.Detail = t0, "connection refused"
	back := watch.NewNote(watch.WatchResumed, "pods")
	back.Since, back.Until = t0, t0.Add(4*time.Second)
	for _, it := range []watch.Item{
		{Time: t0, Type: timeline.Added, Object: pod},
		{Time: t0.Add(time.Second), Type: timeline.Added, Object: lost},
		{Time: t0.Add(5 * time.Second), Type: timeline.Added, Object: back},
	} {
		if err := e.Add(it); err != nil {
			t.Fatal(err)
		}
	}
	s := e.Snapshot()
	built := NewEngine(nil)
	_ = built.Add(watch.Item{Time: t0, Type: timeline.Added, Object: pod})
	want := append(built.Snapshot().Notes, lost.Text(), back.Text())
	if diff := cmp.Diff(want, s.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if len(want) < 3 {
		t.Errorf("the builder has no note of its own (%q): the test does not show the order", want)
	}
	if e.Items() != 3 || !e.Now().Equal(t0) {
		t.Errorf("Items %d (want 3), Now %v (want the pod's receive time %v)", e.Items(), e.Now(), t0)
	}
}

// quiet is a Source whose server has not answered for a while: it delivers nothing.
type quiet struct{ silent atomic.Int64 }

func (q *quiet) Next(ctx context.Context) (watch.Item, error) {
	<-ctx.Done()
	return watch.Item{}, io.EOF
}

func (q *quiet) Silent() time.Duration { return time.Duration(q.silent.Load()) }

// TestRunLiveSilent: while the source's server does not answer, frames say for how long, to
// the second, once that is watch.StaleAfter or more, though nothing else changed; and once it
// answers, a frame says so.
func TestRunLiveSilent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	src := &quiet{}
	src.silent.Store(int64(watch.StaleAfter + 300*time.Millisecond))
	var got []time.Duration
	steps := []time.Duration{12*time.Second + 900*time.Millisecond, 2 * time.Second, 0}
	_, err := RunLive(ctx, src, Options{Frame: time.Millisecond}, func(f Frame) {
		if f.Ended {
			return
		}
		got = append(got, f.Silent)
		if len(steps) == 1 {
			go func() { time.Sleep(50 * time.Millisecond); cancel() }() // frames for 0 s would show here
		}
		if len(steps) > 0 {
			src.silent.Store(int64(steps[0]))
			steps = steps[1:]
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// 2 s is not stale: it is said as zero, and then nothing changes until the end.
	want := []time.Duration{watch.StaleAfter, 12 * time.Second, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Frame.Silent of the frames (-want +got):\n%s", diff)
	}
}
