package play

import (
	"context"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestEngineNotes: the text of watch notes follows the builder's notes in every snapshot, and a
// note is an input (counted) but no observation.
func TestEngineNotes(t *testing.T) {
	e := NewEngine()
	pod := podInput(t0, "1")
	pod.Item.(*timeline.PodObservation).Created = time.Time{} // no creationTimestamp: a builder note
	lost, back := "pods: the watch was lost", "pods: the watch is back"
	for _, in := range []Input{pod, {Time: t0.Add(time.Second), Note: lost}, {Time: t0.Add(5 * time.Second), Note: back}} {
		e.Add(observing{}, in)
	}
	s := e.Snapshot()
	built := NewEngine()
	built.Add(observing{}, pod)
	want := append(built.Snapshot().Notes, lost, back)
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

func (q *quiet) Next(ctx context.Context) (Input, error) {
	<-ctx.Done()
	return Input{}, io.EOF
}

func (q *quiet) Observe(in Input) (timeline.Observation, bool) { return observing{}.Observe(in) }

// Stale is the silence once it is staleAfter or more, as a watch's source says it.
func (q *quiet) Stale() time.Duration {
	if d := time.Duration(q.silent.Load()); d >= staleAfter {
		return d
	}
	return 0
}

// TestRunLiveSilent: while the source's server does not answer, frames say for how long, to
// the second, once that is staleAfter or more, though nothing else changed; and once it
// answers, a frame says so.
func TestRunLiveSilent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	src := &quiet{}
	src.silent.Store(int64(staleAfter + 300*time.Millisecond))
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
	want := []time.Duration{staleAfter, 12 * time.Second, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Frame.Silent of the frames (-want +got):\n%s", diff)
	}
}
