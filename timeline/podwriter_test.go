package timeline_test

import (
	"slices"
	"testing"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestPodWriterReuse writes the pods of every real recording one after another with one
// PodWriter, forwards and backwards, and holds each to what the pod writes with a writer of its
// own: nothing of one pod (its rows, milestones, lanes, segments) may reach the next one's JSON.
func TestPodWriterReuse(t *testing.T) {
	var pods []*timeline.Pod
	for _, name := range recordings.Names() {
		pods = append(pods, build(t, name).Pods.Slice()...)
	}
	if len(pods) < 5 {
		t.Fatalf("%d pods in the recordings, want several", len(pods))
	}
	want := make([][]byte, len(pods))
	for i, p := range pods {
		b, err := p.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		want[i] = b
	}
	order := make([]int, len(pods))
	for i := range order {
		order[i] = i
	}
	for _, backwards := range []bool{false, true} {
		if backwards {
			slices.Reverse(order)
		}
		var w timeline.PodWriter
		var buf []byte
		for _, i := range order {
			var err error
			if buf, err = w.AppendJSON(buf[:0], pods[i]); err != nil {
				t.Fatal(err)
			}
			if string(buf) != string(want[i]) {
				t.Errorf("pod %s written after others (backwards %v):\n%s\nwant\n%s", pods[i].Name, backwards, buf, want[i])
			}
		}
	}
}
