package main

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// backgroundWait is how long the view waits for the terminal to say its background colour:
// a local terminal answers within milliseconds and one across an ssh hop within a few hundred,
// while termenv, which lipgloss would ask through, waits 5 s for a terminal that never answers
// (script, a serial console, some multiplexers). Past it the view takes a dark background.
const backgroundWait = 500 * time.Millisecond

// The two questions the view asks the terminal, as termenv asks them: the background colour
// (OSC 11), then the cursor position (CSI 6n), which every terminal answers, so that one that
// does not know OSC 11 is told from one that is slow by the order of the answers.
const (
	queryBackground = "\x1b]11;?\x1b\\"
	queryCursor     = "\x1b[6n"
)

// answers reads a terminal's answers to the two questions from what it has sent so far: the
// background colour's answer (osc, between "ESC ]" and its BEL or ST) if it has come whole, and
// whether the cursor position's answer ("ESC [ row ; col R") has come. A terminal answers in
// order, so once the cursor's answer is in, no answer to OSC 11 is coming.
func answers(b []byte) (osc string, cursor bool) {
	for {
		i := bytes.IndexByte(b, 0x1b)
		if i < 0 || i+1 >= len(b) {
			return osc, cursor
		}
		b = b[i:]
		switch b[1] {
		case ']':
			end := bytes.IndexAny(b[2:], "\a\x1b")
			if end < 0 {
				return osc, cursor // not all of it yet
			}
			osc, b = string(b[2:2+end]), b[2+end+1:]
		case '[':
			end := bytes.IndexByte(b, 'R')
			if end < 0 {
				return osc, cursor
			}
			cursor, b = true, b[end+1:]
		default:
			b = b[1:]
		}
	}
}

// darkColour reads an OSC 11 answer ("11;rgb:RRRR/GGGG/BBBB", 1 to 4 hex digits a channel) and
// says whether the colour is dark: its HSL lightness below one half, as termenv decides.
func darkColour(osc string) (dark, ok bool) {
	_, spec, found := strings.Cut(osc, ";")
	if !found {
		return false, false
	}
	_, rgb, found := strings.Cut(spec, ":")
	parts := strings.Split(rgb, "/")
	if !found || len(parts) < 3 {
		return false, false
	}
	var c [3]float64
	for i, p := range parts[:3] {
		v, err := strconv.ParseUint(p, 16, 16)
		if err != nil || len(p) == 0 || len(p) > 4 {
			return false, false
		}
		c[i] = float64(v) / float64(uint64(1)<<(4*len(p))-1)
	}
	lightness := (max(c[0], c[1], c[2]) + min(c[0], c[1], c[2])) / 2
	return lightness < 0.5, true
}

// darkFromEnv reads COLORFGBG ("15;0": foreground 15 on background 0), which rxvt and Konsole
// set: the background is dark when it is one of the eight ANSI colours but silver, as termenv
// decides from the xterm palette.
func darkFromEnv(colorfgbg string) (dark, ok bool) {
	i := strings.LastIndexByte(colorfgbg, ';')
	if i < 0 {
		return false, false
	}
	n, err := strconv.Atoi(colorfgbg[i+1:])
	if err != nil || n < 0 || n > 15 {
		return false, false
	}
	return n <= 6, true
}
