package watch

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPulse: the silence grows from the last answer; an answer after a silence of StaleAfter or
// more gives the note that says so, a shorter one none.
func TestPulse(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	var p pulse
	if got := p.silent(t0); got != 0 {
		t.Errorf("silent before any answer = %v, want 0", got)
	}
	if n := p.answered(t0); n != nil {
		t.Errorf("the first answer gave a note: %+v", n)
	}
	if got := p.silent(t0.Add(3 * time.Second)); got != 3*time.Second {
		t.Errorf("silent 3s after the answer = %v", got)
	}
	if n := p.answered(t0.Add(StaleAfter - time.Millisecond)); n != nil {
		t.Errorf("an answer within StaleAfter gave a note: %+v", n)
	}
	last := t0.Add(StaleAfter - time.Millisecond)
	back := last.Add(20 * time.Second)
	want := NewNote(NoAnswer, "")
	want.Since, want.Until = last, back
	if diff := cmp.Diff(want, p.answered(back)); diff != "" {
		t.Errorf("the note after 20s of silence (-want +got):\n%s", diff)
	}
	if n := p.answered(back.Add(-time.Second)); n != nil || p.silent(back) != 0 {
		t.Errorf("an answer stamped before the last one moved the pulse back: note %+v, silent %v", n, p.silent(back))
	}
}
