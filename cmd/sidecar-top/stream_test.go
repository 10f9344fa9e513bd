package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
)

// TestWriteStream: replay -o json writes each pod as it is derived (play.Options.Stream,
// writeStream), and what it writes is byte for byte what writing the Document of the run's
// Final snapshot does, compact and indented, with a recording's note after the timeline's own:
// for every embedded recording and for a Job of 600 pods, whose pods the marshalling goroutines
// derive (under -race, with nothing shared that two of them write).
func TestWriteStream(t *testing.T) {
	open := map[string]func() *recfile.Reader{"job of 600 pods": bigJob(t, 600)}
	for _, name := range recordings.Names() {
		open[name] = func() *recfile.Reader { rd, _ := openRecording(t, name); return rd }
	}
	for name, reader := range open {
		for _, pretty := range []bool{false, true} {
			const note = "a note of the recording's"
			whole, err := play.RunFile(context.Background(), source.OfRecording(reader()), 0, play.Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := writeDocument(&want, (*reportOptions)(nil).document("ns", "job/x", withNote(whole.Final, note)), pretty); err != nil {
				t.Fatal(err)
			}
			res, err := play.RunFile(context.Background(), source.OfRecording(reader()), 0, play.Options{Stream: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Stream == nil || res.Final.Pods.Len() != 0 || res.Items != whole.Items {
				t.Fatalf("%s: a streamed run's result: stream %v, %d pods in Final, %d items (want %d)", name,
					res.Stream != nil, res.Final.Pods.Len(), res.Items, whole.Items)
			}
			var got bytes.Buffer
			if err := writeStream(&got, "ns", "job/x", res.Stream, note, pretty); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got.String(), note) {
				t.Errorf("%s: the note is not written", name)
			}
			if diff := cmp.Diff(want.String(), got.String()); diff != "" {
				t.Errorf("%s (pretty %v): the streamed output differs (-Final +Stream):\n%.3000s", name, pretty, diff)
			}
		}
	}
}
