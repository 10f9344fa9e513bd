package watch

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
)

// TestReuseIsObserve: a reader that reuses its batches' memory for their observations
// (Reader.Reuse) makes the same timeline as Observe's observations, each applied as it comes,
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
		fresh := timeline.NewBuilder()
		for i, it := range items {
			if o, ok := Observe(it); ok {
				fresh.Apply(o)
			}
			if i%3 == 0 {
				fresh.Snapshot()
			}
		}
		want, err := json.Marshal(fresh.Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2} {
			rd, err := newReader(bytes.NewReader(src), name, workers, MaxLineBytes)
			if err != nil {
				t.Fatal(err)
			}
			rd.Reuse()
			reused := timeline.NewBuilder()
			pods, at := 0, map[uintptr]bool{}
			for i := 0; ; i++ {
				_, o, ok, err := rd.NextObserved(context.Background())
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					if o.Pod != nil {
						pods++
						at[uintptr(unsafe.Pointer(o.Pod))] = true
					}
					reused.Apply(o)
				}
				if i%3 == 0 {
					reused.Snapshot()
				}
			}
			got, err := json.Marshal(reused.Snapshot())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %d workers: reusing memory, the timeline differs:\n got %.600s\nwant %.600s", name, workers, got, want)
			}
			if pods > 1000 && len(at) > pods/2 { // under -race, sync.Pool drops a batch now and then
				t.Errorf("%s, %d workers: %d pod observations in %d places, want the batches' memory used again", name, workers, pods, len(at))
			}
		}
	}
}
