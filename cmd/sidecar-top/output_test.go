package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestWriteJSON: compact and indented output are the same JSON, the Document's, written a pod
// at a time.
func TestWriteJSON(t *testing.T) {
	for _, name := range recordings.Names() {
		src, tgt := openRecording(t, name)
		res, err := play.RunFile(context.Background(), source.OfRecording(src), 0, play.Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var compact, pretty, whole bytes.Buffer
		if err := writeJSON(&compact, tgt.Namespace, tgt.String(), res.Final, false); err != nil {
			t.Fatal(err)
		}
		if err := writeJSON(&pretty, tgt.Namespace, tgt.String(), res.Final, true); err != nil {
			t.Fatal(err)
		}
		if err := json.NewEncoder(&whole).Encode(timeline.NewDocument(tgt.Namespace, tgt.String(), res.Final)); err != nil {
			t.Fatal(err)
		}
		if bytes.Count(compact.Bytes(), []byte("\n")) != 1 || bytes.Count(pretty.Bytes(), []byte("\n")) < 10 {
			t.Errorf("%s: compact output has %d lines, pretty %d", name, bytes.Count(compact.Bytes(), []byte("\n")),
				bytes.Count(pretty.Bytes(), []byte("\n")))
		}
		var a, b, c any
		for _, x := range []struct {
			buf *bytes.Buffer
			v   *any
		}{{&compact, &a}, {&pretty, &b}, {&whole, &c}} {
			if err := json.Unmarshal(x.buf.Bytes(), x.v); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if diff := cmp.Diff(c, a); diff != "" {
			t.Errorf("%s: compact output differs from the Document (-want +got):\n%s", name, diff)
		}
		if diff := cmp.Diff(c, b); diff != "" {
			t.Errorf("%s: pretty output differs from the Document (-want +got):\n%s", name, diff)
		}
	}
}

// TestWriteJSONManyPods: a Job of 600 pods, marshalled on every core into a ring of buffers that
// goes round several times, comes out in the snapshot's order and as the whole Document
// marshals, pod for pod (under -race, with no two goroutines writing what one derives), and
// byte for byte as encoding/json writes the Document: its Job (its 600 warnings a list of their
// own) and thousands of Events written, smallPer at a time, into the buffers the pods were.
func TestWriteJSONManyPods(t *testing.T) {
	res, err := play.RunFile(context.Background(), source.OfRecording(bigJob(t, 600)()), 0, play.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Final.Pods.Len(); n != 600 {
		t.Fatalf("the Job has %d pods, want 600", n)
	}
	var got bytes.Buffer
	if err := writeJSON(&got, "ns", "job/x", res.Final, false); err != nil {
		t.Fatal(err)
	}
	var whole bytes.Buffer
	if err := json.NewEncoder(&whole).Encode(timeline.NewDocument("ns", "job/x", res.Final)); err != nil {
		t.Fatal(err)
	}
	if n := len(res.Final.Events()); n <= smallPer*marshalAhead {
		t.Fatalf("the Job has %d Events, want more than a ring of batches of them", n)
	}
	if fs := res.Final.JobFindings(res.Final.Jobs[0]); len(fs) < 600 {
		t.Fatalf("the Job has %d warnings, want one of each pod", len(fs))
	}
	if !bytes.Equal(got.Bytes(), whole.Bytes()) {
		t.Errorf("output (%d bytes) is not the Document as encoding/json writes it (%d bytes)", got.Len(), whole.Len())
	}
	var doc struct {
		Pods []json.RawMessage `json:"pods"`
	}
	if err := json.Unmarshal(got.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Pods) != res.Final.Pods.Len() {
		t.Fatalf("%d pods written, want %d", len(doc.Pods), res.Final.Pods.Len())
	}
	for i, p := range res.Final.Pods.Items() {
		want, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(doc.Pods[i], want) {
			t.Fatalf("pod %d (%s) is not written as it marshals alone:\n got %.300s\nwant %.300s", i, p.Name, doc.Pods[i], want)
		}
	}
}

// bigJob makes a recording of a Job of n pods from the embedded one, and returns what opens a
// reader of it.
func bigJob(t *testing.T, n int) func() *recfile.Reader {
	t.Helper()
	src, err := os.ReadFile(recordingFile(t, "job-native-sidecar"))
	if err != nil {
		t.Fatal(err)
	}
	big, err := synth.Pods(n, src)
	if err != nil {
		t.Fatal(err)
	}
	return func() *recfile.Reader {
		rd, err := recfile.NewReader(bytes.NewReader(big), fmt.Sprintf("job-%d.jsonl", n), recfile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return rd
	}
}

// TestMarshalledBatches: values taken per at a time come to write one by one, in order, each
// with its own bytes and its own error, over rings that go round, with per 1, with a last batch
// that is short, and with more values in a batch than the list has.
func TestMarshalledBatches(t *testing.T) {
	bad := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) // encoding/json refuses it
	for _, c := range []struct{ n, per int }{{1, 1}, {5, 64}, {3*marshalAhead + 1, 1}, {3*marshalAhead*7 + 5, 7}} {
		at := func(i int) any {
			if i%11 == 3 {
				return bad
			}
			return map[string]int{"i": i}
		}
		var j jsonWriter
		next := 0
		j.marshalled(c.n, c.per, at, func(i int, b []byte, err error) {
			if i != next {
				t.Fatalf("n %d per %d: value %d written after %d", c.n, c.per, i, next-1)
			}
			next++
			want, werr := json.Marshal(at(i))
			if (err == nil) != (werr == nil) || err == nil && !bytes.Equal(b, want) {
				t.Errorf("n %d per %d: value %d written as %s (%v), want %s (%v)", c.n, c.per, i, b, err, want, werr)
			}
		})
		if next != c.n {
			t.Errorf("n %d per %d: %d values written", c.n, c.per, next)
		}
	}
}
