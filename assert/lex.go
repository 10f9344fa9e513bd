package assert

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Error is a bad assertion: what is wrong, and where.
type Error struct {
	Col int    // the column of the problem, counted in characters from 1
	Msg string // what is wrong, in words
}

func (e *Error) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// errAt makes an Error at byte offset pos of src.
func errAt(src string, pos int, format string, args ...any) *Error {
	pos = min(max(pos, 0), len(src))
	return &Error{Col: utf8.RuneCountInString(src[:pos]) + 1, Msg: fmt.Sprintf(format, args...)}
}

// tokenKind says what a token is.
type tokenKind int

const (
	tEOF      tokenKind = iota
	tName               // a name in a lane's place: letters, digits, - and _
	tField              // the name after a dot: letters, digits and _
	tNumber             // 3, 0.5
	tDuration           // 500ms, 1m30s
	tString             // "..."
	tDot
	tComma
	tLParen
	tRParen
	tLBrack
	tRBrack
	tPlus
	tMinus
	tNot
	tAnd
	tOr
	tLT
	tLE
	tGT
	tGE
	tEQ
	tNE
)

// token is one lexeme, at byte offset pos of the source.
type token struct {
	kind tokenKind
	pos  int
	text string        // the source text
	str  string        // a tString's value
	num  float64       // a tNumber's value
	dur  time.Duration // a tDuration's value
}

// lex cuts src into tokens, ending with tEOF.
func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for {
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		if i == len(src) {
			return append(toks, token{kind: tEOF, pos: i}), nil
		}
		afterDot := len(toks) > 0 && toks[len(toks)-1].kind == tDot
		t, err := lexToken(src, i, afterDot)
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		i += len(t.text)
	}
}

// lexToken reads the token that begins at i, where there is no space: a name (a field's,
// after a dot), a number or a duration, a string, or an operator.
func lexToken(src string, i int, afterDot bool) (token, error) {
	c := src[i]
	switch {
	case isLetter(c) && afterDot:
		return token{kind: tField, pos: i, text: src[i:fieldEnd(src, i)]}, nil
	case isLetter(c):
		return token{kind: tName, pos: i, text: src[i:nameEnd(src, i)]}, nil
	case isDigit(c):
		t, err := lexNumber(src, i)
		if err != nil {
			return token{}, err
		}
		return spacedUnit(src, t), nil
	case c == '"':
		end, s, err := lexString(src, i)
		if err != nil {
			return token{}, err
		}
		return token{kind: tString, pos: i, text: src[i:end], str: s}, nil
	}
	kind, n, err := lexOperator(src, i)
	if err != nil {
		return token{}, err
	}
	return token{kind: kind, pos: i, text: src[i : i+n]}, nil
}

// fieldEnd is where the field name that begins at i ends: a field has letters, digits and _.
func fieldEnd(src string, i int) int {
	for i < len(src) && (isLetter(src[i]) || isDigit(src[i])) {
		i++
	}
	return i
}

// nameEnd is where the name that begins at i ends. A - belongs to a name when a letter, digit
// or _ follows it, as in init-sleep.
func nameEnd(src string, i int) int {
	for i < len(src) {
		c := src[i]
		switch {
		case isLetter(c) || isDigit(c):
			i++
		case c == '-' && i+1 < len(src) && (isLetter(src[i+1]) || isDigit(src[i+1])):
			i += 2
		default:
			return i
		}
	}
	return i
}

// lexNumber reads a number or a duration at i: a run of digits, dots and unit letters.
func lexNumber(src string, i int) (token, error) {
	start := i
	unit := false
	for i < len(src) {
		c := src[i]
		if isDigit(c) || c == '.' {
			i++
			continue
		}
		if isLetter(c) {
			unit = true
			i++
			continue
		}
		if r, n := utf8.DecodeRuneInString(src[i:]); r == 'µ' || r == 'μ' {
			unit = true
			i += n
			continue
		}
		break
	}
	text := src[start:i]
	if !unit {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return token{}, errAt(src, start, "bad number %q", text)
		}
		return token{kind: tNumber, pos: start, text: text, num: f}, nil
	}
	d, err := time.ParseDuration(text)
	if err != nil {
		return token{}, errAt(src, start, "bad duration %q: write a number and a unit, ms, s, m or h (e.g. 500ms, 1.5s, 1m30s)", text)
	}
	return token{kind: tDuration, pos: start, text: text, dur: d}, nil
}

// spacedUnit reads a plain number followed by spaces and a unit, 5 s or 500 ms, as the
// duration it means: a number followed by a name is no expression, so nothing else can be
// meant. A unit that a . or ( follows, or a letter, digit or - continues, is a name (s.start).
func spacedUnit(src string, num token) token {
	if num.kind != tNumber {
		return num
	}
	i := num.pos + len(num.text)
	for i < len(src) && isSpace(src[i]) {
		i++
	}
	if i == num.pos+len(num.text) {
		return num
	}
	for _, unit := range []string{"ns", "us", "µs", "μs", "ms", "s", "m", "h"} {
		end := i + len(unit)
		if !strings.HasPrefix(src[i:], unit) || end < len(src) && nameGoesOn(src[end]) {
			continue
		}
		d, err := time.ParseDuration(num.text + unit)
		if err != nil {
			return num
		}
		return token{kind: tDuration, pos: num.pos, text: src[num.pos:end], dur: d}
	}
	return num
}

// nameGoesOn reports whether c, after a unit, makes it part of a name or a reference.
func nameGoesOn(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '-' || c == '.' || c == '(' || c == '"' || c >= 0x80
}

// lexString reads a double-quoted string at i, with Go's escapes.
func lexString(src string, i int) (end int, s string, err error) {
	j := i + 1
	for j < len(src) && src[j] != '"' {
		if src[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(src) {
		return 0, "", errAt(src, i, "the string that begins here has no closing \"")
	}
	s, uerr := strconv.Unquote(src[i : j+1])
	if uerr != nil {
		return 0, "", errAt(src, i, "bad string %s: %v", src[i:j+1], uerr)
	}
	return j + 1, s, nil
}

// operators are the tokens of punctuation and operators, by their text. Two characters are
// tried before one, so that <= is not < and =.
var operators = map[string]tokenKind{
	"&&": tAnd, "||": tOr, "<=": tLE, ">=": tGE, "==": tEQ, "!=": tNE,
	".": tDot, ",": tComma, "(": tLParen, ")": tRParen, "[": tLBrack, "]": tRBrack,
	"+": tPlus, "-": tMinus, "!": tNot, "<": tLT, ">": tGT,
}

// strayChars are characters that begin no operator alone, with what to write instead.
var strayChars = map[byte]string{
	'=':  "= alone: compare with ==",
	'&':  "& alone: write && for and",
	'|':  "| alone: write || for or",
	'\'': "strings are written in double quotes",
}

// lexOperator reads punctuation and operators at i: the token's kind and its length.
func lexOperator(src string, i int) (tokenKind, int, error) {
	if i+2 <= len(src) {
		if kind, ok := operators[src[i:i+2]]; ok {
			return kind, 2, nil
		}
	}
	if kind, ok := operators[src[i:i+1]]; ok {
		return kind, 1, nil
	}
	if msg, ok := strayChars[src[i]]; ok {
		return 0, 0, errAt(src, i, "%s", msg)
	}
	r, _ := utf8.DecodeRuneInString(src[i:])
	return 0, 0, errAt(src, i, "unexpected %q", r)
}

func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// describe names a token for an error message.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "the end"
	case tString:
		return t.text
	}
	return strings.TrimSpace(fmt.Sprintf("%q", t.text))
}
