package recfile

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"
	"unsafe"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestReuseIsObserve: a reader that reuses its batches' memory for their observations
// (Options.Reuse) makes the same timeline as Observe's observations, each applied as it comes,
// with a snapshot now and then, on one goroutine and through the pipeline, for the embedded
// recordings and a Job of 300 pods (many batches, the slabs used again and again); and it does
// reuse that memory: far fewer distinct pod observations than pod lines.
func TestReuseIsObserve(t *testing.T) {
	cases := map[string][]byte{}
	for _, name := range recordings.Names() {
		src, err := recordings.Bytes(name)
		if err != nil {
			t.Fatal(err)
		}
		cases[name] = src
	}
	src, err := recordings.Bytes("job-native-sidecar")
	if err == nil {
		src, err = synth.Pods(300, src)
	}
	if err != nil {
		t.Fatal(err)
	}
	cases["job-native-sidecar x300"] = src
	for name, src := range cases {
		_, items, _, err := ReadAll(bytes.NewReader(src), name)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		want := timelineOf(t, func() (timeline.Observation, bool, error) {
			if i == len(items) {
				return timeline.Observation{}, false, io.EOF
			}
			i++
			o, ok := watch.Observe(items[i-1])
			return o, ok, nil
		})
		for _, workers := range []int{1, 2} {
			rd, err := newReader(bytes.NewReader(src), name, Options{Objects: NoObjects, Reuse: true}, workers, MaxLineBytes)
			if err != nil {
				t.Fatal(err)
			}
			pods, at := 0, map[uintptr]bool{}
			got := timelineOf(t, func() (timeline.Observation, bool, error) {
				rec, err := rd.Next(context.Background())
				if rec.IsObs && rec.Obs.Pod != nil {
					pods++
					at[uintptr(unsafe.Pointer(rec.Obs.Pod))] = true
				}
				return rec.Obs, rec.IsObs, err
			})
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %d workers: reusing memory, the timeline differs:\n got %.600s\nwant %.600s", name, workers, got, want)
			}
			if pods > 1000 && len(at) > pods/2 { // under -race, sync.Pool drops a batch now and then
				t.Errorf("%s, %d workers: %d pod observations in %d places, want the batches' memory used again", name, workers, pods, len(at))
			}
		}
	}
}

// timelineOf applies the observations next gives until io.EOF, with a snapshot after every
// third (pods derived between other pods' observations), and is the last snapshot as JSON.
func timelineOf(t *testing.T, next func() (timeline.Observation, bool, error)) []byte {
	t.Helper()
	b := timeline.NewBuilder()
	for i := 0; ; i++ {
		o, ok, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			b.Apply(o)
		}
		if i%3 == 0 {
			b.Snapshot()
		}
	}
	out, err := json.Marshal(b.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	return out
}
