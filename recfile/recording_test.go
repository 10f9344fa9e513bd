package recfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/sidecar-top/sidecar-top/internal/fixture"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

func mustSanitize(obj runtime.Object) runtime.Object {
	_, _ = watch.Sanitize(obj)
	return obj
}

func TestRecordingRoundTrip(t *testing.T) {
	cet := time.FixedZone("CET", 3600)
	header := Header{Tool: "sidecar-top test", ServerVersion: "v1.37.2", Namespace: "sc-b1", Target: "job/sc-b1",
		StartTime: time.Date(2026, 12, 2, 9, 33, 11, 177760557, cet)}
	pod := fixture.SidecarPod()
	pod.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}
	items := []watch.Item{
		{Time: time.Date(2026, 12, 2, 9, 33, 11, 177760557, cet), Type: timeline.Added, Object: mustSanitize(pod)},
		{Time: time.Date(2026, 12, 2, 8, 33, 15, 1, time.UTC), Type: timeline.Modified, Object: mustSanitize(&corev1.Event{
			ObjectMeta:     metav1.ObjectMeta{Name: "sc-c.18ed62d93a311a2d", Namespace: "sc-c", UID: "ev"},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "sc-c", FieldPath: "spec.initContainers{sidecar}"},
			Reason:         "Killing", Count: 2, FirstTimestamp: fixture.Sec(1), LastTimestamp: fixture.Sec(2),
			EventTime: metav1.NewMicroTime(fixture.At(1).Add(123 * time.Microsecond)),
		})},
		{Time: time.Date(2026, 12, 2, 8, 33, 16, 999999999, time.UTC), Type: timeline.Added, Object: mustSanitize(&eventsv1.Event{
			ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "ns"},
			Regarding:  corev1.ObjectReference{Kind: "Pod", Name: "p"}, Note: "hello",
		})},
		{Time: time.Date(2026, 12, 2, 8, 33, 48, 660000000, time.UTC), Type: timeline.Deleted, Object: mustSanitize(&batchv1.Job{
			ObjectMeta: metav1.ObjectMeta{Name: "sc-b1", Namespace: "sc-b1"},
			Status: batchv1.JobStatus{Succeeded: 1, Ready: ptr.To[int32](0), Conditions: []batchv1.JobCondition{
				{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastTransitionTime: fixture.Sec(37)}}},
		})},
	}

	var buf bytes.Buffer
	rec, err := NewRecorder(&buf, header)
	if err != nil {
		t.Fatalf("NewRecorder: %v", err)
	}
	for _, it := range items {
		if err := rec.Write(it); err != nil {
			t.Fatalf("Write(%T): %v", it.Object, err)
		}
	}
	if n := strings.Count(buf.String(), "\n"); n != 1+len(items) {
		t.Errorf("recording has %d lines, want %d", n, 1+len(items))
	}

	gotHeader, got, rd, err := ReadAll(&buf, "rec.jsonl")
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	wantHeader := header
	wantHeader.Kind, wantHeader.Version = RecordingKind, RecordingVersion
	if diff := cmp.Diff(&wantHeader, gotHeader); diff != "" {
		t.Errorf("header mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(items, got); diff != "" {
		t.Errorf("items mismatch (-want +got):\n%s", diff)
	}
	if rd.Truncated || rd.Skipped != 0 {
		t.Errorf("Truncated, Skipped = %v, %d; want false, 0", rd.Truncated, rd.Skipped)
	}
}

func TestReadRealRecordings(t *testing.T) {
	headers := map[string]Header{
		"startup-probe.jsonl": {Namespace: "sc-a", Target: "pod/sc-a",
			StartTime: time.Date(2026, 12, 2, 8, 32, 51, 501436641, time.UTC)},
		"job-native-sidecar.jsonl": {Namespace: "sc-b1", Target: "job/sc-b1",
			StartTime: time.Date(2026, 12, 2, 8, 33, 11, 177760557, time.UTC)},
		"job-classic-sidecar.jsonl": {Namespace: "sc-b2", Target: "job/sc-b2",
			StartTime: time.Date(2026, 12, 2, 8, 33, 55, 967586787, time.UTC)},
		"termination-order.jsonl": {Namespace: "sc-c", Target: "pod/sc-c",
			StartTime: time.Date(2026, 12, 2, 8, 35, 5, 590797572, time.UTC)},
		"crashing-sidecar.jsonl": {Namespace: "sc-e", Target: "pod/sc-e",
			StartTime: time.Date(2026, 12, 2, 8, 35, 56, 720266506, time.UTC)},
	}
	paths, err := filepath.Glob(filepath.Join("..", "recordings", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no recordings found: %v", err)
	}
	for _, path := range paths {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".jsonl"), func(t *testing.T) {
			want, ok := headers[name]
			if !ok {
				t.Fatalf("%s: no expected header in this test; add one", name)
			}
			want.Kind, want.Version, want.ServerVersion = RecordingKind, 1, "v1.37.2"
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.Count(data, []byte("\n"))

			h, items, rd, err := ReadAll(bytes.NewReader(data), name)
			if err != nil {
				t.Fatalf("ReadAll: %v", err)
			}
			if diff := cmp.Diff(&want, h); diff != "" {
				t.Errorf("header mismatch (-want +got):\n%s", diff)
			}
			if len(items) != lines-1 {
				t.Errorf("got %d items, want %d (lines - 1)", len(items), lines-1)
			}
			if rd.Truncated || rd.Skipped != 0 {
				t.Errorf("Truncated, Skipped = %v, %d; want false, 0", rd.Truncated, rd.Skipped)
			}
			for i, it := range items {
				if _, ok := watch.Observe(it); !ok || it.Time.IsZero() || i > 0 && it.Time.Before(items[i-1].Time) {
					t.Errorf("item %d: %s %T at %v: not observable or out of order", i, it.Type, it.Object, it.Time)
				}
			}
		})
	}
}

// readAll is ReadAll with a chosen number of decoding workers (1: decoded in Next) and line limit.
func readAll(in io.Reader, workers, maxLine int) (*Header, []watch.Item, *Reader, error) {
	rd, err := newReader(in, "rec.jsonl", Options{}, workers, maxLine)
	if err != nil {
		return nil, nil, nil, err
	}
	var items []watch.Item
	for {
		it, err := rd.Next(context.Background())
		if err == io.EOF {
			return rd.Header(), items, rd, nil
		}
		if err != nil {
			return nil, items, rd, err
		}
		items = append(items, it.Item)
	}
}

// bothModes runs f with the reader decoding in Next and with decoding workers.
func bothModes(t *testing.T, f func(t *testing.T, workers int)) {
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) { f(t, workers) })
	}
}

const (
	headerLine = `{"kind":"SidecarTopRecording","version":1,"namespace":"ns","target":"pod/p","startTime":"2026-12-02T08:00:00Z"}`
	podLine    = `{"time":"2026-12-02T08:00:01.123456789Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}}}`
)

func TestReadMalformed(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		wantErr string
	}{
		{"not JSON", `not json`, "malformed line"},
		{"no time", `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"}}`, `no "time"`},
		{"bad time", `{"time":"yesterday","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"}}`, "malformed line"},
		{"bad type", `{"time":"2026-12-02T08:00:02Z","type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1"}}`, `"type" is "BOOKMARK"`},
		{"no type", `{"time":"2026-12-02T08:00:02Z","object":{"kind":"Pod","apiVersion":"v1"}}`, `"type" is ""`},
		{"no object", `{"time":"2026-12-02T08:00:02Z","type":"ADDED"}`, `no "object"`},
		{"null object", `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":null}`, `no "object"`},
		{"object without kind", `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"metadata":{"name":"p"}}}`, "malformed object"},
		{"object not an object", `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":"pod"}`, `malformed object: "object" is the string "pod", not a JSON object`},
		{"object an array", `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":[1]}`, `malformed object: "object" is an array, not a JSON object`},
		{"pod with a bad spec", `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","spec":"x"}}`, "malformed object"},
		{"object without apiVersion", `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"kind":"Pod","metadata":{"name":"p"}}}`, `no "apiVersion"`},
		{"kind not a string", `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"metadata":{},"kind":1,"apiVersion":"v1"}}`, `"kind" is number, not a string`},
		{"kind twice", `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","kind":"Job"}}`, `duplicate object member name "kind"`},
		{"time twice", `{"time":"2026-12-02T08:00:02Z","time":"2026-12-02T08:00:03Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"}}`, `malformed line: jsontext: duplicate object member name "time"`},
		{"cut short, then a whole line", `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"kind":"Pod","apiVe`, "malformed object"},
		{"a bad time in the object", `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"creationTimestamp":"noon"}}}`, `malformed object`},
		{"a bad quantity", `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","spec":{"overhead":{"cpu":"lots"}}}}`, `quantities must match`},
	}
	bothModes(t, func(t *testing.T, workers int) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				// Line 3 is bad; a whole line follows it, so it is not mistaken for a truncated end.
				in := strings.Join([]string{headerLine, podLine, tt.line, podLine}, "\n") + "\n"
				_, items, _, err := readAll(strings.NewReader(in), workers, MaxLineBytes)
				if err == nil {
					t.Fatal("ReadAll succeeded, want an error")
				}
				if msg := err.Error(); !strings.HasPrefix(msg, "rec.jsonl:3: ") || !strings.Contains(msg, tt.wantErr) {
					t.Errorf("ReadAll error = %q, want it to start with %q and contain %q", msg, "rec.jsonl:3: ", tt.wantErr)
				}
				if len(items) != 1 {
					t.Errorf("got %d items before the error, want 1", len(items))
				}
			})
		}
	})
}

func TestReadHeader(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		wantHeader bool
		wantItems  int
		wantErr    string // empty: no error
	}{
		{name: "with header", in: headerLine + "\n" + podLine + "\n", wantHeader: true, wantItems: 1},
		{name: "header only", in: headerLine + "\n", wantHeader: true},
		{name: "header only, no newline", in: headerLine, wantHeader: true},
		{name: "no header", in: podLine + "\n" + podLine + "\n", wantItems: 2},
		{name: "newer version", in: strings.Replace(headerLine, `"version":1`, `"version":2`, 1) + "\n" + podLine + "\n",
			wantErr: "rec.jsonl:1: recording version 2 is newer than this sidecar-top reads (1): upgrade sidecar-top"},
		{name: "no version", in: strings.Replace(headerLine, `"version":1,`, ``, 1) + "\n",
			wantErr: `rec.jsonl:1: recording header has no valid version: "version" is missing, want a whole number such as 1`},
		{name: "version a string", in: strings.Replace(headerLine, `"version":1`, `"version":"1"`, 1) + "\n" + podLine + "\n",
			wantErr: `rec.jsonl:1: recording header has no valid version: "version" is the string "1", want a whole number such as 1`},
		{name: "version a fraction", in: strings.Replace(headerLine, `"version":1`, `"version":1.5`, 1) + "\n",
			wantErr: `rec.jsonl:1: recording header has no valid version: "version" is the number 1.5, want a whole number such as 1`},
		{name: "version zero", in: strings.Replace(headerLine, `"version":1`, `"version":0`, 1) + "\n",
			wantErr: `rec.jsonl:1: recording header has no valid version: "version" is the number 0, want a whole number such as 1`},
		{name: "version huge", in: strings.Replace(headerLine, `"version":1`, `"version":99999999999999999999`, 1) + "\n",
			wantErr: `rec.jsonl:1: recording header has no valid version: "version" is the number 99999999999999999999, want a whole number such as 1`},
		{name: "version null", in: strings.Replace(headerLine, `"version":1`, `"version":null`, 1) + "\n",
			wantErr: `rec.jsonl:1: recording header has no valid version: "version" is null, want a whole number such as 1`},
		{name: "version a string with a terminal escape", in: strings.Replace(headerLine, `"version":1`, `"version":"\u001b]0;pwned\u0007\u009b2J"`, 1) + "\n",
			wantErr: `rec.jsonl:1: recording header has no valid version: "version" is the string "\x1b]0;pwned\a\u009b2J", want a whole number such as 1`},
		{name: "version an object", in: strings.Replace(headerLine, `"version":1`, `"version":{}`, 1) + "\n",
			wantErr: `rec.jsonl:1: recording header has no valid version: "version" is an object, want a whole number such as 1`},
		{name: "bad start time", in: strings.Replace(headerLine, `"2026-12-02T08:00:00Z"`, `"yesterday"`, 1) + "\n",
			wantErr: `rec.jsonl:1: malformed recording header: `},
		{name: "byte order mark", in: "\ufeff" + headerLine + "\n" + podLine + "\n", wantHeader: true, wantItems: 1},
		{name: "byte order mark, no header", in: "\ufeff" + podLine + "\n", wantItems: 1},
		{name: "a byte order mark on line 2 is not ignored", in: headerLine + "\n\ufeff" + podLine + "\n",
			wantErr: "rec.jsonl:2: malformed line"},
		{name: "header cut short", in: headerLine[:30], wantItems: 0},
		{name: "empty file", in: "", wantErr: "rec.jsonl: empty recording"},
		{name: "blank file", in: "  \t", wantErr: "rec.jsonl: empty recording"},
	}
	bothModes(t, func(t *testing.T, workers int) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				h, items, _, err := readAll(strings.NewReader(tt.in), workers, MaxLineBytes)
				if tt.wantErr != "" {
					if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
						t.Fatalf("ReadAll error = %v, want one starting with %q", err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatalf("ReadAll: %v", err)
				}
				if (h != nil) != tt.wantHeader || len(items) != tt.wantItems {
					t.Errorf("ReadAll = header %v, %d items; want header %v, %d items", h != nil, len(items), tt.wantHeader, tt.wantItems)
				}
			})
		}
	})
}

func TestReadTruncated(t *testing.T) {
	tests := []struct {
		name          string
		last          string
		wantItems     int
		wantTruncated bool
	}{
		{"killed mid-line", `{"time":"2026-12-02T08:00:02.5Z","type":"MODIFIED","object":{"kind":"Pod","apiVe`, 2, true},
		{"killed mid-time", `{"time":"2026-12-02T0`, 2, true},
		{"whole last line without its newline", podLine, 3, false},
		{"blank last line without its newline", "  ", 2, false},
	}
	bothModes(t, func(t *testing.T, workers int) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				in := headerLine + "\n" + podLine + "\n" + podLine + "\n" + tt.last
				_, items, rd, err := readAll(strings.NewReader(in), workers, MaxLineBytes)
				if err != nil {
					t.Fatalf("ReadAll: %v", err)
				}
				if len(items) != tt.wantItems || rd.Truncated != tt.wantTruncated {
					t.Errorf("ReadAll = %d items, Truncated %v; want %d items, Truncated %v",
						len(items), rd.Truncated, tt.wantItems, tt.wantTruncated)
				}
			})
		}
		t.Run("no header, the only line cut short", func(t *testing.T) {
			_, items, rd, err := readAll(strings.NewReader(podLine[:40]), workers, MaxLineBytes)
			if err != nil || len(items) != 0 || !rd.Truncated {
				t.Errorf("ReadAll = %d items, Truncated %v, error %v; want 0 items, Truncated, no error", len(items), rd.Truncated, err)
			}
		})
	})
}

func TestReadSkips(t *testing.T) {
	configMap := `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"}}}`
	widget := `{"time":"2026-12-02T08:00:03Z","type":"ADDED","object":{"kind":"Widget","apiVersion":"example.com/v1","metadata":{"name":"w"}}}`
	in := strings.Join([]string{headerLine, "", podLine, "  ", configMap, widget, "", podLine, ""}, "\n")
	_, items, rd, err := ReadAll(strings.NewReader(in), "rec.jsonl")
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	if len(items) != 2 || rd.Skipped != 2 {
		t.Errorf("ReadAll = %d items, Skipped %d; want 2 items, Skipped 2", len(items), rd.Skipped)
	}

	// Blank lines still count in the line numbers of errors.
	in = strings.Join([]string{headerLine, "", podLine, "", "oops", podLine, ""}, "\n")
	_, _, _, err = ReadAll(strings.NewReader(in), "rec.jsonl")
	if err == nil || !strings.HasPrefix(err.Error(), "rec.jsonl:5: ") {
		t.Errorf("ReadAll error = %v, want one starting with rec.jsonl:5:", err)
	}
}

func TestReaderNextCancelled(t *testing.T) {
	rd, err := NewReader(strings.NewReader(headerLine+"\n"+podLine+"\n"), "rec.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := rd.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Next(cancelled) error = %v, want context.Canceled", err)
	}
}

// TestRecorderOneWritePerLine checks that a recorder killed at any moment leaves whole lines:
// each line reaches the writer in a single Write.
func TestRecorderOneWritePerLine(t *testing.T) {
	var w writeLog
	rec, err := NewRecorder(&w, Header{Namespace: "ns", Target: "pod/p"})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Write(watch.Item{Time: fixture.At(1), Type: timeline.Added, Object: mustSanitize(fixture.SidecarPod())}); err != nil {
		t.Fatal(err)
	}
	for i, b := range w {
		if bytes.Count(b, []byte("\n")) != 1 || !bytes.HasSuffix(b, []byte("\n")) {
			t.Errorf("write %d is not exactly one line: %q", i, b)
		}
	}
	if len(w) != 2 {
		t.Errorf("got %d writes, want 2 (header, item)", len(w))
	}
}

type writeLog [][]byte

func (w *writeLog) Write(b []byte) (int, error) {
	*w = append(*w, bytes.Clone(b))
	return len(b), nil
}
