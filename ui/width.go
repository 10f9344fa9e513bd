package ui

import (
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
)

// cellWidth is the width of s in terminal cells, as lipgloss.Width measures it (grapheme
// clusters, East Asian wide characters two cells, ANSI sequences none), but fast for what the
// view is mostly made of: ASCII, SGR sequences, and the narrow symbols of the glyphs (box
// drawing, blocks, arrows, shapes). A line holding anything else is measured by lipgloss.
func cellWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			// A CSI sequence, as lipgloss writes them: parameters, then a final byte.
			j := i + 2
			for j < len(s) && s[j] >= 0x20 && s[j] < 0x40 {
				j++
			}
			if j >= len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return lipgloss.Width(s)
			}
			i = j + 1
		case c < 0x80:
			return lipgloss.Width(s)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !narrowRune(r) {
				return lipgloss.Width(s)
			}
			n++
			i += size
		}
	}
	return n
}

// narrowRune reports whether r is one cell wide on its own and never joins the character before
// or after it into one grapheme: Latin, Greek and Cyrillic letters without combining marks, and
// the punctuation, arrows, mathematical operators, box drawing, blocks, shapes and dingbats
// that are not emoji.
func narrowRune(r rune) bool {
	switch {
	case r >= 0xa0 && r <= 0x2ff:
		return r != 0xad // the soft hyphen is invisible
	case r >= 0x2700 && r <= 0x27bf:
		return !emojiDingbat(r)
	}
	return narrowBlock(r)
}

// narrowBlock reports whether r is in a block all of whose characters narrowRune counts narrow:
// Greek, Cyrillic, punctuation, arrows, mathematical operators, box drawing, blocks and shapes.
func narrowBlock(r rune) bool {
	switch {
	case r >= 0x370 && r <= 0x482, r >= 0x48a && r <= 0x52f:
		return true
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205e:
		return true
	case r >= 0x2190 && r <= 0x21ff, r >= 0x2200 && r <= 0x22ff:
		return true
	case r >= 0x2500 && r <= 0x25fc:
		return true
	}
	return false
}

// emojiDingbat reports whether the dingbat r is drawn as an emoji, two cells wide.
func emojiDingbat(r rune) bool {
	switch r {
	case 0x2705, 0x270a, 0x270b, 0x2728, 0x274c, 0x274e, 0x2753, 0x2754, 0x2755, 0x2757,
		0x2795, 0x2796, 0x2797, 0x27b0, 0x27bf:
		return true
	}
	return false
}
