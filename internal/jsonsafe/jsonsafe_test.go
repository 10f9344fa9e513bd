package jsonsafe

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// TestEscape: what a terminal could obey is spelled \uXXXX, the value read back is the same,
// and text with nothing to escape is returned as it was.
func TestEscape(t *testing.T) {
	tests := []struct {
		in   string // a Go string, marshalled to JSON
		want string // the JSON text Escape makes of it
	}{
		{"plain text, 日本語, é", `"plain text, 日本語, é"`},
		{"\x1b]52;c;eA==\a", `"\u001b]52;c;eA==\u0007"`}, // encoding/json's own escapes
		{"del\x7f c1\u0085\u009b2J", `"del\u007f c1\u0085\u009b2J"`},
		{"invoice\u202egpj.exe", `"invoice\u202egpj.exe"`},
		{"zero\u200bwidth\u200d\u2060\ufeff", `"zero\u200bwidth\u200d\u2060\ufeff"`},
		{"\u2066isolate\u2069 \u061c", `"\u2066isolate\u2069 \u061c"`},
		{"tag\U000e0041 vs\ufe0f", `"tag\udb40\udc41 vs\ufe0f"`},
		{"line\u2028sep", `"line\u2028sep"`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		got := string(Escape(b))
		if got != tt.want {
			t.Errorf("Escape(%s) = %s, want %s", b, got, tt.want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != tt.in {
			t.Errorf("%s reads back as %q (%v), want %q", got, back, err, tt.in)
		}
	}

	// A byte that is not UTF-8 becomes what a decoder reads it as.
	if got, want := string(Escape([]byte("{\"a\":\"x\xff\x9by\"}"))), `{"a":"x\ufffd\ufffdy"}`; got != want {
		t.Errorf("Escape of bytes that are not UTF-8 = %s, want %s", got, want)
	}

	// A whole document keeps its value.
	doc := map[string]any{"names": []any{"a\u202eb", "c\u009bd"}, "n": 1.5, "nested": map[string]any{"k\u200b": "v\x7f"}}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(Escape(b), &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(back, doc); diff != "" {
		t.Errorf("the escaped document reads back otherwise (-got +want):\n%s", diff)
	}

	// Nothing to escape: the same slice, not a copy.
	plain := []byte(`{"a":"日本語"}`)
	if got := Escape(plain); &got[0] != &plain[0] {
		t.Error("Escape copied a text that needed no escaping")
	}
}

// firstUnsafeByRune is firstUnsafe, one character at a time.
func firstUnsafeByRune(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if Unsafe(r) || r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// TestFirstUnsafeAtEveryPlace: firstUnsafe, which reads eight bytes at a time, finds DEL, a C1
// control, a byte that is not UTF-8, an invisible character or none, at every place in strings
// of up to 24 bytes, after ASCII and after safe characters beyond it.
func TestFirstUnsafeAtEveryPlace(t *testing.T) {
	for _, bad := range []string{"\x7f", "\u0085", "\xff", "\x80", "\u200b", "\u2028", ""} {
		for _, fill := range []string{"a", "é"} {
			for n := range 24 {
				for at := 0; at <= n; at++ {
					b := []byte(strings.Repeat(fill, at) + bad + strings.Repeat("~", n-at))
					if got, want := firstUnsafe(b), firstUnsafeByRune(b); got != want {
						t.Errorf("%q: firstUnsafe %d, want %d", b, got, want)
					}
				}
			}
		}
	}
}

func FuzzFirstUnsafe(f *testing.F) {
	f.Add([]byte("0123456789abcdef\x7f"))
	f.Add([]byte("{\"a\":\"\u00e9\u200b\xff\"}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := firstUnsafe(b), firstUnsafeByRune(b); got != want {
			t.Errorf("%q: firstUnsafe %d, want %d", b, got, want)
		}
	})
}
