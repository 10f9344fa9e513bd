package watch

import (
	"errors"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// A Note is what sidecar-top says about its own watch, next to what the API server sent: a
// stretch of time it was not watching, a watch that expired and was listed again, a server that
// did not answer. It travels as an item, so that a recording says where its data has holes, and
// is recorded as an item line whose object has sidecar-top's own kind:
//
//	{"time":"...","type":"ADDED","object":{"kind":"Note","apiVersion":"sidecar-top.dev/v1",
//	  "reason":"WatchResumed","resource":"pods","since":"2026-12-02T08:00:01.2Z",
//	  "until":"2026-12-02T08:00:09.4Z","detail":"connection refused"}}
//
// Notes are not observations: the timeline is built from the same items with or without them.
// A reader of version 1 from before them skips them as objects of a kind it does not know.
type Note struct {
	metav1.TypeMeta `json:",inline"`
	Reason          NoteReason `json:"reason"`
	// Resource is the watch the note is about (pods, events, jobs, job events), if one.
	Resource string `json:"resource,omitempty"`
	// Since and Until bound the stretch of time the note is about; Until is zero while it lasts.
	Since time.Time `json:"since,omitzero"`
	Until time.Time `json:"until,omitzero"`
	// Detail is the error that stopped the watch, or the API server's message.
	Detail string `json:"detail,omitempty"`
}

// NoteReason says what a Note is about.
type NoteReason string

// The reasons of notes.
const (
	// WatchLost: a watch stopped and could not be started again; Since is when it stopped.
	WatchLost NoteReason = "WatchLost"
	// WatchResumed: the server took the watch again; Since and Until bound the time without it.
	WatchResumed NoteReason = "WatchResumed"
	// WatchExpired: the server said the watch's resourceVersion is too old (410 Gone); the
	// objects are listed again, so changes made meanwhile come as their latest state only.
	WatchExpired NoteReason = "WatchExpired"
	// NoAnswer: the API server did not answer from Since to Until (a server stopped, a network
	// that drops packets): what happened then was seen late, or only as its end state.
	NoAnswer NoteReason = "NoAnswer"
	// Listed: what the watch holds now is all that was there when it began (its first lists
	// are in). It is a mark in time, not something the API sent: nothing records it.
	Listed NoteReason = "Listed"
)

// NoteKind is the kind of a Note's object; its apiVersion is LogAPIVersion.
const NoteKind = "Note"

var noteTypeMeta = metav1.TypeMeta{Kind: NoteKind, APIVersion: LogAPIVersion}

// NewNote is a note with its kind and apiVersion set.
func NewNote(reason NoteReason, resource string) *Note {
	return &Note{TypeMeta: noteTypeMeta, Reason: reason, Resource: resource}
}

// DeepCopyObject implements runtime.Object.
func (n *Note) DeepCopyObject() runtime.Object {
	out := *n
	return &out
}

// Check refuses a note that says nothing.
func (n *Note) Check() error {
	if n.Reason == "" {
		return errors.New("note has no \"reason\"")
	}
	return nil
}

// Text is the note as a sentence, the same live and in a replay. Times are UTC times of day,
// to the tenth of a second, as in "08:00:01.2Z".
func (n *Note) Text() string {
	what := n.Resource
	if what == "" {
		what = "the target"
	}
	detail := ""
	if n.Detail != "" {
		detail = ": " + n.Detail
	}
	switch n.Reason {
	case WatchLost:
		return fmt.Sprintf("not watching %s since %s%s", what, noteClock(n.Since), detail)
	case WatchResumed:
		return fmt.Sprintf("not watching %s from %s to %s (%s): watching again; changes made meanwhile come as their latest state",
			what, noteClock(n.Since), noteClock(n.Until), noteSpan(n.Since, n.Until))
	case WatchExpired:
		return fmt.Sprintf("the watch of %s expired at %s (410 Gone%s); listed again", what, noteClock(n.Since), detail)
	case NoAnswer:
		return fmt.Sprintf("no answer from the API server from %s to %s (%s): what happened then was seen late",
			noteClock(n.Since), noteClock(n.Until), noteSpan(n.Since, n.Until))
	}
	return fmt.Sprintf("%s %s at %s%s", n.Reason, what, noteClock(n.Since), detail)
}

// noteClock is a time of day in UTC to the tenth of a second, or "?" for none.
func noteClock(t time.Time) string {
	if t.IsZero() {
		return "?"
	}
	return t.UTC().Format("15:04:05.0Z")
}

// noteSpan is how long from a to b, to the tenth of a second.
func noteSpan(a, b time.Time) string {
	if a.IsZero() || b.IsZero() {
		return "?"
	}
	return b.Sub(a).Round(100 * time.Millisecond).String()
}
