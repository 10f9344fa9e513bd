package assert

// What a name begins in an assertion: a lane's milestone or restarts (proxy.start,
// app.exit[1], pod.ready), count(...) and gap(...).

import (
	"math"
	"strings"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// named reads what the name t begins: count(...), gap(...), the pod's lane, or a container's
// lane. count and gap without a ( are containers' names.
func (p *parser) named(t token) (node, error) {
	switch {
	case t.text == "count" && p.peek().kind == tLParen:
		return p.count(t)
	case t.text == "gap" && p.peek().kind == tLParen:
		return p.gap(t)
	case t.text == "pod":
		return p.laneField(t, "")
	}
	return p.laneField(t, t.text)
}

// laneField reads .KIND, .KIND[n] or .restarts after a lane (lane is "" for the pod).
func (p *parser) laneField(laneTok token, lane string) (node, error) {
	if p.peek().kind != tDot {
		return nil, p.errAt(laneTok.pos, "%s alone is not a value: name a milestone, e.g. %s.start, or write %s.restarts", laneTok.text, laneTok.text, laneTok.text)
	}
	p.next()
	f, err := p.expect(tField, "a milestone kind after the dot")
	if err != nil {
		return nil, err
	}
	pod := laneTok.kind == tName && lane == "" // the pod's lane; a quoted "pod" is a container's
	if f.text == "restarts" {
		if pod {
			return nil, p.errAt(f.pos, "the pod has no restart count: give a container's, e.g. app.restarts")
		}
		return &restartsRef{at: laneTok.pos, lane: lane}, nil
	}
	k, err := p.milestoneKind(f, pod)
	if err != nil {
		return nil, err
	}
	m := &milestoneRef{at: laneTok.pos, lane: lane, kind: k.kind, latest: k.latest}
	if p.peek().kind == tLBrack {
		if pod {
			return nil, p.errAt(p.peek().pos, "the pod's milestones have no attempt [n]: only a container's runs do")
		}
		if m.attempt, err = p.attempt(k.kind); err != nil {
			return nil, err
		}
		m.hasAttempt = true
	}
	m.text = p.src[laneTok.pos : p.toks[p.i-1].pos+len(p.toks[p.i-1].text)]
	return m, nil
}

// milestoneKind is the milestone kind the field f names, on the pod's lane or a container's.
// A kind written with a - (not-ready), which the lexer reads as a minus, is told to be written
// with a _.
func (p *parser) milestoneKind(f token, pod bool) (kindRef, error) {
	kinds, list, what := containerKinds, containerKindList, "a container's"
	if pod {
		kinds, list, what = podKinds, podKindList, "the pod's"
	}
	if k, ok := kinds[f.text]; ok {
		return k, nil
	}
	if n := p.toks[p.i:]; len(n) > 1 && n[0].kind == tMinus && n[0].pos == f.pos+len(f.text) && n[1].kind == tName {
		if _, ok := kinds[f.text+"_"+n[1].text]; ok {
			return kindRef{}, p.errAt(f.pos, "write %s_%s: a kind's - is written _ here", f.text, n[1].text)
		}
	}
	return kindRef{}, p.errAt(f.pos, "unknown milestone kind %q of %s lane: want %s", f.text, what, list)
}

// attempt reads [n] after a container's milestone of kind: which run, 0 for the first; a
// restart's from 1.
func (p *parser) attempt(kind timeline.MilestoneKind) (int32, error) {
	p.next() // [
	n, err := p.expect(tNumber, "an attempt number after [")
	if err != nil {
		return 0, err
	}
	if n.num < 0 || n.num != math.Trunc(n.num) || n.num > math.MaxInt32 {
		return 0, p.errAt(n.pos, "an attempt is a whole number, 0 for the first run")
	}
	if kind == timeline.MRestart && n.num == 0 {
		return 0, p.errAt(n.pos, "restart[0] does not exist: restart[n] is the nth restart, from 1 (the first run is start)")
	}
	if _, err := p.expect(tRBrack, "]"); err != nil {
		return 0, err
	}
	return int32(n.num), nil
}

// count reads count(findings) or count(findings, SEVERITY) after "count".
func (p *parser) count(name token) (node, error) {
	p.next() // (
	what, err := p.expect(tName, "findings")
	if err != nil {
		return nil, err
	}
	if what.text != "findings" {
		return nil, p.errAt(what.pos, "count counts findings: write count(findings) or count(findings, warning)")
	}
	n := &findingsCount{at: name.pos}
	if p.peek().kind == tComma {
		p.next()
		sev, err := p.expect(tName, "a severity, warning or info,")
		if err != nil {
			return nil, err
		}
		switch s := timeline.Severity(sev.text); s {
		case timeline.SeverityWarning, timeline.SeverityInfo:
			n.severity = s
		default:
			return nil, p.errAt(sev.pos, "unknown severity %q: want warning or info", sev.text)
		}
	}
	if _, err := p.expect(tRParen, ")"); err != nil {
		return nil, err
	}
	return n, nil
}

// gap reads gap("FROM → TO") or gap(a.KIND, b.KIND) after "gap".
func (p *parser) gap(name token) (node, error) {
	p.next() // (
	g := &gapRef{at: name.pos}
	if s := p.peek(); s.kind == tString && p.toks[p.i+1].kind != tDot {
		p.next()
		g.name = normalizeGap(s.str)
		if !strings.Contains(g.name, "→") {
			return nil, p.errAt(s.pos, "a gap's name reads FROM → TO (or FROM -> TO), e.g. \"app SIGTERM → app exit\"")
		}
	} else {
		from, err := p.gapEnd()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(tComma, "a comma between the gap's two milestones"); err != nil {
			return nil, err
		}
		to, err := p.gapEnd()
		if err != nil {
			return nil, err
		}
		g.from, g.to = from, to
	}
	end, err := p.expect(tRParen, ")")
	if err != nil {
		return nil, err
	}
	g.text = p.src[name.pos : end.pos+1]
	return g, nil
}

// gapEnd reads one milestone of gap(a, b).
func (p *parser) gapEnd() (*milestoneRef, error) {
	t := p.peek()
	if t.kind != tName && t.kind != tString {
		return nil, p.errAt(t.pos, "gap( wants a gap's name in quotes, or two milestones: gap(app.sigterm, app.exit)")
	}
	n, err := p.term()
	if err != nil {
		return nil, err
	}
	m, ok := n.(*milestoneRef)
	if !ok {
		return nil, p.errAt(t.pos, "a gap runs between two milestones, e.g. gap(app.sigterm, app.exit)")
	}
	return m, nil
}

// normalizeGap writes a gap's name one way: -> as →, spaces single, lower case.
func normalizeGap(s string) string {
	s = strings.ReplaceAll(s, "->", "→")
	s = strings.ReplaceAll(s, "→", " → ")
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}
