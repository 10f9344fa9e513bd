package present

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Safe makes text that came from the cluster or a recording safe to write to a terminal. A pod,
// container, node or namespace name, an Event's reason, message or object, a status text, a
// note, a watch error: any of them may hold what a terminal obeys instead of showing, and any
// container can put text into its Events (an exec probe's output becomes an Unhealthy Event's
// message). Written raw, ESC ] 52 sets the user's clipboard, ESC ] 0 the window's title, a CSI
// moves the cursor and overwrites what the view drew (the class of kubectl's CVE-2021-25743), and
// a bidi override or a zero-width character makes text read differently from what it is.
//
// Safe escapes, visibly and in Go's notation, every character a terminal does not simply show:
//   - C0 controls and DEL as \xNN (\x1b for ESC), except tab, newline and carriage return,
//     written \t, \n and \r;
//   - C1 controls (U+0080–U+009F), which some terminals obey like ESC sequences, as \u0085;
//   - invisible formatting characters as \uNNNN (or \UNNNNNNNN): the bidi embeddings, overrides
//     and isolates (U+202A–U+202E, U+2066–U+2069) and marks, zero-width spaces and joiners
//     (U+200B–U+200D), the word joiner, the byte order mark, soft hyphens, tags and every other
//     character of Unicode's format category (Cf), the line and paragraph separators, the
//     variation selectors and the other default-ignorable code points (Hangul fillers, ...);
//   - a byte that is not part of valid UTF-8 as \xNN.
//
// Backslashes are left alone, so paths and regular expressions read as they are; the escapes
// are for the eye, not to be parsed back. Everything else, wide East Asian characters
// included, is kept: a view measures it in cells as the terminal will (lipgloss.Width). Text
// that needs no escaping is returned as it is, without copying.
func Safe(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeByteEscape(&b, s[i])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			writeByteEscape(&b, byte(r))
		case Unsafe(r):
			writeRuneEscape(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// firstUnsafe is the index of the first byte of s that Safe would escape, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < 0x80 {
			return i // C0 or DEL
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || Unsafe(r) {
			return i
		}
		i += size
	}
	return -1
}

// Unsafe reports whether Safe escapes the code point r (tests scan what was written with it): a
// control, or a character with no glyph of its own that changes how the text around it is shown.
func Unsafe(r rune) bool {
	switch {
	case r < 0x80:
		return r < 0x20 || r == 0x7f
	case r <= 0x9f:
		return true // C1
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.Noncharacter_Code_Point)
}

func writeByteEscape(b *strings.Builder, c byte) {
	const hex = "0123456789abcdef"
	b.WriteString(`\x`)
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&0xf])
}

func writeRuneEscape(b *strings.Builder, r rune) {
	s := strconv.FormatInt(int64(r), 16)
	if r <= 0xffff {
		b.WriteString(`\u`)
		b.WriteString(strings.Repeat("0", 4-len(s)))
	} else {
		b.WriteString(`\U`)
		b.WriteString(strings.Repeat("0", 8-len(s)))
	}
	b.WriteString(s)
}
