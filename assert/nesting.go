package assert

// MaxNesting is how deep parentheses, negations (-) and ! may nest in an assertion: more is
// refused. Each level is read and evaluated by a call inside the one around it, and a
// negation's type by each one above it, so 60,000 of them cost seconds and hundreds of MB;
// real assertions nest a few deep.
const MaxNesting = 100

// enter goes one level deeper for the (, - or ! at t, or says it is too deep; leave comes back.
func (p *parser) enter(t token) error {
	if p.depth++; p.depth > MaxNesting {
		return p.errAt(t.pos, "this %s nests deeper than %d: parentheses, negations and ! nest up to %d deep", t.text, MaxNesting, MaxNesting)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }
