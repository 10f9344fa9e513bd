package recfile

import (
	"encoding/binary"
	"time"
)

// internSlots is how many strings a tokenReader keeps for the lines after, and timeSlots how many
// times: more than the names, IDs, reasons and times of the pods whose updates a stretch of a
// recording interleaves.
const (
	internBits, timeBits   = 13, 12
	internSlots, timeSlots = 1 << internBits, 1 << timeBits
)

// internTable keeps the strings and times a decoding worker read before, each in a slot chosen
// by its text, so that one that repeats is made once (see tokenReader.str and time). Where two
// texts share a slot the later one takes it: the other is made again when it next comes, as if
// seen for the first time. A slot is found from the text's length and its first and last eight
// bytes (the names, IDs and times of a recording differ there), and checked against the whole
// text: a map of them, hashing every text and probing, cost a share of a replay this avoids.
type internTable struct {
	strs  [internSlots]string  // unquoted, of texts without escapes
	times [timeSlots]timeEntry // of texts metav1.Time writes
}

type timeEntry struct {
	text string // the JSON text, quotes and all
	t    time.Time
}

// internSlot is the slot of text, of 1<<bits.
func internSlot(text []byte, bits int) int {
	n := len(text)
	var a, b uint64
	switch {
	case n >= 8:
		a, b = binary.LittleEndian.Uint64(text), binary.LittleEndian.Uint64(text[n-8:])
	default:
		for i, c := range text {
			a |= uint64(c) << (8 * i)
		}
	}
	h := (a*0x9e3779b97f4a7c15 ^ b*0xc2b2ae3d27d4eb4f ^ uint64(n)) * 0x165667b19e3779f9
	return int(h >> (64 - bits))
}

// str is the string kept of text (the JSON text of a string, without its quotes), if one is;
// else text made a string, not kept yet.
func (t *internTable) str(text []byte) (string, bool) {
	if s := t.strs[internSlot(text, internBits)]; s == string(text) {
		return s, true
	}
	return string(text), false
}

// keep keeps s, the string of text.
func (t *internTable) keep(text []byte, s string) { t.strs[internSlot(text, internBits)] = s }

// time is the time whose JSON text is raw, parsed by parse once.
func (t *internTable) time(raw []byte, parse func() (time.Time, bool)) (time.Time, bool) {
	i := internSlot(raw, timeBits)
	if e := &t.times[i]; e.text == string(raw) {
		return e.t, true
	}
	v, ok := parse()
	if ok {
		t.times[i] = timeEntry{string(raw), v}
	}
	return v, ok
}
