package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestWriteJSON: compact and indented output are the same JSON, the Document's, written a pod
// at a time.
func TestWriteJSON(t *testing.T) {
	for _, name := range recordings.Names() {
		src, tgt := openRecording(t, name)
		res, err := play.RunFile(context.Background(), src, 0, play.Options{}, nil)
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
