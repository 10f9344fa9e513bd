// Package jsonsafe makes JSON text inert on a terminal without changing the value it encodes.
//
// encoding/json escapes the C0 controls but writes DEL, the C1 controls (U+0080–U+009F, which
// some terminals obey like ESC) and the invisible formatting characters (bidi overrides and
// isolates, zero-width spaces and joiners) as they are. JSON that goes to standard output (-o
// json, an export, a recording to -o -) may reach a terminal, and the text in it comes from the
// cluster or a recording. Escape writes each such character as \uXXXX, which every JSON
// decoder reads back as the same character: the text is kept as it was, only its spelling
// changes.
package jsonsafe

import (
	"encoding/binary"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Escape returns b, a JSON text, with every character Unsafe reports escaped as \uXXXX (a
// surrogate pair above U+FFFF), and a byte that is not UTF-8 as \ufffd, which is what a decoder
// reads it as. Outside strings JSON holds only ASCII, so the result is the same JSON value. b is
// returned as it is when nothing needs escaping.
func Escape(b []byte) []byte {
	i := firstUnsafe(b)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = appendEscape(out, utf8.RuneError)
		case !Unsafe(r):
			out = append(out, b[i:i+size]...)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			out = appendEscape(appendEscape(out, r1), r2)
		default:
			out = appendEscape(out, r)
		}
		i += size
	}
	return out
}

// Unsafe reports whether a terminal could obey r or draw text around it otherwise than it is:
// DEL, a C1 control, or a character with no glyph of its own (Unicode's format characters, line
// and paragraph separators, default-ignorable code points, variation selectors, noncharacters).
// The C0 controls are left to encoding/json, which escapes them.
func Unsafe(r rune) bool {
	switch {
	case r < 0x7f:
		return false
	case r <= 0x9f:
		return true // DEL and C1
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.Noncharacter_Code_Point)
}

func firstUnsafe(b []byte) int {
	for i := 0; i < len(b); {
		// Eight bytes at a time while they are all below DEL: JSON output is nearly all ASCII.
		// (A byte of 0x7f or more sets its top bit in w or in w+1; a carry from 0xff into the
		// next byte comes only where a top bit is set already.)
		for i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			if (w|(w+0x0101010101010101))&0x8080808080808080 != 0 {
				break
			}
			i += 8
		}
		if i >= len(b) {
			break
		}
		if b[i] < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if Unsafe(r) || (r == utf8.RuneError && size == 1) {
			return i
		}
		i += size
	}
	return -1
}

func appendEscape(out []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
