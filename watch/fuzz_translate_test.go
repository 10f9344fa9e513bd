package watch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// translateKinds are the objects FuzzTranslate decodes its input into, by the kind byte.
var translateKinds = []func() runtime.Object{
	func() runtime.Object { return &corev1.Pod{} },
	func() runtime.Object { return &corev1.Event{} },
	func() runtime.Object { return &eventsv1.Event{} },
	func() runtime.Object { return &batchv1.Job{} },
}

// translateKind is the kind byte of an object of the recordings: its index in translateKinds.
func translateKind(kind, apiVersion string) (uint8, bool) {
	switch {
	case kind == "Pod" && apiVersion == "v1":
		return 0, true
	case kind == "Event" && apiVersion == "v1":
		return 1, true
	case kind == "Event" && apiVersion == "events.k8s.io/v1":
		return 2, true
	case kind == "Job" && apiVersion == "batch/v1":
		return 3, true
	}
	return 0, false
}

// translateSeeds are the objects of the real recordings (recordings/ and testdata/), each with
// the object that came before it in its recording, and a few odd ones.
func translateSeeds(t testing.TB) [][3]any {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "recordings", "*.jsonl"))
	more, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	paths = append(paths, more...)
	if len(paths) == 0 {
		t.Fatal("no recordings found")
	}
	var seeds [][3]any
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		prev, prevKind := []byte("{}"), uint8(0)
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var line struct {
				Object json.RawMessage `json:"object"`
			}
			var meta struct{ Kind, APIVersion string }
			if json.Unmarshal([]byte(l), &line) != nil || json.Unmarshal(line.Object, &meta) != nil {
				continue
			}
			kind, ok := translateKind(meta.Kind, meta.APIVersion)
			if !ok {
				continue
			}
			// Bits 0-1 are the first object's kind, 2-3 the second's, 4-5 the first's watch type.
			seeds = append(seeds, [3]any{prevKind | kind<<2 | 1<<4, prev, []byte(line.Object)})
			prev, prevKind = line.Object, kind
		}
	}
	for _, odd := range []string{
		`{"metadata":{"uid":"u","name":"p","creationTimestamp":null},"status":{"containerStatuses":[{"name":"c","restartCount":-3}]}}`,
		`{"metadata":{"uid":"u","name":"p"},"spec":{"initContainers":[{"name":"s","restartPolicy":"Always"}]},"status":{"initContainerStatuses":[{"name":"s","state":{"terminated":{"exitCode":137,"finishedAt":"1970-01-01T00:00:00Z"}}}]}}`,
		`{"metadata":{"name":"p.18ed62d93a311a2d"},"involvedObject":{"kind":"Pod","name":"p","fieldPath":"spec.initContainers{s}"},"reason":"Killing","count":-1,"lastTimestamp":"2099-12-31T23:59:59Z"}`,
	} {
		seeds = append(seeds, [3]any{uint8(0), []byte(odd), []byte(odd)}, [3]any{uint8(1 | 1<<2), []byte(odd), []byte(odd)})
	}
	return seeds
}

// FuzzTranslate decodes two arbitrary JSON texts into Pods, Events (core/v1 or events.k8s.io/v1)
// or Jobs, as the kind byte says (bits 0-1 and 2-3; bits 4-5 choose the watch types), and translates them as two items received a second apart:
// Observe must not panic, must give the same observation for the same item, and must give
// observations a timeline.Builder accepts: applied one by one and at once, the snapshots agree,
// and every milestone lies in its interval.
func FuzzTranslate(f *testing.F) {
	for _, s := range translateSeeds(f) {
		f.Add(s[0].(uint8), s[1].([]byte), s[2].([]byte))
	}
	t0 := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, kind uint8, a, b []byte) {
		types := []timeline.WatchType{timeline.Added, timeline.Modified, timeline.Deleted}
		var obs []timeline.Observation
		for i, data := range [][]byte{a, b} {
			obj := translateKinds[int(kind>>(i*2))%len(translateKinds)]()
			if json.Unmarshal(data, obj) != nil {
				continue
			}
			it := Item{Time: t0.Add(time.Duration(i) * time.Second), Type: types[int(kind>>4+uint8(i))%len(types)], Object: obj}
			o, ok := Observe(it)
			if !ok {
				t.Fatalf("Observe does not know %T", obj)
			}
			if again, _ := Observe(it); !cmp.Equal(o, again) {
				t.Fatalf("Observe is not pure:\n%s", cmp.Diff(o, again))
			}
			obs = append(obs, o)
		}
		step, once := timeline.NewBuilder(), timeline.NewBuilder()
		var last timeline.Snapshot
		for _, o := range obs {
			step.Apply(o)
			last = step.Snapshot()
			once.Apply(o)
		}
		stepJSON, err1 := json.Marshal(last.Pods)
		onceJSON, err2 := json.Marshal(once.Snapshot().Pods)
		if err1 != nil || err2 != nil {
			t.Fatalf("the snapshot's pods do not encode: %v, %v", err1, err2)
		}
		if len(obs) > 0 && string(stepJSON) != string(onceJSON) {
			t.Fatalf("a snapshot after each observation ends elsewhere than one at the end:\n%s\n----\n%s", stepJSON, onceJSON)
		}
		for _, p := range last.Pods.Items() {
			for _, r := range p.Rows() {
				m := r.Milestone
				if !m.Earliest.IsZero() && m.At.Before(m.Earliest) || !m.Latest.IsZero() && m.At.After(m.Latest) {
					t.Fatalf("%s %s #%d: at %v outside [%v, %v]", m.Container, m.Kind, m.Attempt, m.At, m.Earliest, m.Latest)
				}
			}
		}
	})
}
