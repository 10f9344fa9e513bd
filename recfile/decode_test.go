package recfile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sidecar-top/sidecar-top/watch"
	"k8s.io/client-go/kubernetes/scheme"
)

// realLines returns the item lines of the real recordings.
func realLines(t testing.TB) [][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "recordings", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no recordings found: %v", err)
	}
	var lines [][]byte
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n"))[1:] {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestDecodeLikeAPIMachinery holds the reader's decoding to apimachinery's: every object of the
// real recordings, and objects with odd but valid JSON, decode to the same typed value as
// client-go's UniversalDeserializer (the reader's decoder before) gives.
func TestDecodeLikeAPIMachinery(t *testing.T) {
	odd := []string{
		// Names match case-sensitively: "Metadata" and "Name" are unknown fields to both.
		`{"kind":"Pod","apiVersion":"v1","Metadata":{"name":"x"},"metadata":{"Name":"y","namespace":"n"}}`,
		// Null and fractional times, a MicroTime, numbers and strings as quantities, IntOrString.
		`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":null,"deletionTimestamp":"2026-12-02T08:00:01.5Z"},` +
			`"spec":{"overhead":{"cpu":"100m","memory":1e3},"containers":[{"name":"a","readinessProbe":{"httpGet":{"port":"http"}},` +
			`"livenessProbe":{"tcpSocket":{"port":8080}},"resources":{"limits":{"cpu":2}}}]},` +
			`"status":{"startTime":"2026-12-02T09:00:00+01:00","containerStatuses":[{"name":"a","state":{"running":{"startedAt":null}}}]}}`,
		`{"kind":"Event","apiVersion":"v1","metadata":{"name":"e"},"eventTime":"2026-12-02T08:00:01.123456Z","series":{"count":3,"lastObservedTime":"2026-12-02T08:00:02.000001Z"}}`,
		`{"kind":"Event","apiVersion":"events.k8s.io/v1","metadata":{"name":"e"},"eventTime":null,"note":"caf\u00e9 \ud83d\ude00 \"quoted\""}`,
		// Invalid UTF-8 becomes U+FFFD in both.
		"{\"kind\":\"Event\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"e\"},\"message\":\"bad \xff byte\"}",
		// Unknown fields, at any depth, are ignored by both.
		`{"kind":"Job","apiVersion":"batch/v1","metadata":{"name":"j","future":{"a":[1,2]}},"status":{"ready":null,"succeeded":1,"x":true}}`,
		// kind and apiVersion elsewhere than first, and spaced out.
		`{ "metadata" : {"name":"p"} , "apiVersion" : "v1" , "kind" : "Pod" }`,
	}
	var objects [][]byte
	for _, l := range realLines(t) {
		var w struct{ Object json.RawMessage }
		if err := json.Unmarshal(l, &w); err != nil {
			t.Fatal(err)
		}
		objects = append(objects, w.Object)
	}
	for _, o := range odd {
		objects = append(objects, []byte(o))
	}
	deserializer := scheme.Codecs.UniversalDeserializer()
	dec := newLineDecoder() // one for all, as a reader's worker: a pod's later lines reuse its spec
	for i, o := range objects {
		want, _, err := deserializer.Decode(o, nil, nil)
		if err != nil {
			t.Fatalf("object %d: apimachinery: %v", i, err)
		}
		line := fmt.Appendf(nil, `{"time":"2026-12-02T08:00:00Z","type":"ADDED","object":%s}`, o)
		got, err := dec.decode(line)
		if err != nil {
			t.Fatalf("object %d: decodeLine: %v\n%s", i, err, o)
		}
		if diff := cmp.Diff(got.Item.Object, want); diff != "" {
			t.Errorf("object %d decodes unlike apimachinery (-got +want):\n%s", i, diff)
		}
	}
	if dec.specs.hits == 0 {
		t.Error("no pod spec came from the decoder's cache: the test no longer holds it to apimachinery")
	}
}

// TestDecodeMemberOrder: kind and apiVersion are found in any order and place, and the object is
// the same.
func TestDecodeMemberOrder(t *testing.T) {
	const rest = `"metadata":{"name":"p","uid":"u"},"spec":{"nodeName":"n"}`
	lines := []string{
		`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1",` + rest + `}}`,
		`{"type":"ADDED","object":{"apiVersion":"v1","kind":"Pod",` + rest + `},"time":"2026-12-02T08:00:01Z"}`,
		`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{` + rest + `,"kind":"Pod","apiVersion":"v1"}}`,
		`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod",` + rest + `,"apiVersion":"v1"}}`,
		` { "time" : "2026-12-02T08:00:01Z" , "type":"ADDED", "object" :	{ "kind" : "Pod" , "apiVersion":"v1", ` + rest + ` } } `,
		`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"P\u006fd","apiVersion":"v1",` + rest + `}}`,
	}
	want, err := decodeLine([]byte(lines[0]))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines[1:] {
		got, err := decodeLine([]byte(l))
		if err != nil {
			t.Fatalf("decodeLine(%s): %v", l, err)
		}
		if diff := cmp.Diff(got.Item, want.Item); diff != "" {
			t.Errorf("decodeLine(%s) mismatch (-got +want):\n%s", l, diff)
		}
	}
}

func TestSniffTypeMeta(t *testing.T) {
	tests := []struct {
		in               string
		kind, apiVersion string
		ok               bool
	}{
		{`{"kind":"Pod","apiVersion":"v1","metadata":{}}`, "Pod", "v1", true},
		{`:{"apiVersion":"batch/v1","kind":"Job"}`, "Job", "batch/v1", true},
		{" \t:\n{ \"kind\" : \"Event\" ,\r\"apiVersion\" : \"events.k8s.io/v1\" }", "Event", "events.k8s.io/v1", true},
		{`{"kind":"Pod","metadata":{},"apiVersion":"v1"}`, "Pod", "v1", true},
		{`{"action":"Binding","apiVersion":"v1","count":1,"involvedObject":{"kind":"Pod","apiVersion":"v1"},"kind":"Event"}`, "Event", "v1", true},
		{`{"a":"x\"}{[","b":[1,{"kind":"Job"}],"c":true,"d":null,"kind":"Pod","e":-1.5e3,"apiVersion":"v1"}`, "Pod", "v1", true},
		{`{"metadata":{"kind":"Job","apiVersion":"batch/v1"}}`, "", "", false},
		{`{"metadata":{"name":"p"},"kind":"Pod"}`, "", "", false},
		{`{"metadata":{"name":"p","kind":"Pod","apiVersion":"v1"`, "", "", false},
		{`{"a":"unterminated,"kind":"Pod","apiVersion":"v1"}`, "", "", false},
		{`{"apiVersion":"v1","apiVersion":"v2","kind":"Pod"}`, "", "", false},
		{`{"kind":"Pod","kind":"Pod"}`, "", "", false},
		{`{"kind":"Pod"}`, "", "", false},
		{`{"kind":"P\u006fd","apiVersion":"v1"}`, "", "", false},
		{`{"kind":"","apiVersion":"v1"}`, "", "", false},
		{`{"kind":"Pod","apiVersion":"v1"`, "", "", false},
		{`{"kind":"Pod","apiVersion":"v1`, "", "", false},
		{`{"kind":1,"apiVersion":"v1"}`, "", "", false},
		{`["kind","Pod"]`, "", "", false},
		{``, "", "", false},
	}
	for _, tt := range tests {
		kind, apiVersion, ok := sniffTypeMeta([]byte(tt.in))
		if kind != tt.kind || apiVersion != tt.apiVersion || ok != tt.ok {
			t.Errorf("sniffTypeMeta(%q) = %q, %q, %v; want %q, %q, %v", tt.in, kind, apiVersion, ok, tt.kind, tt.apiVersion, tt.ok)
		}
	}
}

// TestReadLongLine: a line longer than the limit is an error naming it, after the lines before
// it; an endless line is read no further than the limit.
func TestReadLongLine(t *testing.T) {
	bothModes(t, func(t *testing.T, workers int) {
		long := `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"` +
			strings.Repeat("x", 2000) + `"}}}`
		in := strings.Join([]string{headerLine, podLine, long, podLine}, "\n") + "\n"
		_, items, _, err := readAll(strings.NewReader(in), workers, 1024)
		if err == nil || err.Error() != "rec.jsonl:3: line is longer than 1024 bytes, the most a recording line may hold" {
			t.Errorf("ReadAll error = %v, want rec.jsonl:3: line is longer than 1024 bytes, ...", err)
		}
		if len(items) != 1 {
			t.Errorf("got %d items before the error, want 1", len(items))
		}
		// A line exactly at the limit is read.
		exact := strings.Replace(long, strings.Repeat("x", 2000), strings.Repeat("x", 2000-len(long)+1024), 1)
		if _, items, _, err := readAll(strings.NewReader(headerLine+"\n"+exact+"\n"), workers, 1024); err != nil || len(items) != 1 {
			t.Errorf("ReadAll of a line of exactly the limit = %d items, %v; want 1 item", len(items), err)
		}
	})

	zeros := &countingReader{r: zeroReader{}}
	_, err := NewReader(zeros, "/dev/zero", Options{})
	if err == nil || err.Error() != "/dev/zero:1: line is longer than 64 MiB, the most a recording line may hold" {
		t.Errorf("NewReader(/dev/zero) error = %v, want /dev/zero:1: line is longer than 64 MiB, ...", err)
	}
	if zeros.n > MaxLineBytes+1<<20 {
		t.Errorf("read %d bytes of an endless line, want at most the limit and a buffer (%d)", zeros.n, MaxLineBytes+1<<20)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// manyLines is a recording of the real recordings' items repeated over many batches, with
// line bad (1-based, counting the header) replaced when it is not 0.
func manyLines(t *testing.T, bad int) (string, int) {
	lines := []string{headerLine}
	for len(lines) < 3*batchLines {
		for _, l := range realLines(t) {
			lines = append(lines, string(l))
		}
	}
	if bad > 0 {
		lines[bad-1] = `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":"oops"}`
	}
	return strings.Join(lines, "\n") + "\n", len(lines)
}

// TestReadModesAgree: decoding in Next and in workers give the same items, observations and
// errors, over many batches.
func TestReadModesAgree(t *testing.T) {
	in, n := manyLines(t, 0)
	_, want, _, err := readAll(strings.NewReader(in), 1, MaxLineBytes)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != n-1 {
		t.Fatalf("got %d items, want %d", len(want), n-1)
	}
	_, got, _, err := readAll(strings.NewReader(in), 3, MaxLineBytes)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d items with workers, want %d", len(got), len(want))
	}
	for i := range got {
		// The objects are compared as JSON: cmp.Diff of thousands of Pods takes half a minute
		// under the race detector.
		g, w := mustJSON(t, got[i].Object), mustJSON(t, want[i].Object)
		if !got[i].Time.Equal(want[i].Time) || got[i].Type != want[i].Type || !bytes.Equal(g, w) {
			t.Fatalf("item %d with workers = %s %s %s, want %s %s %s", i, got[i].Time, got[i].Type, g, want[i].Time, want[i].Type, w)
		}
	}

	rd, err := newReader(strings.NewReader(in), "rec.jsonl", Options{}, 3, MaxLineBytes)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		rec, err := rd.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		wantObs, _ := watch.Observe(want[i])
		if diff := cmp.Diff(rec.Obs, wantObs); diff != "" {
			t.Fatalf("observation %d mismatch (-got +want):\n%s", i, diff)
		}
	}

	bad := 2*batchLines + 7
	in, _ = manyLines(t, bad)
	for _, workers := range []int{1, 3} {
		_, items, _, err := readAll(strings.NewReader(in), workers, MaxLineBytes)
		wantErr := fmt.Sprintf("rec.jsonl:%d: malformed object", bad)
		if err == nil || !strings.HasPrefix(err.Error(), wantErr) {
			t.Errorf("workers=%d: error = %v, want one starting with %q", workers, err, wantErr)
		}
		if len(items) != bad-2 {
			t.Errorf("workers=%d: %d items before the bad line, want %d", workers, len(items), bad-2)
		}
	}
}

func TestReadObservations(t *testing.T) {
	in := strings.Join([]string{headerLine, podLine, podLine}, "\n") + "\n"
	h, obs, _, err := ReadObservations(strings.NewReader(in), "rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	_, items, _, err := ReadAll(strings.NewReader(in), "rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(obs, watch.Observations(items)); diff != "" {
		t.Errorf("observations mismatch (-got +want):\n%s", diff)
	}
	if h == nil || h.Target != "pod/p" {
		t.Errorf("header = %+v, want target pod/p", h)
	}
}

// TestReaderErrorSticks: after an error, Next keeps returning it.
func TestReaderErrorSticks(t *testing.T) {
	in := strings.Join([]string{headerLine, "oops", podLine}, "\n") + "\n"
	bothModes(t, func(t *testing.T, workers int) {
		rd, err := newReader(strings.NewReader(in), "rec.jsonl", Options{}, workers, MaxLineBytes)
		if err != nil {
			t.Fatal(err)
		}
		_, first := rd.Next(context.Background())
		_, second := rd.Next(context.Background())
		if first == nil || second != first {
			t.Errorf("Next errors = %v, then %v; want the same error twice", first, second)
		}
	})
}

// TestReaderCancelWhileWaiting: a Next waiting for input returns when its context ends, and the
// next call picks up where it left off.
func TestReaderCancelWhileWaiting(t *testing.T) {
	pr, pw := io.Pipe()
	go func() { _, _ = io.WriteString(pw, headerLine+"\n") }()
	rd, err := newReader(pr, "rec.jsonl", Options{}, 3, MaxLineBytes)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := rd.Next(ctx)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Next(cancelled while waiting) error = %v, want context.Canceled", err)
	}
	go func() {
		_, _ = io.WriteString(pw, podLine+"\n")
		pw.Close()
	}()
	if it, err := rd.Next(context.Background()); err != nil || it.Object == nil {
		t.Fatalf("Next after the cancel = %v, %v; want the pod", it, err)
	}
	if _, err := rd.Next(context.Background()); err != io.EOF {
		t.Errorf("Next at the end = %v, want io.EOF", err)
	}
}

func TestReaderClose(t *testing.T) {
	in, _ := manyLines(t, 0)
	rd, err := newReader(strings.NewReader(in), "rec.jsonl", Options{}, 3, MaxLineBytes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rd.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := rd.Next(context.Background()); !errors.Is(err, errClosed) {
		t.Errorf("Next after Close error = %v, want %v", err, errClosed)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
