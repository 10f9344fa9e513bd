package assert

import (
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// typ is the type of an expression, known when it is parsed.
type typ int

const (
	tyTruth typ = iota
	tyTime
	tyDuration
	tyNumber
)

// article names a type with its article, for error messages.
func (t typ) article() string {
	switch t {
	case tyTime:
		return "a time"
	case tyDuration:
		return "a duration"
	case tyNumber:
		return "a count"
	}
	return "a truth (true or false)"
}

// node is an expression. pos is its byte offset in the source, for errors.
type node interface {
	typ() typ
	pos() int
}

// milestoneRef is lane.KIND or lane.KIND[n]: a time.
type milestoneRef struct {
	at         int
	lane       string // the container's name; "" for the pod
	kind       timeline.MilestoneKind
	attempt    int32
	hasAttempt bool
	latest     bool   // without [n]: the latest occurrence, not the first
	text       string // as written, for messages
}

// restartsRef is lane.restarts: a number.
type restartsRef struct {
	at   int
	lane string
}

// findingsCount is count(findings) or count(findings, SEVERITY): a number.
type findingsCount struct {
	at       int
	severity timeline.Severity // "" counts every finding
}

// gapRef is gap("NAME") or gap(a, b): a duration.
type gapRef struct {
	at       int
	name     string // normalized; "" when from and to are given
	from, to *milestoneRef
	text     string
}

// literal is a DURATION or a NUMBER.
type literal struct {
	at   int
	ty   typ
	dur  time.Duration
	num  float64
	text string
}

// negate is -x, of a duration or a number.
type negate struct {
	at int
	x  node
}

// arith is x + y or x - y.
type arith struct {
	at   int
	op   tokenKind // tPlus or tMinus
	x, y node
	ty   typ
}

// compare is x OP y: a truth.
type compare struct {
	at   int
	op   tokenKind
	x, y node
}

// logic is x && y or x || y.
type logic struct {
	at   int
	op   tokenKind // tAnd or tOr
	x, y node
}

// not is !x.
type not struct {
	at int
	x  node
}

func (n *milestoneRef) typ() typ  { return tyTime }
func (n *restartsRef) typ() typ   { return tyNumber }
func (n *findingsCount) typ() typ { return tyNumber }
func (n *gapRef) typ() typ        { return tyDuration }
func (n *literal) typ() typ       { return n.ty }
func (n *negate) typ() typ        { return n.x.typ() }
func (n *arith) typ() typ         { return n.ty }
func (n *compare) typ() typ       { return tyTruth }
func (n *logic) typ() typ         { return tyTruth }
func (n *not) typ() typ           { return tyTruth }

func (n *milestoneRef) pos() int  { return n.at }
func (n *restartsRef) pos() int   { return n.at }
func (n *findingsCount) pos() int { return n.at }
func (n *gapRef) pos() int        { return n.at }
func (n *literal) pos() int       { return n.at }
func (n *negate) pos() int        { return n.at }
func (n *arith) pos() int         { return n.at }
func (n *compare) pos() int       { return n.at }
func (n *logic) pos() int         { return n.at }
func (n *not) pos() int           { return n.at }

// kindRef is a milestone kind as the language names it, with whether, without [n], it reads the
// latest occurrence rather than the first.
type kindRef struct {
	kind   timeline.MilestoneKind
	latest bool
}

// containerKinds and podKinds are the milestone kinds of a container lane and of the pod row by
// their names in the language; the lists name them in the order a container and a pod pass
// through them, for errors. All four come from the registry of kinds (timeline.Kinds).
var (
	containerKinds, containerKindList = kindsOn(timeline.ScopeContainer, ", or restarts (a count)")
	podKinds, podKindList             = kindsOn(timeline.ScopePod, "")
)

// kindsOn returns the kinds of scope s by their names in the language, and their names listed
// in the registry's order ("a, b or c"), then tail.
func kindsOn(s timeline.Scope, tail string) (map[string]kindRef, string) {
	byName := map[string]kindRef{}
	var names []string
	for _, k := range timeline.Kinds() {
		if k.On(s) && k.Assert != "" {
			byName[k.Assert] = kindRef{k.Kind, k.Latest}
			names = append(names, k.Assert)
		}
	}
	list := strings.Join(names, ", ")
	if tail == "" && len(names) > 1 {
		list = strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	return byName, list + tail
}
