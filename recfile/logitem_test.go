package recfile

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// logsDemo is watch's real recording made with --logs (see watch/logs_recording_test.go).
const logsDemo = "../watch/testdata/logs-demo.jsonl"

// logItems are a run's log in two batches (the second ends it) and the kubelet's line.
func logItems() []watch.Item {
	t0 := time.Date(2026, 12, 2, 8, 0, 1, 0, time.UTC)
	first := watch.NewContainerLog()
	*first = watch.ContainerLog{TypeMeta: first.TypeMeta, Namespace: "ns", Pod: "p", PodUID: "uid-p", Container: "app",
		ContainerID: "containerd://a1", Attempt: 0, FromStart: true, Lines: []watch.LogLine{
			{At: t0.Add(123456789), Len: 17},
			{At: t0.Add(223456789), Len: 0},
			{At: t0.Add(2 * time.Second), Len: 22, Mark: "listening", Text: "listening on :8080 \x1b[31m"},
		}}
	second := watch.NewContainerLog()
	*second = watch.ContainerLog{TypeMeta: second.TypeMeta, Namespace: "ns", Pod: "p", PodUID: "uid-p", Container: "app",
		ContainerID: "containerd://a1", Attempt: 0, Lines: []watch.LogLine{
			{At: t0.Add(9 * time.Second), Len: 1 << 20},
			{At: t0.Add(9*time.Second + 1), Len: 14, Mark: "sigterm", Text: "caught SIGTERM"},
			{At: t0.Add(9*time.Second + 2), Len: 3, Text: "bye"}, // --record-log-text keeps it
		}, End: true}
	kube := watch.NewKubeletLog()
	*kube = watch.KubeletLog{TypeMeta: kube.TypeMeta, Node: "n1", At: t0.Add(8*time.Second + 512345*time.Microsecond),
		Namespace: "ns", Pod: "p", PodUID: "uid-p", Container: "envoy", ContainerID: "containerd://e1", GracePeriod: 30}
	return []watch.Item{
		{Time: t0.Add(150 * time.Millisecond), Type: timeline.Added, Object: first},
		{Time: t0.Add(8600 * time.Millisecond), Type: timeline.Added, Object: kube},
		{Time: t0.Add(9100 * time.Millisecond), Type: timeline.Added, Object: second},
	}
}

func TestLogItemsRoundTrip(t *testing.T) {
	header := Header{Namespace: "ns", Target: "pod/p", StartTime: time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC),
		Logs: true, LogText: true, Marks: []string{"app:sigterm=caught SIGTERM"}, NodeLogs: true}
	var buf bytes.Buffer
	rec, err := NewRecorder(&buf, header)
	if err != nil {
		t.Fatal(err)
	}
	items := logItems()
	for _, it := range items {
		if err := rec.Write(it); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	wantLine := `{"time":"2026-12-02T08:00:09.6Z","type":"ADDED","object":{"kind":"KubeletLog","apiVersion":"sidecar-top.dev/v1","node":"n1","at":"2026-12-02T08:00:09.512345Z","namespace":"ns","pod":"p","podUID":"uid-p","container":"envoy","containerID":"containerd://e1","gracePeriod":30}}`
	if diff := cmp.Diff(lines[2], wantLine); diff != "" {
		t.Errorf("the kubelet's line as recorded (-got +want):\n%s", diff)
	}
	if !strings.Contains(lines[0], `"logs":true,"logText":true,"marks":["app:sigterm=caught SIGTERM"],"nodeLogs":true`) {
		t.Errorf("header %s does not say what it holds", lines[0])
	}

	gotHeader, got, rd, err := ReadAll(bytes.NewReader(buf.Bytes()), "rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := header
	wantHeader.Kind, wantHeader.Version = RecordingKind, RecordingVersion
	if diff := cmp.Diff(gotHeader, &wantHeader); diff != "" {
		t.Errorf("header (-got +want):\n%s", diff)
	}
	if diff := cmp.Diff(got, items); diff != "" {
		t.Errorf("items (-got +want):\n%s", diff)
	}
	if rd.Skipped != 0 {
		t.Errorf("Skipped = %d", rd.Skipped)
	}

	// Replay reads observations: the run's lines, the text of marked lines only.
	_, obs, _, err := ReadObservations(bytes.NewReader(buf.Bytes()), "rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	second := items[2].Object.(*watch.ContainerLog)
	first, _ := watch.Observe(items[0]) // the first batch as translation makes it
	want := []timeline.Observation{
		{Received: items[0].Time, Type: timeline.Added, Log: first.Log},
		{Received: items[1].Time, Type: timeline.Added, Kubelet: &timeline.KubeletObservation{Node: "n1",
			At: items[1].Object.(*watch.KubeletLog).At, Namespace: "ns", Pod: "p", PodUID: "uid-p", Container: "envoy",
			ContainerID: "containerd://e1", GracePeriod: 30}},
		{Received: items[2].Time, Type: timeline.Added, Log: &timeline.LogObservation{Namespace: "ns", Pod: "p",
			PodUID: "uid-p", Container: "app", ContainerID: "containerd://a1", Lines: []timeline.LogLine{
				{At: second.Lines[0].At, Len: 1 << 20},
				{At: second.Lines[1].At, Len: 14, Mark: "sigterm", Text: "caught SIGTERM"},
				{At: second.Lines[2].At, Len: 3},
			}, End: true}},
	}
	if diff := cmp.Diff(obs, want); diff != "" {
		t.Errorf("observations (-got +want):\n%s", diff)
	}
}

func TestLogItemsMalformed(t *testing.T) {
	const pre = `{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"ContainerLog","apiVersion":"sidecar-top.dev/v1",`
	const kpre = `{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"KubeletLog","apiVersion":"sidecar-top.dev/v1",`
	for _, tc := range []struct{ line, want string }{
		{pre + `"pod":"p","lines":[]}}`, `malformed object: ContainerLog has no "container"`},
		{pre + `"container":"c"}}`, `malformed object: ContainerLog has neither "podUID" nor "pod"`},
		{pre + `"pod":"p","container":"c","attempt":-2}}`, `malformed object: ContainerLog "attempt" is -2, not -1 or more`},
		{pre + `"pod":"p","container":"c","lines":[{"len":1}]}}`, `malformed object: ContainerLog line 1 has no "at"`},
		{pre + `"pod":"p","container":"c","lines":[{"at":"2026-12-02T08:00:01Z","len":-1}]}}`, `malformed object: ContainerLog line 1 has "len" -1`},
		{pre + `"pod":"p","container":"c","lines":[{"at":"yesterday","len":1}]}}`, `malformed object: json: `},
		{pre + `"pod":"p","container":"c","lines":{}}}`, `malformed object: json: `},
		{kpre + `"pod":"p","container":"c","containerID":"x"}}`, `malformed object: KubeletLog has no "at"`},
		{kpre + `"at":"2026-12-02T08:00:01Z","pod":"p","container":"c"}}`, `malformed object: KubeletLog needs "container" and "containerID"`},
		{kpre + `"at":"2026-12-02T08:00:01Z","container":"c","containerID":"x"}}`, `malformed object: KubeletLog has neither "podUID" nor "pod"`},
	} {
		_, err := decodeLine([]byte(tc.line))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s\nerror = %v, want %s", tc.line, err, tc.want)
		}
	}
	// Another apiVersion of the same kind is not ours: skipped, as any unknown kind.
	d, err := decodeLine([]byte(`{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"ContainerLog","apiVersion":"sidecar-top.dev/v2","x":1}}`))
	if err != nil || !d.skipped {
		t.Errorf("a ContainerLog of v2: %+v, %v; want skipped", d, err)
	}
}

// logItemSeeds are recorded log item lines, good and bad, for FuzzLogItem.
func logItemSeeds(t testing.TB) []string {
	var buf bytes.Buffer
	rec, err := NewRecorder(&buf, Header{})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range logItems() {
		if err := rec.Write(it); err != nil {
			t.Fatal(err)
		}
	}
	seeds := strings.Split(strings.TrimSpace(buf.String()), "\n")[1:]
	real, err := os.ReadFile(logsDemo) // a real recording's log items
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(real), "\n") {
		if strings.Contains(l, `"kind":"ContainerLog"`) && len(seeds) < 40 {
			seeds = append(seeds, l)
		}
	}
	const pre = `{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"ContainerLog","apiVersion":"sidecar-top.dev/v1",`
	return append(seeds,
		pre+`"pod":"p","container":"c","attempt":-1,"lines":[{"at":"2026-12-02T08:00:01.000000001+02:00","len":0,"text":"\u0000\ud800"}]}}`,
		pre+`"container":"c","podUID":"u","lines":[{"at":"0001-01-01T00:00:00Z","len":1}]}}`,
		pre+`"container":"c","podUID":"u","lines":null,"end":true,"fromStart":false}}`,
		pre+`"container":"c","podUID":"u","lines":[{"at":"2026-12-02T08:00:01Z","len":9223372036854775807,"mark":"x"}]}}`,
		`{"type":"ADDED","time":"2026-12-02T08:00:01Z","object":{"apiVersion":"sidecar-top.dev/v1","kind":"KubeletLog","at":"2026-12-02T08:00:01.5Z","pod":"p","container":"c","containerID":"id","gracePeriod":-5}}`,
	)
}

// FuzzLogItem decodes arbitrary item lines: no panic; a log item it accepts can be filed (a
// container, a pod, stamped lines of no negative length), writes back to a line that decodes
// to the same item, and gives an observation with the same lines and no text of a line that
// matched no mark.
func FuzzLogItem(f *testing.F) {
	for _, s := range logItemSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		d, err := decodeLine([]byte(line))
		if err != nil || d.skipped {
			return
		}
		var obs timeline.Observation
		switch o := d.Item.Object.(type) {
		case *watch.ContainerLog:
			if o.Container == "" || o.Pod == "" && o.PodUID == "" || o.Attempt < -1 {
				t.Fatalf("accepted a batch that cannot be filed: %+v", o)
			}
			obs, _ = watch.Observe(d.Item)
			if obs.Log == nil || len(obs.Log.Lines) != len(o.Lines) {
				t.Fatalf("observation %+v of %+v", obs.Log, o)
			}
			for i, l := range obs.Log.Lines {
				if l.At.IsZero() || l.Len < 0 || l.Mark == "" && l.Text != "" {
					t.Fatalf("observed line %d: %+v", i, l)
				}
			}
		case *watch.KubeletLog:
			if o.At.IsZero() || o.ContainerID == "" || o.Container == "" {
				t.Fatalf("accepted a kubelet line that cannot be filed: %+v", o)
			}
			obs, _ = watch.Observe(d.Item)
			if obs.Kubelet == nil || !obs.Kubelet.At.Equal(o.At) {
				t.Fatalf("observation %+v of %+v", obs.Kubelet, o)
			}
		default:
			return
		}
		var buf bytes.Buffer
		if err := (&Recorder{w: &buf}).Write(d.Item); err != nil {
			t.Fatalf("cannot write back %+v: %v", d.Item.Object, err)
		}
		again, err := decodeLine(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		if err != nil {
			t.Fatalf("written back as %s, it does not decode: %v", buf.Bytes(), err)
		}
		if !validUTF8JSON(line) {
			return // encoding/json writes invalid UTF-8 as U+FFFD: the text changes, on purpose
		}
		if diff := cmp.Diff(again.Item, d.Item); diff != "" {
			t.Fatalf("%s\nwritten back and read again (-again +first):\n%s", line, diff)
		}
	})
}

// validUTF8JSON reports whether a line's strings survive encoding/json unchanged: valid UTF-8
// and no lone surrogate escapes.
func validUTF8JSON(line string) bool {
	var v any
	if json.Unmarshal([]byte(line), &v) != nil {
		return false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	var w any
	return json.Unmarshal(b, &w) == nil && cmp.Equal(v, w) && !strings.Contains(line, `\ud`) && !strings.Contains(line, `\uD`) && strings.ToValidUTF8(line, "\ufffd") == line
}
