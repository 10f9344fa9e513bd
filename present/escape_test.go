package present

import (
	"strings"
	"testing"
)

func TestSafe(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"sc-b1-x7k2p", "sc-b1-x7k2p"},
		{"日本語のポッド", "日本語のポッド"},
		{`C:\path\to`, `C:\path\to`},
		{"\x1b]52;c;aGVsbG8=\x07", `\x1b]52;c;aGVsbG8=\x07`},
		{"\x1b]0;pwned\x1b\\", `\x1b]0;pwned\x1b\`},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"a\tb\nc\rd\x00e\x7f", `a\tb\nc\rd\x00e\x7f`},
		{"\u009b31m", `\u009b31m`},
		{"abc\u202edcba", `abc\u202edcba`},
		{"\u2066x\u2069", `\u2066x\u2069`},
		{"a\u200bb\u200dc\ufeffd\u00ade", `a\u200bb\u200dc\ufeffd\u00ade`},
		{"tag\U000e0041", `tag\U000e0041`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"\u3164filler", `\u3164filler`},
		{"e\u0301", "e\u0301"}, // a combining accent is shown, on its letter
	} {
		if got := Safe(tc.in); got != tc.want {
			t.Errorf("Safe(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	s := strings.Repeat("x", 100)
	if got := Safe(s); got != s {
		t.Errorf("Safe changed plain text")
	}
}
