package recfile

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
)

// readRecords reads every record of a recording from a reader of objects; an error ends the
// read and is returned.
func readRecords(data []byte, workers int, objects Objects) ([]Record, error) {
	rd, err := newReader(bytes.NewReader(data), "t.jsonl", Options{Objects: objects}, workers, MaxLineBytes)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	var out []Record
	for {
		rec, err := rd.Next(context.Background())
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
}

// checkTransientRead holds a transient read of data to a slim one: the same observations, in the
// same order, and the same items but for the Pods and core/v1 Events, which it does not hand out.
func checkTransientRead(t *testing.T, name string, data []byte) {
	t.Helper()
	want, werr := readRecords(data, 1, Slim)
	for _, workers := range []int{1, 3} {
		got, gerr := readRecords(data, workers, NoObjects)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("%s (%d workers): transient error %v, slim %v", name, workers, gerr, werr)
		}
		if len(got) != len(want) {
			t.Fatalf("%s (%d workers): %d items transient, %d slim", name, workers, len(got), len(want))
		}
		for i := range got {
			w := want[i]
			switch w.Item.Object.(type) {
			case *corev1.Pod, *corev1.Event:
				w.Item.Object = nil
			}
			if diff := cmp.Diff(w, got[i]); diff != "" {
				t.Fatalf("%s item %d (%d workers): transient and slim reads differ (-slim +transient):\n%s", name, i, workers, diff)
			}
		}
	}
}

// TestTransientReaderObservesAsSlim: a reader of no objects (NoObjects), which decodes every pod
// of a worker into one object, observes every embedded recording as a slim reader does, where
// each pod is an object of its own: nothing an observation holds is written over by the next line, and
// nothing of a pod is left over for the next (a pod with no spec or status after a rich one).
func TestTransientReaderObservesAsSlim(t *testing.T) {
	inputs := slimInputs(t)
	inputs["bare after rich"] = append(richLines(t),
		`{"time":"2026-12-02T08:00:09Z","type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b","uid":"b"}}}`+"\n"...)
	for name, data := range inputs {
		checkTransientRead(t, name, data)
	}
}
