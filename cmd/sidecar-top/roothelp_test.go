package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/watch"
)

// TestRootHelpTargetKinds: the root command's help names the kinds a TARGET may be as
// ParseTarget's error does (both from watch's table of them), and its TARGET paragraph, filled
// by fillWords, has no line wider than helpWidth.
func TestRootHelpTargetKinds(t *testing.T) {
	long := rootLong()
	want := "TARGET is a pod name, " + watch.TargetKindUsage() + ";"
	if !strings.Contains(strings.Join(strings.Fields(long), " "), want) {
		t.Errorf("the help does not say %q:\n%s", want, long)
	}
	_, target, _ := strings.Cut(long, "\n\n")
	for _, l := range strings.Split(target, "\n") {
		if len(l) > helpWidth {
			t.Errorf("a line of %d columns, over %d: %s", len(l), helpWidth, l)
		}
	}
}

func TestFillWords(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  string
	}{
		{"", 10, ""},
		{"a b c", 10, "a b c"},
		{"aaa bbb\n  ccc", 7, "aaa bbb\nccc"},
		{"aaa bbb ccc", 6, "aaa\nbbb\nccc"},
		{"a verylongword b", 5, "a\nverylongword\nb"},
		{"→ → →", 3, "→ →\n→"}, // columns, not bytes
	} {
		if got := fillWords(c.text, c.width); got != c.want {
			t.Errorf("fillWords(%q, %d):\n%s", c.text, c.width, cmp.Diff(got, c.want))
		}
	}
}
