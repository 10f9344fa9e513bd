package recfile

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestNoteRecorded: a note is written as an item line, read back as the same Note by Next, with
// no observation, and passed by ReadObservations: a replay reads around it.
func TestNoteRecorded(t *testing.T) {
	at := time.Date(2026, 12, 2, 8, 0, 1, 0, time.UTC)
	lost := watch.NewNote(watch.WatchLost, "pods")
	lost.Since, lost.Detail = at, "connection refused"
	back := watch.NewNote(watch.WatchResumed, "pods")
	back.Since, back.Until = at, at.Add(3*time.Second)
	pod := &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u", CreationTimestamp: metav1.NewTime(at)}}
	items := []watch.Item{
		{Time: at, Type: timeline.Added, Object: pod},
		{Time: at.Add(time.Second), Type: timeline.Added, Object: lost},
		{Time: at.Add(4 * time.Second), Type: timeline.Added, Object: back},
	}
	var buf bytes.Buffer
	rec, err := NewRecorder(&buf, Header{Namespace: "ns", Target: "pod/p", StartTime: at})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if err := rec.Write(it); err != nil {
			t.Fatal(err)
		}
	}
	want := `{"time":"2026-12-02T08:00:02Z","type":"ADDED","object":{"kind":"Note","apiVersion":"sidecar-top.dev/v1","reason":"WatchLost","resource":"pods","since":"2026-12-02T08:00:01Z","detail":"connection refused"}}`
	if lines := strings.Split(buf.String(), "\n"); len(lines) < 3 || lines[2] != want {
		t.Errorf("the note's line:\n got %s\nwant %s", lines[2], want)
	}

	_, got, _, err := ReadAll(bytes.NewReader(buf.Bytes()), "rec.jsonl")
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	if diff := cmp.Diff(items[1:], got[1:]); diff != "" {
		t.Errorf("notes read back (-want +got):\n%s", diff)
	}

	_, obs, _, err := ReadObservations(bytes.NewReader(buf.Bytes()), "rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(obs) != 1 || obs[0].Pod == nil {
		t.Errorf("ReadObservations gave %d observations, want the pod's only: %+v", len(obs), obs)
	}

	// Next hands out every item, each with what Observe makes of it: the pod's observation,
	// and none for a note.
	rd, err := NewReader(bytes.NewReader(buf.Bytes()), "rec.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		rec, err := rd.Next(context.Background())
		if err == io.EOF {
			if i != len(items) {
				t.Errorf("Next gave %d items, want %d", i, len(items))
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		want, wantOK := watch.Observe(rec.Item)
		if rec.IsObs != wantOK || !cmp.Equal(rec.Obs, want) {
			t.Errorf("item %d (%T): Next gave %v %+v, Observe %v %+v", i, rec.Object, rec.IsObs, rec.Obs, wantOK, want)
		}
	}
}

func TestNoteWithoutReasonRefused(t *testing.T) {
	in := headerLine + "\n" + `{"time":"2026-12-02T08:00:01Z","type":"ADDED","object":{"kind":"Note","apiVersion":"sidecar-top.dev/v1"}}` + "\n"
	_, _, _, err := ReadAll(strings.NewReader(in), "rec.jsonl")
	if want := `rec.jsonl:2: malformed object: note has no "reason"`; err == nil || err.Error() != want {
		t.Errorf("ReadAll error = %v, want %q", err, want)
	}
}
