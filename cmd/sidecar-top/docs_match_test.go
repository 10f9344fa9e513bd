package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// cut is the line that stands for any number of lines of an output in a document.
const cut = "..."

// segments splits a shown output at its cuts: the parts between them, a leading or trailing
// part empty when the output begins or ends with a cut.
func segments(want []string) [][]string {
	segs := [][]string{{}}
	for _, l := range want {
		if l == cut {
			segs = append(segs, []string{})
			continue
		}
		segs[len(segs)-1] = append(segs[len(segs)-1], l)
	}
	return segs
}

// matchOutput reports whether got is what want shows: line for line, each cut standing for any
// number of lines (none included).
func matchOutput(want, got []string) bool {
	segs := segments(want)
	if len(segs) == 1 {
		return cmp.Equal(want, got)
	}
	first, last := segs[0], segs[len(segs)-1]
	if len(got) < len(first)+len(last) || !cmp.Equal(got[:len(first)], first) ||
		!cmp.Equal(got[len(got)-len(last):], last) {
		return false
	}
	return matchMiddle(segs[1:len(segs)-1], got[len(first):len(got)-len(last)])
}

// matchMiddle reports whether the segments appear in got in order, anything before, between and
// after them.
func matchMiddle(segs [][]string, got []string) bool {
	if len(segs) == 0 {
		return true
	}
	seg := segs[0]
	for i := 0; i+len(seg) <= len(got); i++ {
		if cmp.Equal(got[i:i+len(seg)], seg) && matchMiddle(segs[1:], got[i+len(seg):]) {
			return true
		}
	}
	return false
}

// reshape is got cut as want is: its first lines for want's first part, its last lines for
// want's last part, and for each part between, as many lines from the line that shares the most
// words with the part's first line. What it cuts is thus the same part of the new output.
func reshape(want, got []string) []string {
	segs := segments(want)
	if len(segs) == 1 {
		return got
	}
	first, last := segs[0], segs[len(segs)-1]
	head := got[:min(len(first), len(got))]
	tailFrom := max(len(head), len(got)-len(last))
	out := append([]string{}, head...)
	pos := len(head)
	for _, seg := range segs[1 : len(segs)-1] {
		out = append(out, cut)
		if len(seg) == 0 {
			continue
		}
		at := bestAnchor(seg[0], got[pos:tailFrom]) + pos
		end := min(at+len(seg), tailFrom)
		out = append(out, got[at:end]...)
		pos = end
	}
	out = append(out, cut)
	return append(out, got[tailFrom:]...)
}

// bestAnchor is the index of the line of got that shares the most words with line (the first
// of the best); 0 when got is empty.
func bestAnchor(line string, got []string) int {
	words := strings.Fields(line)
	best, bestN := 0, -1
	for i, g := range got {
		have := map[string]int{}
		for _, w := range strings.Fields(g) {
			have[w]++
		}
		n := 0
		for _, w := range words {
			if have[w] > 0 {
				have[w]--
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	return best
}

// shellWords splits a command line as a POSIX shell does for the commands a document shows:
// words separated by blanks, 'single' and "double" quotes (in which \" and \\ are escapes), a
// backslash escaping the next character outside quotes, and a comment from a word's leading #.
func shellWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
			continue
		case c == '#' && !inWord:
			return words, nil
		case c == '\\' && i+1 < len(line):
			i++
			w.WriteByte(line[i])
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' in %q", line)
			}
			w.WriteString(line[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\') {
					i++
				}
				w.WriteByte(line[i])
			}
			if i == len(line) {
				return nil, fmt.Errorf("unterminated \" in %q", line)
			}
		default:
			w.WriteByte(c)
		}
		inWord = true
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// TestDocsMatch: the cuts of a shown output, and how -update keeps them.
func TestDocsMatch(t *testing.T) {
	got := []string{"a", "b", "c", "d", "e"}
	for _, tc := range []struct {
		want  []string
		match bool
	}{
		{[]string{"a", "b", "c", "d", "e"}, true},
		{[]string{"a", "b", "c", "d"}, false},
		{[]string{"a", "b", cut}, true},
		{[]string{cut, "d", "e"}, true},
		{[]string{cut, "d"}, false},
		{[]string{"a", cut, "c", cut, "e"}, true},
		{[]string{"a", cut, "b", "c", "d", "e"}, true}, // a cut of no line
		{[]string{"a", cut, "d", "c", cut}, false},
		{[]string{cut}, true},
		{[]string{"a", cut, "e", "e"}, false},
	} {
		if m := matchOutput(tc.want, got); m != tc.match {
			t.Errorf("matchOutput(%q) = %v, want %v", tc.want, m, tc.match)
		}
	}
	now := []string{"a1", "b", "x", "sidecar started 9s", "d", "e", "f"}
	shaped := reshape([]string{"a", cut, "sidecar started 8s", cut, "e"}, now)
	if diff := cmp.Diff(shaped, []string{"a1", cut, "sidecar started 9s", cut, "f"}); diff != "" {
		t.Errorf("reshape (-got +want):\n%s", diff)
	}
	words, err := shellWords(`sidecar-top check r.jsonl --assert 'gap("a -> b") < 5s' -a "x \"y\"" a\ b # a comment`)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(words, []string{"sidecar-top", "check", "r.jsonl", "--assert", `gap("a -> b") < 5s`, "-a", `x "y"`, "a b"}); diff != "" {
		t.Errorf("shellWords (-got +want):\n%s", diff)
	}
	if _, err := shellWords(`a 'b`); err == nil {
		t.Error("an unterminated quote was read")
	}
}

// TestDryParse: a command a document shows for a cluster is refused for what sidecar-top would
// refuse before it connects, and only for that.
func TestDryParse(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{"sidecar-top -n shop checkout-7d9f", true},
		{"sidecar-top -n shop", true},
		{"sidecar-top -A -l app=checkout", true},
		{"sidecar-top -A pod/checkout", false},
		{"sidecar-top -n batch job/nightly-export --summary --logs", true},
		{"sidecar-top record -n shop pod/checkout -o checkout.jsonl --until deleted --export markdown=c.md", true},
		{"sidecar-top check -n batch job/export --until complete --timeout 10m --assert 'sidecar.restarts == 0'", true},
		{"sidecar-top completion bash", true},
		{"sidecar-top --help", true},
		{"sidecar-top -n shop checkout --no-such-flag", false},
		{"sidecar-top recrod -n shop pod/checkout -o c.jsonl", false}, // a misspelt command
		{"sidecar-top -n shop svc/checkout", false},
		{"sidecar-top -n shop a b", false},
		{"sidecar-top record -n shop pod/checkout --timeout soon", false},
		{"sidecar-top diff a.jsonl", false},
		{"sidecar-top -n", false},
	} {
		args, err := shellWords(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		if err := dryParse(args[1:]); (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok %v", tc.line, err, tc.ok)
		}
	}
}
