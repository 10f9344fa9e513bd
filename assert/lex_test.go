package assert

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// lexed is a token as the tests compare it: its kind, where it is, its text and its value.
type lexed struct {
	Kind tokenKind
	Pos  int
	Text string
	Str  string
	Num  float64
	Dur  time.Duration
}

func TestLex(t *testing.T) {
	tests := []struct {
		src  string
		want []lexed
	}{
		{"", []lexed{{Kind: tEOF}}},
		{"init-sleep.start_x", []lexed{{Kind: tName, Text: "init-sleep"}, {Kind: tDot, Pos: 10, Text: "."},
			{Kind: tField, Pos: 11, Text: "start_x"}, {Kind: tEOF, Pos: 18}}},
		// After a dot a name is a field's: it takes no -.
		{"a.not-ready", []lexed{{Kind: tName, Text: "a"}, {Kind: tDot, Pos: 1, Text: "."}, {Kind: tField, Pos: 2, Text: "not"},
			{Kind: tMinus, Pos: 5, Text: "-"}, {Kind: tName, Pos: 6, Text: "ready"}, {Kind: tEOF, Pos: 11}}},
		// A - that no letter or digit follows ends the name.
		{"a- 1", []lexed{{Kind: tName, Text: "a"}, {Kind: tMinus, Pos: 1, Text: "-"}, {Kind: tNumber, Pos: 3, Text: "1", Num: 1}, {Kind: tEOF, Pos: 4}}},
		{" 1.5\t500ms 5 s 3 s.start ", []lexed{{Kind: tNumber, Pos: 1, Text: "1.5", Num: 1.5}, {Kind: tDuration, Pos: 5, Text: "500ms", Dur: 500 * time.Millisecond},
			{Kind: tDuration, Pos: 11, Text: "5 s", Dur: 5 * time.Second}, {Kind: tNumber, Pos: 15, Text: "3", Num: 3},
			{Kind: tName, Pos: 17, Text: "s"}, {Kind: tDot, Pos: 18, Text: "."}, {Kind: tField, Pos: 19, Text: "start"}, {Kind: tEOF, Pos: 25}}},
		{`gap("a → b")`, []lexed{{Kind: tName, Text: "gap"}, {Kind: tLParen, Pos: 3, Text: "("},
			{Kind: tString, Pos: 4, Text: `"a → b"`, Str: "a → b"}, {Kind: tRParen, Pos: 13, Text: ")"}, {Kind: tEOF, Pos: 14}}},
		{"a<=b<c", []lexed{{Kind: tName, Text: "a"}, {Kind: tLE, Pos: 1, Text: "<="}, {Kind: tName, Pos: 3, Text: "b"},
			{Kind: tLT, Pos: 4, Text: "<"}, {Kind: tName, Pos: 5, Text: "c"}, {Kind: tEOF, Pos: 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			toks, err := lex(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			var got []lexed
			for _, k := range toks {
				got = append(got, lexed{Kind: k.kind, Pos: k.pos, Text: k.text, Str: k.str, Num: k.num, Dur: k.dur})
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("-got +want:\n%s", diff)
			}
		})
	}
}

// TestLexOperators ranges over the operators: each lexes alone, and between operands, as its kind;
// each stray character is an error with its advice, at its column.
func TestLexOperators(t *testing.T) {
	for text, kind := range operators {
		for _, src := range []string{text, "a " + text + " 1"} {
			toks, err := lex(src)
			if err != nil {
				t.Errorf("lex(%q): %v", src, err)
				continue
			}
			i := strings.Index(src, text)
			var op token
			for _, k := range toks {
				if k.pos == i {
					op = k
				}
			}
			if op.kind != kind || op.text != text {
				t.Errorf("lex(%q) at %d = %v %q, want %v %q", src, i, op.kind, op.text, kind, text)
			}
		}
	}
	for c, msg := range strayChars {
		_, err := lex("a " + string(c) + " b")
		if diff := cmp.Diff(err, error(&Error{Col: 3, Msg: msg})); diff != "" {
			t.Errorf("lex(a %c b) error -got +want:\n%s", c, diff)
		}
	}
}
