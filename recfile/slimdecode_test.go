package recfile

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/sidecar-top/sidecar-top/internal/fixture"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/watch"
)

// readItems reads every item of a recording, with a slim reader if slim.
func readItems(t *testing.T, data []byte, workers int, slim bool) []watch.Item {
	t.Helper()
	var opts Options
	if slim {
		opts.Objects = Slim
	}
	rd, err := newReader(bytes.NewReader(data), "t.jsonl", opts, workers, MaxLineBytes)
	if err != nil {
		t.Fatal(err)
	}
	var items []watch.Item
	for {
		it, err := rd.Next(context.Background())
		if err == io.EOF {
			return items
		}
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, it.Item)
	}
}

// TestSlimReaderReadsAsSlim: a slim reader makes of every object of every embedded recording,
// and of a pod and an Event carrying what translation does not read, what Slim keeps of the
// object the whole reader makes; with one worker and with several, where a pod's spec is read
// from the cache.
func TestSlimReaderReadsAsSlim(t *testing.T) {
	for name, data := range slimInputs(t) {
		whole := readItems(t, data, 1, false)
		for _, workers := range []int{1, 3} {
			got := readItems(t, data, workers, true)
			if len(got) != len(whole) {
				t.Fatalf("%s: %d items slim, %d whole", name, len(got), len(whole))
			}
			for i := range got {
				want := whole[i]
				want.Object = watch.Slim(want.Object.DeepCopyObject()).(runtime.Object)
				if diff := cmp.Diff(want, got[i]); diff != "" {
					t.Errorf("%s item %d (%d workers): the slim reader and Slim differ (-Slim +slim reader):\n%s", name, i, workers, diff)
				}
				wo, _ := watch.Observe(whole[i])
				so, _ := watch.Observe(got[i])
				if diff := cmp.Diff(wo, so); diff != "" {
					t.Errorf("%s item %d (%d workers): observations differ (-whole +slim):\n%s", name, i, workers, diff)
				}
			}
		}
	}
}

// slimInputs are the recordings the slim reads are held to: every embedded one, and richLines.
func slimInputs(t *testing.T) map[string][]byte {
	t.Helper()
	inputs := map[string][]byte{"rich": richLines(t)}
	for _, name := range recordings.Names() {
		f, err := recordings.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		inputs[name] = data
	}
	return inputs
}

// richLines is a recording of fixture.RichPod twice (the second read from the spec cache), fixture.RichEvent
// with a message a container wrote, and fixture.RichJob.
func richLines(t *testing.T) []byte {
	t.Helper()
	p := fixture.RichPod()
	p.TypeMeta = metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}
	ev := fixture.RichEvent()
	ev.TypeMeta = metav1.TypeMeta{Kind: "Event", APIVersion: "v1"}
	ev.Reason, ev.Message, ev.Type = "Unhealthy", "Readiness probe failed: \x1b]52;c;aGk=\x07 <b>", "Warning"
	job := fixture.RichJob()
	job.TypeMeta = metav1.TypeMeta{Kind: "Job", APIVersion: "batch/v1"}
	var b bytes.Buffer
	b.WriteString(headerLine + "\n")
	for i, obj := range []runtime.Object{p, p, ev, job} {
		line, err := json.Marshal(map[string]any{"time": time.Unix(200+int64(i), 0).UTC(), "type": "MODIFIED", "object": obj})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	return b.Bytes()
}

// TestSlimReaderErrorsAsWhole: a member a slim reader reads, holding a value of the wrong type,
// is the same one-line error as when the whole object is read, naming the Kubernetes type and
// not a wire type of this package.
func TestSlimReaderErrorsAsWhole(t *testing.T) {
	for _, obj := range []string{
		`{"kind":"Pod","apiVersion":"v1","status":"x"}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":7}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"ownerReferences":{}}}`,
		`{"kind":"Pod","apiVersion":"v1","status":{"conditions":["x"]}}`,
		`{"kind":"Pod","apiVersion":"v1","status":{"containerStatuses":{"name":"a"}}}`,
		`{"kind":"Pod","apiVersion":"v1","status":{"initContainerStatuses":[{"state":[]}]}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"containers":"x"}}`,
		`{"kind":"Event","apiVersion":"v1","involvedObject":3}`,
		`{"kind":"Event","apiVersion":"v1","series":"x"}`,
		`{"kind":"Event","apiVersion":"v1","source":[]}`,
		`{"kind":"Event","apiVersion":"v1","metadata":{"uid":1}}`,
	} {
		line := []byte(`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":` + obj + "}")
		whole, werr := newLineDecoder().decode(line)
		_, serr := newSlimLineDecoder(false).decode(line)
		if werr == nil || serr == nil {
			t.Errorf("%s: whole error %v (%T), slim error %v", obj, werr, whole.Item.Object, serr)
			continue
		}
		// The library words an error "cannot" or "unable to" at random, so that nobody relies on it.
		norm := func(err error) string { return strings.ReplaceAll(err.Error(), "unable to", "cannot") }
		if norm(werr) != norm(serr) {
			t.Errorf("%s:\nwhole: %v\nslim:  %v", obj, werr, serr)
		}
		if strings.Contains(serr.Error(), "slimWire") || strings.Contains(serr.Error(), "watch.") {
			t.Errorf("%s: the error names a type of this package: %v", obj, serr)
		}
	}
}
