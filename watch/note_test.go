package watch

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
)

func TestNoteText(t *testing.T) {
	since := time.Date(2026, 12, 2, 8, 0, 1, 240_000_000, time.UTC)
	until := since.Add(8200 * time.Millisecond)
	note := func(r NoteReason, res, detail string, until time.Time) *Note {
		n := NewNote(r, res)
		n.Since, n.Until, n.Detail = since, until, detail
		return n
	}
	tests := []struct {
		note *Note
		want string
	}{
		{note(WatchLost, "pods", "dial tcp 127.0.0.1:6443: connect: connection refused", time.Time{}),
			"not watching pods since 08:00:01.2Z: dial tcp 127.0.0.1:6443: connect: connection refused"},
		{note(WatchResumed, "events", "", until),
			"not watching events from 08:00:01.2Z to 08:00:09.4Z (8.2s): watching again; changes made meanwhile come as their latest state"},
		{note(WatchExpired, "pods", "too old resource version: 10 (20)", time.Time{}),
			"the watch of pods expired at 08:00:01.2Z (410 Gone: too old resource version: 10 (20)); listed again"},
		{note(NoAnswer, "", "", until),
			"no answer from the API server from 08:00:01.2Z to 08:00:09.4Z (8.2s): what happened then was seen late"},
		{note("SomethingNew", "", "", time.Time{}), "SomethingNew the target at 08:00:01.2Z"},
	}
	for _, tt := range tests {
		if got := tt.note.Text(); got != tt.want {
			t.Errorf("%s: Text() = %q, want %q", tt.note.Reason, got, tt.want)
		}
	}
}

// TestNoteRecorded: a note is written as an item line, read back as the same Note by Next, and
// passed by NextObservation, which keeps it in Notes: a replay reads around it.
func TestNoteRecorded(t *testing.T) {
	at := time.Date(2026, 12, 2, 8, 0, 1, 0, time.UTC)
	lost := NewNote(WatchLost, "pods")
	lost.Since, lost.Detail = at, "connection refused"
	back := NewNote(WatchResumed, "pods")
	back.Since, back.Until = at, at.Add(3*time.Second)
	pod := &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u", CreationTimestamp: metav1.NewTime(at)}}
	items := []Item{
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

	rd, err := NewReader(bytes.NewReader(buf.Bytes()), "rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var obs []timeline.Observation
	for {
		o, err := rd.NextObservation(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		obs = append(obs, o)
	}
	if len(obs) != 1 || obs[0].Pod == nil {
		t.Errorf("NextObservation gave %d observations, want the pod's only: %+v", len(obs), obs)
	}
	if diff := cmp.Diff([]*Note{lost, back}, rd.Notes); diff != "" {
		t.Errorf("Reader.Notes (-want +got):\n%s", diff)
	}

	// NextObserved hands out every item, each with what Observe makes of it: the pod's
	// observation, and none for a note.
	rd, err = NewReader(bytes.NewReader(buf.Bytes()), "rec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		it, o, ok, err := rd.NextObserved(context.Background())
		if err == io.EOF {
			if i != len(items) {
				t.Errorf("NextObserved gave %d items, want %d", i, len(items))
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		want, wantOK := Observe(it)
		if ok != wantOK || !cmp.Equal(o, want) {
			t.Errorf("item %d (%T): NextObserved gave %v %+v, Observe %v %+v", i, it.Object, ok, o, wantOK, want)
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
