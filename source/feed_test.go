package source

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// slice is a watch.Source of its items, then its error (io.EOF when none).
type slice struct {
	items []watch.Item
	err   error
}

func (s *slice) Next(context.Context) (watch.Item, error) {
	if len(s.items) == 0 {
		if s.err != nil {
			return watch.Item{}, s.err
		}
		return watch.Item{}, io.EOF
	}
	it := s.items[0]
	s.items = s.items[1:]
	return it, nil
}

// TestFeed: every item is recorded before it is handed on, a note comes as its text, an object
// as an observation, and a watch's error as a transient one.
func TestFeed(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	pod := &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web", UID: "uid", CreationTimestamp: metav1.NewTime(t0)}}
	note := watch.NewNote(watch.WatchLost, "pods")
	src := &slice{items: []watch.Item{{Time: t0, Type: timeline.Added, Object: pod}, {Time: t0.Add(time.Second), Type: timeline.Added, Object: note}},
		err: &watch.WatchError{Resource: "events", Err: errors.New("boom")}}
	var b bytes.Buffer
	rec, err := recfile.NewRecorder(&b, recfile.Header{Namespace: "ns", Target: "pod/web", StartTime: t0})
	if err != nil {
		t.Fatal(err)
	}
	f := Recorded(src, rec)
	in, err := f.Next(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := f.Observe(in); !ok || o.Pod == nil || o.Pod.Name != "web" || !o.Received.Equal(t0) {
		t.Errorf("the pod's observation: %+v, %v", o, ok)
	}
	in, err = f.Next(t.Context())
	if err != nil || in.Note != note.Text() {
		t.Errorf("the note: %+v, %v", in, err)
	}
	if _, ok := f.Observe(in); ok {
		t.Error("a note is an observation")
	}
	_, err = f.Next(t.Context())
	var transient interface{ Transient() bool }
	if !errors.As(err, &transient) || !transient.Transient() {
		t.Errorf("the watch's error is not transient: %v", err)
	}
	if got := strings.Count(b.String(), "\n"); got != 3 {
		t.Errorf("the recording has %d lines, want the header and both items:\n%s", got, b.String())
	}
}

// TestPlay: a recording played to its end, with its header and its pods' runtime.
func TestPlay(t *testing.T) {
	r, err := recordings.Open("startup-probe")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rec, err := Play(t.Context(), r, "startup-probe.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header == nil || rec.Header.Target != "pod/sc-a" || rec.Final.Pods.Len() != 1 || rec.Truncated {
		t.Fatalf("played: header %+v, %d pods, truncated %v", rec.Header, rec.Final.Pods.Len(), rec.Truncated)
	}
	if got := rec.Runtimes[rec.Final.Pods.At(0).UID]; got != "containerd" {
		t.Errorf("runtime %q, want containerd", got)
	}
}

// TestObserveAhead: a recording read ahead of what is applied (RunLive reads on a goroutine of
// its own) is observed item by item all the same.
func TestObserveAhead(t *testing.T) {
	r, err := recordings.Open("termination-order")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rd, err := recfile.NewReader(r, "termination-order.jsonl", recfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := OfRecording(rd)
	var ins []play.Input
	for {
		in, err := f.Next(t.Context())
		if err != nil {
			break
		}
		ins = append(ins, in)
	}
	for i, in := range ins {
		o, ok := f.Observe(in)
		if in.Note == "" && (!ok || !o.Received.Equal(in.Time)) {
			t.Fatalf("input %d (%T) observed as %+v, %v", i, in.Item, o, ok)
		}
	}
}
