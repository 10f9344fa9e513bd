package recfile

import (
	"fmt"
	"testing"
	"time"
	"unsafe"
)

// TestInternTable: a text kept is handed back as the same string; a text never kept, or pushed
// out of its slot by another, is made from its own bytes; two texts of one slot are each read
// right, whichever was kept last; times likewise, parsed once while kept.
func TestInternTable(t *testing.T) {
	var tab internTable
	// Two texts of one slot, and a third of another.
	a := []byte("sc-b1-69jc7-000000")
	var b []byte
	for i := 1; b == nil; i++ {
		if c := []byte(fmt.Sprintf("sc-b1-69jc7-%06d", i)); internSlot(c, internBits) == internSlot(a, internBits) {
			b = c
		}
	}
	if s, ok := tab.str(a); ok || s != string(a) {
		t.Fatalf("an empty table gave %q, %v", s, ok)
	}
	tab.keep(a, string(a))
	sa, ok := tab.str(a)
	if !ok || sa != string(a) {
		t.Fatalf("a text kept gave %q, %v", sa, ok)
	}
	if s, _ := tab.str(a); unsafe.StringData(s) != unsafe.StringData(sa) {
		t.Fatalf("a text kept was made again: %q", s)
	}
	for round := range 3 {
		for _, x := range [][]byte{a, b} {
			s, ok := tab.str(x)
			if s != string(x) {
				t.Fatalf("round %d: %q read as %q", round, x, s)
			}
			if !ok {
				tab.keep(x, s)
			}
		}
	}
	if s, ok := tab.str([]byte("")); s != "" || !ok {
		t.Errorf("the empty text gave %q, %v", s, ok)
	}

	parses := 0
	parse := func(text string) func() (time.Time, bool) {
		return func() (time.Time, bool) {
			parses++
			v, err := time.Parse(time.RFC3339, text[1:len(text)-1])
			return v, err == nil
		}
	}
	t1, t2 := `"2026-12-02T08:33:45Z"`, `"2026-12-02T08:33:46Z"`
	for range 3 {
		for _, text := range []string{t1, t2} {
			got, ok := tab.time([]byte(text), parse(text))
			want, _ := time.Parse(time.RFC3339, text[1:len(text)-1])
			if !ok || !got.Equal(want) {
				t.Fatalf("%s read as %v, %v", text, got, ok)
			}
		}
	}
	if internSlot([]byte(t1), timeBits) == internSlot([]byte(t2), timeBits) {
		t.Fatal("the two times share a slot: take two that do not")
	}
	if parses != 2 {
		t.Errorf("two times read three times each were parsed %d times, want once each", parses)
	}
	if _, ok := tab.time([]byte(`"x"`), parse(`"x"`)); ok {
		t.Error("a text that is no time read as one")
	}
	if _, ok := tab.time([]byte(`"x"`), parse(`"x"`)); ok {
		t.Error("a text that is no time was kept as one")
	}
}
