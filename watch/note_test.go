package watch

import (
	"testing"
	"time"
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
