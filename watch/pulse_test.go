package watch

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPulse: the silence grows from the last answer; an answer after a silence of StaleAfter or
// more gives the note that says so, a shorter one none. The silence is measured on the clock the
// answers came with; the note tells it in receive times, here 7 ms apart from it (a stepped clock).
func TestPulse(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	step := 7 * time.Millisecond
	var p pulse
	if got := p.silent(t0); got != 0 {
		t.Errorf("silent before any answer = %v, want 0", got)
	}
	if n := p.answered(t0, t0.Add(step)); n != nil {
		t.Errorf("the first answer gave a note: %+v", n)
	}
	if got := p.silent(t0.Add(3 * time.Second)); got != 3*time.Second {
		t.Errorf("silent 3s after the answer = %v", got)
	}
	if n := p.answered(t0.Add(StaleAfter-time.Millisecond), t0.Add(StaleAfter-time.Millisecond+step)); n != nil {
		t.Errorf("an answer within StaleAfter gave a note: %+v", n)
	}
	last := t0.Add(StaleAfter - time.Millisecond)
	back := last.Add(20 * time.Second)
	want := NewNote(NoAnswer, "")
	want.Since, want.Until = last.Add(step), back.Add(step)
	if diff := cmp.Diff(want, p.answered(back, back.Add(step))); diff != "" {
		t.Errorf("the note after 20s of silence (-want +got):\n%s", diff)
	}
	if n := p.answered(back.Add(-time.Second), back.Add(step)); n != nil || p.silent(back) != 0 {
		t.Errorf("an answer stamped before the last one moved the pulse back: note %+v, silent %v", n, p.silent(back))
	}
}
