package timeline_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestStreamIsFinal: the Document a Stream makes, with the pods it derived as they were taken
// (by three goroutines at once, out of order), is the Document of Final's snapshot, byte for
// byte as JSON, with the player's notes after the timeline's own: for every embedded recording,
// for a big Job whose pods the derivers note things of, and for an Event that never found its
// pod; whether snapshots were taken before the end or not, and when nothing came since the last.
func TestStreamIsFinal(t *testing.T) {
	runs := map[string][]timeline.Observation{}
	for _, name := range recordings.Names() {
		runs[name] = watch.Observations(recordingItems(t, name, nil))
	}
	job := watch.Observations(recordingItems(t, "job-native-sidecar", func(s []byte) ([]byte, error) { return synth.Pods(200, s) }))
	for i, o := range job {
		if o.Pod != nil && i%5 == 0 && len(o.Pod.Containers) > 0 && o.Pod.Containers[0].Status != nil {
			st := *o.Pod.Containers[0].Status
			st.RestartCount = -1 // a note from whichever deriver derives the pod
			o.Pod.Containers[0].Status = &st
		}
	}
	runs["job of 200 pods"] = job
	orphan := killing("gone", "app", "containers", 0.9)
	runs["an orphan Event"] = append(append([]timeline.Observation(nil), runs["startup-probe"]...), timeline.Observation{Received: sec(1), Event: orphan})
	for name, obs := range runs {
		for _, tc := range endCases(len(obs)) {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				s := buildTo(obs, tc.snapped).Final()
				s.Notes = append(s.Notes[:len(s.Notes):len(s.Notes)], "a note of the player's")
				want, err := json.Marshal(timeline.NewDocument("ns", "job/x", s))
				if err != nil {
					t.Fatal(err)
				}
				st := buildTo(obs, tc.snapped).Stream("a note of the player's")
				if st.Empty() {
					t.Fatal("the stream is empty")
				}
				pods := make([]*timeline.Pod, st.Len())
				var wg sync.WaitGroup
				for w := range 3 {
					wg.Go(func() {
						for i := len(pods) - 1 - w; i >= 0; i -= 3 {
							pods[i] = st.Pod(i)
						}
					})
				}
				wg.Wait()
				d := st.Document("ns", "job/x")
				d.Pods = pods
				got, err := json.Marshal(d)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(want), string(got)); diff != "" {
					t.Fatalf("the stream's Document differs from Final's (-Final +Stream):\n%s", diff)
				}
				if name == "job of 200 pods" && len(s.Notes) < 2 {
					t.Errorf("notes %q: the test wants the derivers' too", s.Notes)
				}
			})
		}
	}
}

// TestStreamEmpty: the end of a run that saw nothing a timeline shows is empty; an Event whose
// pod never came is not nothing.
func TestStreamEmpty(t *testing.T) {
	if st := timeline.NewBuilder().Stream(); !st.Empty() || st.Len() != 0 {
		t.Errorf("a new Builder's stream: empty %v, %d pods", st.Empty(), st.Len())
	}
	b := timeline.NewBuilder()
	apply(b, 1, timeline.Observation{Event: killing("a", "app", "containers", 0.9)})
	st := b.Stream()
	if st.Empty() {
		t.Error("a stream with an orphan Event is empty")
	}
	if d := st.Document("", ""); len(d.Events) != 1 || len(d.Jobs) != 0 {
		t.Errorf("its document: %d Events, %d jobs, want 1 and 0", len(d.Events), len(d.Jobs))
	}
}

// TestApplyAfterStream: a Builder takes no observation once its end is streamed, as after Final.
func TestApplyAfterStream(t *testing.T) {
	b := timeline.NewBuilder()
	o := timeline.Observation{Type: timeline.Added, Pod: pod("a", running("app", timeline.KindApp, 0, true, "c1"))}
	apply(b, 1, o)
	b.Stream()
	defer func() {
		if r := recover(); r != "timeline: Builder.Apply after Final or Stream" {
			t.Errorf("Apply after Stream: %v, want the Builder's own panic", r)
		}
	}()
	apply(b, 2, o)
}
