package timeline_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestFinalOnEveryCore: Final derives the pods of a big Job on several goroutines, each with a
// deriver of its own, and the timeline is the one a single goroutine derives, byte for byte as
// JSON: every pod in its place, and what the derivers noted (here, restart counts below zero in
// some of the pods) gathered once each. Under -race it also says the workers share nothing they
// write.
func TestFinalOnEveryCore(t *testing.T) {
	items := recordingItems(t, "job-native-sidecar", func(s []byte) ([]byte, error) { return synth.Pods(300, s) })
	obs := watch.Observations(items)
	pods := map[string]int{} // the pods in the order they are first seen
	for _, o := range obs {
		if o.Pod == nil {
			continue
		}
		if _, ok := pods[o.Pod.UID]; !ok {
			pods[o.Pod.UID] = len(pods)
		}
		if n := pods[o.Pod.UID]; n%7 == 3 && len(o.Pod.Containers) > 0 && o.Pod.Containers[0].Status != nil {
			st := *o.Pod.Containers[0].Status
			st.RestartCount = -1 // noted, once for each pod and container
			o.Pod.Containers[0].Status = &st
		}
	}
	if len(pods) < 300 {
		t.Fatalf("%d pods, want 300", len(pods))
	}
	final := func(workers int) string {
		defer timeline.SetFinalWorkers(workers)()
		b := timeline.NewBuilder()
		for i, o := range obs {
			if i == len(obs)/2 {
				b.Snapshot() // some pods derived before, some not
			}
			b.Apply(o)
		}
		s := b.Final()
		if len(s.Notes) == 0 {
			t.Fatalf("%d workers: no notes; the test wants some", workers)
		}
		j, err := json.Marshal(timeline.NewDocument("ns", "job/x", s))
		if err != nil {
			t.Fatal(err)
		}
		return string(j)
	}
	want := final(1)
	for _, workers := range []int{2, 3, 8, 400} {
		t.Run(fmt.Sprint(workers, " workers"), func(t *testing.T) {
			if diff := cmp.Diff(want, final(workers)); diff != "" {
				t.Fatalf("Final on %d workers differs from one (-one +%d):\n%s", workers, workers, diff)
			}
		})
	}
}
