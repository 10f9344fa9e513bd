package assert

import (
	"fmt"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Result is an assertion's value for one pod.
type Result struct {
	Truth Truth
	// Detail shows the values compared, estimate and bounds, e.g. "0.25s [0.05s, 2.25s] < 3s";
	// or, when Missing, what the pod lacks.
	Detail string
	// Missing is set when the assertion reads a container, milestone or gap the pod does not
	// have; Truth is then False.
	Missing bool
}

// missing is the error of reading what a pod does not have.
type missing struct{ what string }

func (m missing) Error() string { return m.what }

// Eval evaluates the assertion for one pod. Times and durations are compared by their bounds
// (see the package documentation): Truth is Uncertain when the bounds allow both outcomes.
func (a *Assertion) Eval(p *timeline.Pod) Result {
	v, err := eval(a.root, p)
	if err != nil {
		return Result{Truth: False, Detail: err.Error(), Missing: true}
	}
	return Result{Truth: v.truth, Detail: v.detail}
}

// eval is the value of the node n for the pod p, by the node's kind; a *missing error when the
// pod lacks what n reads.
func eval(n node, p *timeline.Pod) (value, error) {
	switch n := n.(type) {
	case *literal:
		return evalLiteral(n), nil
	case *milestoneRef:
		return evalMilestone(n, p)
	case *restartsRef:
		return evalRestarts(n, p)
	case *findingsCount:
		return evalFindings(n, p), nil
	case *gapRef:
		return evalGap(p, n)
	case *negate:
		return evalNegate(n, p)
	case *arith:
		return evalArith(n, p)
	case *compare:
		return evalCompare(n, p)
	case *not:
		return evalNot(n, p)
	case *logic:
		return evalLogic(n, p)
	}
	panic(fmt.Sprintf("assert: unknown node %T", n))
}

// evalLiteral is a number, or a duration known exactly and shown as written.
func evalLiteral(n *literal) value {
	if n.ty == tyNumber {
		return value{ty: tyNumber, num: n.num}
	}
	b := exactly(n.dur)
	b.exact = n.text
	return value{ty: tyDuration, b: b}
}

// evalMilestone is a milestone's time, as bounds from the pod's creation.
func evalMilestone(n *milestoneRef, p *timeline.Pod) (value, error) {
	m, err := findMilestone(p, n)
	if err != nil {
		return value{}, err
	}
	b, ok := offset(p, m)
	if !ok {
		return value{}, missing{n.text + ": its time lies centuries from the pod's creation, no time of the pod"}
	}
	return value{ty: tyTime, b: b}, nil
}

// evalRestarts is a container's restart count.
func evalRestarts(n *restartsRef, p *timeline.Pod) (value, error) {
	c := p.Container(n.lane)
	if c == nil {
		return value{}, missing{"no container " + n.lane}
	}
	return value{ty: tyNumber, num: float64(c.RestartCount)}, nil
}

// evalFindings counts the pod's findings, of one severity if n names one, and names those
// with an ID for the detail.
func evalFindings(n *findingsCount, p *timeline.Pod) value {
	v := value{ty: tyNumber}
	for _, f := range p.Findings() {
		if n.severity == "" || f.Severity == n.severity {
			v.num++
			if f.ID != "" {
				v.names = append(v.names, string(f.ID))
			}
		}
	}
	return v
}

// evalNegate is a duration or a number negated, its bounds swapped.
func evalNegate(n *negate, p *timeline.Pod) (value, error) {
	x, err := eval(n.x, p)
	x.b, x.num = x.b.neg(), -x.num
	return x, err
}

// evalLogic evaluates a chain of one operator, a && b && c (read as (a && b) && c), from left
// to right in one pass, its details joined once: evaluated link by link, each link's detail
// was copied into every one after it, and a chain of 60,000 allocated 14 GB.
func evalLogic(n *logic, p *timeline.Pod) (value, error) {
	var links []node // the chain's operands, last first
	x := node(n)
	for l, ok := x.(*logic); ok && l.op == n.op; l, ok = x.(*logic) {
		links = append(links, l.y)
		x = l.x
	}
	links = append(links, x)
	details := make([]string, 0, len(links))
	var t Truth
	for i := len(links) - 1; i >= 0; i-- {
		v, err := eval(links[i], p)
		if err != nil {
			return v, err
		}
		switch {
		case i == len(links)-1:
			t = v.truth
		case n.op == tOr:
			t = t.or(v.truth)
		default:
			t = t.and(v.truth)
		}
		details = append(details, v.detail)
	}
	return value{ty: tyTruth, truth: t, detail: strings.Join(details, "; ")}, nil
}

func evalArith(n *arith, p *timeline.Pod) (value, error) {
	x, err := eval(n.x, p)
	if err != nil {
		return x, err
	}
	y, err := eval(n.y, p)
	if err != nil {
		return y, err
	}
	if n.ty == tyNumber {
		if n.op == tMinus {
			return value{ty: tyNumber, num: x.num - y.num}, nil
		}
		return value{ty: tyNumber, num: x.num + y.num}, nil
	}
	b := x.b.plus(y.b)
	if n.op == tMinus {
		b = x.b.minus(y.b)
	}
	return value{ty: n.ty, b: b}, nil
}

func evalCompare(n *compare, p *timeline.Pod) (value, error) {
	return evalCompareAs(n, p, n.op)
}

// evalCompareAs evaluates the comparison and says its values with the operator shown, which is
// n's own or, under a !, its opposite.
func evalCompareAs(n *compare, p *timeline.Pod, shown tokenKind) (value, error) {
	x, err := eval(n.x, p)
	if err != nil {
		return x, err
	}
	y, err := eval(n.y, p)
	if err != nil {
		return y, err
	}
	var t Truth
	if x.ty == tyNumber {
		t = compareNumbers(n.op, x.num, y.num)
	} else {
		t = compareBounds(n.op, x.b, y.b)
	}
	return value{ty: tyTruth, truth: t, detail: x.format() + " " + opText[shown] + " " + y.format()}, nil
}

// evalNot negates a truth. Its detail says what the negation claims: !(a < b) shows its values
// compared with >=, the comparison whose truth it has (Kleene's ! of a comparison by the
// bounds is the opposite comparison); any other negated truth shows !( and its detail ).
func evalNot(n *not, p *timeline.Pod) (value, error) {
	if inner, ok := n.x.(*not); ok {
		return eval(inner.x, p) // !!x is x, in three values as in two
	}
	if c, ok := n.x.(*compare); ok {
		v, err := evalCompareAs(c, p, oppositeOp[c.op])
		v.truth = v.truth.not()
		return v, err
	}
	v, err := eval(n.x, p)
	v.truth = v.truth.not()
	v.detail = "!(" + v.detail + ")"
	return v, err
}

var opText = map[tokenKind]string{tLT: "<", tLE: "<=", tGT: ">", tGE: ">=", tEQ: "==", tNE: "!="}

// oppositeOp is the comparison that holds exactly where one does not.
var oppositeOp = map[tokenKind]tokenKind{tLT: tGE, tLE: tGT, tGT: tLE, tGE: tLT, tEQ: tNE, tNE: tEQ}

// findMilestone is the milestone a reference names in p.
func findMilestone(p *timeline.Pod, r *milestoneRef) (*timeline.Milestone, error) {
	if r.lane == "" {
		var found *timeline.Milestone
		for _, m := range p.Milestones.All() {
			if m.Kind == r.kind {
				found = m
				if !r.latest {
					break
				}
			}
		}
		if found == nil {
			return nil, missing{"no " + r.text}
		}
		return found, nil
	}
	c := p.Container(r.lane)
	if c == nil {
		return nil, missing{"no container " + r.lane}
	}
	var found *timeline.Milestone
	if r.hasAttempt {
		found = c.Find(r.kind, r.attempt)
	} else {
		for _, run := range c.Runs.Items() {
			if m := c.Find(r.kind, run.Attempt); m != nil {
				found = m
				if !r.latest {
					break
				}
			}
		}
	}
	if found == nil {
		return nil, missing{"no " + r.text}
	}
	return found, nil
}

// offset is a milestone's time as bounds from the pod's creation; a zero Earliest or Latest is
// an unbounded end. ok is false when an offset is more than a Duration holds: Sub saturates
// there, at the values that stand for an unbounded end.
func offset(p *timeline.Pod, m *timeline.Milestone) (_ bounds, ok bool) {
	ok = true
	sub := func(t time.Time) time.Duration {
		d := t.Sub(p.Created)
		ok = ok && d != negInf && d != posInf
		return d
	}
	b := bounds{est: sub(m.At), lo: negInf, hi: posInf}
	if !m.Earliest.IsZero() {
		b.lo = sub(m.Earliest)
	}
	if !m.Latest.IsZero() {
		b.hi = sub(m.Latest)
	}
	return b, ok
}

// evalGap is the span of the named gap, its ends unbounded where a milestone's are. A gap the
// pod has as unknown, or does not have, is missing, and the message says why or which it has.
func evalGap(p *timeline.Pod, n *gapRef) (value, error) {
	for i := range p.Gaps {
		if g := &p.Gaps[i]; n.matches(g) {
			return gapSpan(p, g, n.text)
		}
	}
	for i := range p.UnknownGaps {
		u := &p.UnknownGaps[i]
		if n.matches(&timeline.Gap{Name: u.Name, From: u.From, To: u.To}) {
			return value{}, missing{fmt.Sprintf("%s is unknown: %s", n.text, u.Why)}
		}
	}
	return value{}, noGap(p, n.text)
}

// gapSpan is the gap g's span as bounds. Its low bound is unbounded when the gap's start has no
// latest time or its end no earliest one (or either milestone is not found), its high bound
// when the start has no earliest time or the end no latest one. text is the gap as written.
func gapSpan(p *timeline.Pod, g *timeline.Gap, text string) (value, error) {
	if g.Span.Value == negInf || g.Span.Value == posInf {
		// A timeline written before unknown gaps were told apart: the span saturated.
		return value{}, missing{text + " is unknown: its span is more than a duration holds"}
	}
	b := bounds{est: g.Span.Value, lo: g.Span.Min, hi: g.Span.Max}
	from, to := p.Find(g.From.Container, g.From.Kind, g.From.Attempt), p.Find(g.To.Container, g.To.Kind, g.To.Attempt)
	if from == nil || to == nil || from.Latest.IsZero() || to.Earliest.IsZero() {
		b.lo = negInf
	}
	if from == nil || to == nil || from.Earliest.IsZero() || to.Latest.IsZero() {
		b.hi = posInf
	}
	return value{ty: tyDuration, b: b}, nil
}

// noGap says that the pod has no gap text names, and which gaps it has.
func noGap(p *timeline.Pod, text string) missing {
	if len(p.Gaps) == 0 {
		return missing{fmt.Sprintf("no %s: the pod has no named gaps", text)}
	}
	names := make([]string, len(p.Gaps))
	for i, g := range p.Gaps {
		names[i] = fmt.Sprintf("%q", g.Name)
	}
	return missing{fmt.Sprintf("no %s: the pod's gaps are %s", text, strings.Join(names, ", "))}
}

// matches reports whether g is the gap n names: by its name, or by its two milestones.
func (n *gapRef) matches(g *timeline.Gap) bool {
	if n.name != "" {
		return sameGapName(n.name, normalizeGap(g.Name))
	}
	return n.from.is(g.From) && n.to.is(g.To)
}

// GapNamed reports whether name, a named gap as sidecar-top prints it, is the gap that want
// names, read as gap("...") reads it: -> for →, case and spacing aside, and "pod deletion →
// last exit" for whichever container exited last. diff's --fail-on names gaps so too.
func GapNamed(want, name string) bool {
	return sameGapName(normalizeGap(want), normalizeGap(name))
}

// sameGapName compares two normalized names: equal, or name is want and a container in
// parentheses ("pod deletion → last exit (sidecar)" is "pod deletion → last exit").
func sameGapName(want, name string) bool {
	if name == want {
		return true
	}
	i := strings.LastIndex(name, " (")
	return i > 0 && strings.HasSuffix(name, ")") && name[:i] == want
}

// is reports whether the reference names the milestone r: the same lane and kind, and the
// same attempt if one is given.
func (m *milestoneRef) is(r timeline.MilestoneRef) bool {
	return m.lane == r.Container && m.kind == r.Kind && (!m.hasAttempt || m.attempt == r.Attempt)
}

// Outcome is an assertion's result over several pods: the worst pod's truth, and each pod's.
type Outcome struct {
	Truth Truth
	Pods  []PodResult // in the order given
}

// PodResult is the result for one pod.
type PodResult struct {
	Pod string
	Result
}

// EvalPods evaluates the assertion for each pod; it holds only as well as it holds for the
// worst of them. With no pods it is false: there is nothing to show it holds of.
func (a *Assertion) EvalPods(pods []*timeline.Pod) Outcome {
	o := Outcome{Truth: True}
	if len(pods) == 0 {
		o.Truth = False
	}
	for _, p := range pods {
		r := a.Eval(p)
		o.Pods = append(o.Pods, PodResult{Pod: p.Name, Result: r})
		o.Truth = min(o.Truth, r.Truth)
	}
	return o
}

// Decider is the pod whose result decided the outcome: the first with the outcome's truth.
func (o Outcome) Decider() (PodResult, bool) {
	for _, r := range o.Pods {
		if r.Truth == o.Truth {
			return r, true
		}
	}
	return PodResult{}, false
}
