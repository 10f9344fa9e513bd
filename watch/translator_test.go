package watch_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestTranslatorIsObserve holds the contract a Translator rests on: the builder keeps nothing
// of a pod's or an Event's observation once applied, so writing the next one into the same
// memory changes nothing it shows. Each embedded recording, a Job of 20 pods whose updates
// interleave, and every recording at once, item by item in turn (pods of other specs written
// over each other), is applied twice, once as Observe makes the observations and once through a
// Translator, with a snapshot after every third item; the last snapshots must be the same.
func TestTranslatorIsObserve(t *testing.T) {
	read := func(name string, src []byte, err error) []watch.Item {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		_, items, _, err := recfile.ReadAll(bytes.NewReader(src), name)
		if err != nil {
			t.Fatal(err)
		}
		return items
	}
	cases := map[string][]watch.Item{}
	var all [][]watch.Item
	for _, name := range recordings.Names() {
		src, err := recordings.Bytes(name)
		cases[name] = read(name, src, err)
		all = append(all, cases[name])
	}
	src, err := recordings.Bytes("job-native-sidecar")
	if err == nil {
		src, err = synth.Pods(20, src)
	}
	cases["job-native-sidecar x20"] = read("x20", src, err)
	for i := 0; len(all) > 0; i++ {
		all = slices.DeleteFunc(all, func(l []watch.Item) bool { return len(l) <= i })
		for _, l := range all {
			cases["all in turn"] = append(cases["all in turn"], l[i])
		}
	}
	for name, items := range cases {
		t.Run(name, func(t *testing.T) {
			fresh, reused := timeline.NewBuilder(), timeline.NewBuilder()
			var tr watch.Translator
			for i, it := range items {
				if o, ok := watch.Observe(it); ok {
					fresh.Apply(o)
				}
				if o, ok := tr.Observe(it); ok {
					reused.Apply(o)
				}
				if i%3 == 0 { // a frame now and then: pods derived after others' observations
					fresh.Snapshot()
					reused.Snapshot()
				}
			}
			want, err := json.Marshal(fresh.Snapshot())
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(reused.Snapshot())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("through a Translator the timeline differs:\n got %.600s\nwant %.600s", got, want)
			}
		})
	}
}
