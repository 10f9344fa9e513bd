package recfile

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// fuzzSeeds are the seed corpus of FuzzReader: each line of the real recordings after its
// recording's header, and the bad inputs the reader must refuse or survive.
func fuzzSeeds(t testing.TB) [][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "recordings", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no recordings found: %v", err)
	}
	var seeds [][]byte
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		for _, l := range lines[1:] {
			seeds = append(seeds, []byte(lines[0]+"\n"+l+"\n"))
		}
	}
	pod := podLine + "\n"
	for _, s := range []string{
		"",
		"\n\n",
		"\ufeff" + headerLine + "\n" + pod,
		"\ufeff" + pod,
		headerLine + "\r\n" + strings.TrimSuffix(pod, "\n") + "\r\n",
		strings.Replace(headerLine, `"version":1`, `"version":"1"`, 1) + "\n" + pod,
		strings.Replace(headerLine, `"version":1`, `"version":2`, 1) + "\n" + pod,
		strings.Replace(headerLine, `"version":1`, `"version":1e0`, 1) + "\n" + pod,
		strings.Replace(headerLine, `"version":1,`, ``, 1) + "\n" + pod,
		headerLine + "\n" + pod + podLine[:50],
		headerLine[:20],
		pod + pod,
		headerLine + "\n" + strings.Repeat("\x00", 3000),
		headerLine + "\n" + strings.Repeat("x", 3000) + "\n" + pod,
		headerLine + "\n\n  \n" + pod + "\n",
		headerLine + "\n" + `{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"metadata":{"name":"p"},"apiVersion":"v1","kind":"Pod"}}` + "\n",
		headerLine + "\n" + `{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","kind":"Job"}}` + "\n",
		headerLine + "\n" + `{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","KIND":"Job"}}` + "\n",
		headerLine + "\n" + `{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1"}}` + "\n" + pod,
		headerLine + "\n" + `{"time":"2026-12-02T08:00:01Z","type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1"}}` + "\n",
		headerLine + "\n" + "{\"time\":\"2026-12-02T08:00:01Z\",\"type\":\"ADDED\",\"object\":{\"kind\":\"Event\",\"apiVersion\":\"v1\",\"message\":\"\xff\x1b]52;c;aGk=\x07\"}}\n",
		headerLine + "\n" + `{"time":"1970-01-01T00:00:00.000000001Z","type":"DELETED","object":{"kind":"Job","apiVersion":"batch/v1","status":{"ready":-1}}}` + "\n",
		headerLine + "\n" + `{"time":"2099-12-31T23:59:59Z","type":"MODIFIED","object":{"kind":"Event","apiVersion":"events.k8s.io/v1","eventTime":"x"}}` + "\n",
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// fuzzResult is what a reader made of an input.
type fuzzResult struct {
	header    *Header
	items     []watch.Item
	err       string
	truncated bool
	skipped   int
}

func readFuzz(data []byte, workers, maxLine int) fuzzResult {
	return readFuzzWith(data, workers, maxLine, false)
}

// readFuzzWith is readFuzz, with a slim reader if slim (Options.Objects Slim).
func readFuzzWith(data []byte, workers, maxLine int, slim bool) fuzzResult {
	var opts Options
	if slim {
		opts.Objects = Slim
	}
	rd, err := newReader(bytes.NewReader(data), "fuzz.jsonl", opts, workers, maxLine)
	if err != nil {
		return fuzzResult{err: err.Error()}
	}
	defer rd.Close()
	r := fuzzResult{header: rd.Header()}
	for {
		it, err := rd.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			r.err = err.Error()
			break
		}
		r.items = append(r.items, it.Item)
	}
	r.truncated, r.skipped = rd.Truncated, rd.Skipped
	return r
}

// FuzzReader reads arbitrary input: the reader must not panic; decoding in Next and in workers
// must agree; every item must be one the timeline can use; an error must name the file and, for
// a line, a line of the input; a smaller line limit must fail at the first line over it, and
// not before; and an object the reader accepts must be what apimachinery makes of it.
func FuzzReader(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	deserializer := scheme.Codecs.UniversalDeserializer()
	f.Fuzz(func(t *testing.T, data []byte) {
		const bigLimit, smallLimit = 1 << 20, 256
		got := readFuzz(data, 3, bigLimit)
		want := readFuzz(data, 1, bigLimit)
		if diff := cmp.Diff(fuzzJSON(t, got), fuzzJSON(t, want)); diff != "" {
			t.Fatalf("workers and Next disagree (-workers +Next):\n%s", diff)
		}

		lines := strings.Split(string(bytes.TrimPrefix(data, bom)), "\n")
		if got.err != "" {
			var n int
			if _, err := fmt.Sscanf(got.err, "fuzz.jsonl:%d:", &n); err == nil && (n < 1 || n > len(lines)) {
				t.Fatalf("error %q names line %d of %d", got.err, n, len(lines))
			} else if err != nil && !strings.HasPrefix(got.err, "fuzz.jsonl: ") {
				t.Fatalf("error %q does not name the file", got.err)
			}
		}
		for i, it := range got.items {
			checkItem(t, i, it)
		}
		checkSlimRead(t, data, got)

		long := 0 // the first line over the small limit
		for i, l := range lines {
			if len(l) > smallLimit {
				long = i + 1
				break
			}
		}
		small := readFuzz(data, 3, smallLimit)
		wantLong := fmt.Sprintf("fuzz.jsonl:%d: line is longer than %d bytes", long, smallLimit)
		switch {
		case long == 0:
			if diff := cmp.Diff(fuzzJSON(t, small), fuzzJSON(t, got)); diff != "" {
				t.Fatalf("no line over %d bytes, yet the limit changed the result (-limited +not):\n%s", smallLimit, diff)
			}
		case small.err != got.err && !strings.HasPrefix(small.err, wantLong):
			t.Fatalf("with a limit of %d bytes, error = %q; want %q... or, as without it, %q", smallLimit, small.err, wantLong, got.err)
		case len(small.items) > len(got.items):
			t.Fatalf("with a limit, %d items; without, %d", len(small.items), len(got.items))
		}

		for _, l := range lines {
			d, err := decodeLine([]byte(l))
			if err != nil || d.skipped {
				continue
			}
			var w struct{ Object json.RawMessage }
			if json.Unmarshal([]byte(l), &w) != nil {
				continue
			}
			ref, _, err := deserializer.Decode(w.Object, nil, nil)
			if err != nil || caseVariantTypeMeta(w.Object) {
				continue // apimachinery refuses it, or reads "KIND" as "kind" where the reader does not
			}
			if diff := cmp.Diff(d.Item.Object, ref); diff != "" {
				t.Fatalf("%s\ndecodes unlike apimachinery (-reader +apimachinery):\n%s", l, diff)
			}
		}
	})
}

// checkSlimRead: where a reader accepts the input whole, a slim one (Objects Slim) accepts it
// too and makes of each object what Slim keeps of it, and one of no objects (NoObjects)
// observes it as the slim one does. (Where it does not, a slim reader may
// accept a line whose error was in a member it skips.)
func checkSlimRead(t *testing.T, data []byte, whole fuzzResult) {
	t.Helper()
	if whole.err != "" {
		return
	}
	for _, workers := range []int{1, 3} {
		got := readFuzzWith(data, workers, 1<<20, true)
		if got.err != "" || len(got.items) != len(whole.items) || got.skipped != whole.skipped || got.truncated != whole.truncated {
			t.Fatalf("a slim reader (%d workers): %d items, %d skipped, truncated %v, error %q; whole: %d, %d, %v, none",
				workers, len(got.items), got.skipped, got.truncated, got.err, len(whole.items), whole.skipped, whole.truncated)
		}
		for i, it := range got.items {
			want := whole.items[i]
			want.Object = watch.Slim(want.Object.DeepCopyObject()).(runtime.Object)
			if diff := cmp.Diff(want, it); diff != "" {
				t.Fatalf("item %d: a slim reader (%d workers) read unlike Slim of the whole object (-Slim +slim reader):\n%s", i, workers, diff)
			}
		}
	}
	checkTransientRead(t, "fuzz", data)
}

// checkItem holds an item to what the timeline expects of one.
func checkItem(t *testing.T, i int, it watch.Item) {
	t.Helper()
	if it.Time.IsZero() || it.Type != timeline.Added && it.Type != timeline.Modified && it.Type != timeline.Deleted {
		t.Fatalf("item %d: time %v, type %q", i, it.Time, it.Type)
	}
	var tm metav1.TypeMeta
	switch o := it.Object.(type) {
	case *corev1.Pod:
		tm = o.TypeMeta
	case *corev1.Event:
		tm = o.TypeMeta
	case *eventsv1.Event:
		tm = o.TypeMeta
	case *batchv1.Job:
		tm = o.TypeMeta
	case *watch.ContainerLog:
		tm = o.TypeMeta
	case *watch.KubeletLog:
		tm = o.TypeMeta
	default:
		t.Fatalf("item %d is a %T", i, it.Object)
	}
	if obj := newObject(tm.Kind, tm.APIVersion); fmt.Sprintf("%T", obj) != fmt.Sprintf("%T", it.Object) {
		t.Fatalf("item %d is a %T that says it is %s %s", i, it.Object, tm.APIVersion, tm.Kind)
	}
	if _, ok := watch.Observe(it); !ok {
		t.Fatalf("item %d (%T) is not observable", i, it.Object)
	}
}

// caseVariantTypeMeta reports whether an object has a member that is "kind" or "apiVersion" in
// another case: apimachinery finds the kind with encoding/json, which matches names without
// regard to case, then decodes case-sensitively; the reader is case-sensitive throughout.
func caseVariantTypeMeta(obj []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return true
	}
	for k := range m {
		if (strings.EqualFold(k, "kind") && k != "kind") || (strings.EqualFold(k, "apiVersion") && k != "apiVersion") {
			return true
		}
	}
	return false
}

// fuzzJSON is a result in a form cmp can compare quickly and completely.
func fuzzJSON(t *testing.T, r fuzzResult) map[string]any {
	items := make([]string, len(r.items))
	for i, it := range r.items {
		items[i] = fmt.Sprintf("%s %s %s", it.Time.UTC().Format("2006-01-02T15:04:05.999999999Z07:00"), it.Type, mustJSON(t, it.Object))
	}
	return map[string]any{"header": r.header, "items": items, "err": r.err, "truncated": r.truncated, "skipped": r.skipped}
}
