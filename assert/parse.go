package assert

import (
	"strings"
)

// Assertion is a parsed, type-checked assertion.
type Assertion struct {
	src  string
	root node
}

// String is the assertion as written.
func (a *Assertion) String() string { return a.src }

// Parse reads one assertion. A bad one gives an *Error that says what is wrong and at which
// column: a syntax error, an unknown milestone kind, a bad duration, unbalanced parentheses, or
// a type error such as comparing a time with a count. Container names are checked later,
// against a timeline (Check).
func Parse(src string) (*Assertion, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks}
	if p.peek().kind == tEOF {
		return nil, p.errAt(0, "the assertion is empty")
	}
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		if t.kind == tRParen {
			return nil, p.errAt(t.pos, "this ) closes no (")
		}
		return nil, p.errAt(t.pos, "unexpected %s: an operator (&&, ||, <, -, ...) or the end was expected", t.describe())
	}
	if root.typ() != tyTruth {
		return nil, p.errAt(0, "the assertion is %s, not true or false: compare it, e.g. app.start - sidecar.started < 3s", root.typ().article())
	}
	return &Assertion{src: src, root: root}, nil
}

type parser struct {
	src   string
	toks  []token
	i     int
	depth int // how deep the parentheses, negations and ! read so far nest here
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) errAt(pos int, format string, args ...any) *Error {
	return errAt(p.src, pos, format, args...)
}

// expect consumes a token of kind k, or says what was wanted.
func (p *parser) expect(k tokenKind, what string) (token, error) {
	t := p.next()
	if t.kind != k {
		return t, p.errAt(t.pos, "%s expected, found %s", what, t.describe())
	}
	return t, nil
}

func (p *parser) or() (node, error)  { return p.logic(tOr, p.and) }
func (p *parser) and() (node, error) { return p.logic(tAnd, p.unary) }

// logic reads operands joined by op, each a truth.
func (p *parser) logic(op tokenKind, operand func() (node, error)) (node, error) {
	x, err := operand()
	if err != nil {
		return nil, err
	}
	for p.peek().kind == op {
		t := p.next()
		y, err := operand()
		if err != nil {
			return nil, err
		}
		for _, n := range []node{x, y} {
			if n.typ() != tyTruth {
				return nil, p.errAt(n.pos(), "%s joins truths, and this is %s: compare it first", t.text, n.typ().article())
			}
		}
		x = &logic{at: t.pos, op: op, x: x, y: y}
	}
	return x, nil
}

func (p *parser) unary() (node, error) {
	if p.peek().kind != tNot {
		return p.comparison()
	}
	t := p.next()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer p.leave()
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	if x.typ() != tyTruth {
		return nil, p.errAt(t.pos, "! negates a truth, and this is %s", x.typ().article())
	}
	return &not{at: t.pos, x: x}, nil
}

func isComparison(k tokenKind) bool { return k >= tLT && k <= tNE }

func (p *parser) comparison() (node, error) {
	xFrom := p.peek().pos
	x, err := p.sum()
	if err != nil {
		return nil, err
	}
	if !isComparison(p.peek().kind) {
		return x, nil
	}
	t := p.next()
	yFrom := p.peek().pos
	y, err := p.sum()
	if err != nil {
		return nil, err
	}
	n := p.peek()
	if isComparison(n.kind) {
		return nil, p.errAt(n.pos, "comparisons do not chain: join them with &&, e.g. a < b && b < c")
	}
	sides := [2]operand{{x, p.text(xFrom, t.pos)}, {y, p.text(yFrom, n.pos)}}
	if err := p.comparable(t, sides); err != nil {
		return nil, err
	}
	return &compare{at: t.pos, op: t.kind, x: x, y: y}, nil
}

// operand is a side of a comparison and its text as written, for messages.
type operand struct {
	n    node
	text string
}

// says is the operand for a message: its type and its text, "a time (proxy.start)"; a
// number written as such is "a plain number (3)".
func (o operand) says() string {
	if o.plain() {
		return "a plain number (" + o.text + ")"
	}
	return o.n.typ().article() + " (" + o.text + ")"
}

// plain reports whether the operand is a number as written, 3 or -3, rather than a count.
func (o operand) plain() bool {
	n := o.n
	if neg, ok := n.(*negate); ok {
		n = neg.x
	}
	l, ok := n.(*literal)
	return ok && l.ty == tyNumber
}

// text is the source from one byte offset to another, spaces trimmed.
func (p *parser) text(from, to int) string { return strings.TrimSpace(p.src[from:to]) }

// comparable checks that the two sides can be compared with t. The message names each side
// with its type and its text, so that a time compared with a duration says which was read as a
// time (a milestone, proxy.start), whether or not its container exists: names are checked
// against the pods later (Check).
func (p *parser) comparable(t token, s [2]operand) error {
	tx, ty := s[0].n.typ(), s[1].n.typ()
	switch {
	case tx == tyTruth || ty == tyTruth:
		return p.errAt(t.pos, "%s compares times, durations or counts, not truths: join truths with && or ||", t.text)
	case tx == ty:
		return nil
	case (tx == tyDuration && ty == tyNumber && s[1].plain()) || (tx == tyNumber && ty == tyDuration && s[0].plain()):
		return p.errAt(t.pos, "cannot compare %s with %s: give the number a unit, e.g. 3s", s[0].says(), s[1].says())
	case tx == tyTime && ty == tyDuration:
		return p.errAt(t.pos, "cannot compare %s with %s: a milestone is a time; for how long after the pod's creation, write %s - pod.created %s %s",
			s[0].says(), s[1].says(), s[0].text, t.text, s[1].text)
	case tx == tyTime || ty == tyTime:
		return p.errAt(t.pos, "cannot compare %s with %s: subtract two times for a duration, e.g. app.start - sidecar.started < 3s", s[0].says(), s[1].says())
	}
	return p.errAt(t.pos, "cannot compare %s with %s", s[0].says(), s[1].says())
}

func (p *parser) sum() (node, error) {
	x, err := p.term()
	if err != nil {
		return nil, err
	}
	for k := p.peek().kind; k == tPlus || k == tMinus; k = p.peek().kind {
		t := p.next()
		y, err := p.term()
		if err != nil {
			return nil, err
		}
		ty, ok := arithType(k, x.typ(), y.typ())
		if !ok {
			verb := "add"
			if k == tMinus {
				verb = "subtract"
			}
			return nil, p.errAt(t.pos, "cannot %s %s and %s", verb, x.typ().article(), y.typ().article())
		}
		x = &arith{at: t.pos, op: k, x: x, y: y, ty: ty}
	}
	return x, nil
}

// arithType is the type of x op y, if it has one.
func arithType(op tokenKind, x, y typ) (typ, bool) {
	switch {
	case x == tyTime && y == tyTime && op == tMinus:
		return tyDuration, true
	case x == tyTime && y == tyDuration, x == tyDuration && y == tyTime && op == tPlus:
		return tyTime, true
	case x == tyDuration && y == tyDuration:
		return tyDuration, true
	case x == tyNumber && y == tyNumber:
		return tyNumber, true
	}
	return 0, false
}

// term reads one value: a negation, a parenthesized expression, a literal, or what a name or a
// quoted container's name begins.
func (p *parser) term() (node, error) {
	t := p.next()
	switch t.kind {
	case tMinus:
		return p.negation(t)
	case tLParen:
		return p.parenthesized(t)
	case tDuration:
		return &literal{at: t.pos, ty: tyDuration, dur: t.dur, text: t.text}, nil
	case tNumber:
		return &literal{at: t.pos, ty: tyNumber, num: t.num, text: t.text}, nil
	case tString:
		if t.str == "" {
			return nil, p.errAt(t.pos, "a container's name cannot be empty")
		}
		return p.laneField(t, t.str)
	case tName:
		return p.named(t)
	case tEOF:
		return nil, p.errAt(t.pos, "the assertion ends where a value was expected")
	case tRParen:
		return nil, p.errAt(t.pos, "a value was expected before this )")
	}
	return nil, p.errAt(t.pos, "a value (a milestone, gap, count, duration or number) was expected, found %s", t.describe())
}

// negation reads the term after the - at t, a duration or a number.
func (p *parser) negation(t token) (node, error) {
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer p.leave()
	x, err := p.term()
	if err != nil {
		return nil, err
	}
	if x.typ() != tyDuration && x.typ() != tyNumber {
		return nil, p.errAt(t.pos, "cannot negate %s", x.typ().article())
	}
	return &negate{at: t.pos, x: x}, nil
}

// parenthesized reads the expression after the ( at t, and its ).
func (p *parser) parenthesized(t token) (node, error) {
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer p.leave()
	x, err := p.or()
	if err != nil {
		return nil, err
	}
	if c := p.next(); c.kind != tRParen {
		if c.kind == tEOF {
			return nil, p.errAt(t.pos, "this ( is never closed")
		}
		return nil, p.errAt(c.pos, ") expected, found %s", c.describe())
	}
	return x, nil
}
