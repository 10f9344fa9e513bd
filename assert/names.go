package assert

import (
	"sort"
	"strings"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Check reports a container that the assertion names and no pod of s has, as an *Error at
// its column: most likely a misspelt name. Name-free assertions, and assertions about a
// snapshot with no pods, pass.
func (a *Assertion) Check(s timeline.Snapshot) error {
	known := containersOf(s)
	if known == nil {
		return nil
	}
	var bad *Error
	walk(a.root, func(n node) {
		lane, at := "", 0
		switch n := n.(type) {
		case *milestoneRef:
			lane, at = n.lane, n.at
		case *restartsRef:
			lane, at = n.lane, n.at
		}
		if lane != "" && !known[lane] && bad == nil {
			bad = unknownContainer(a.src, at, lane, known)
		}
	})
	if bad != nil {
		return bad
	}
	return nil
}

// NameUnknown is err, the error of Parse(src), with the first container src names that no pod
// of s has said first: proxy.start < 3s is a type error, and when the pods have no proxy that
// is what to fix first. err is returned as it is when every container is known, s has no pods
// or src does not lex.
func NameUnknown(src string, err error, s timeline.Snapshot) error {
	known := containersOf(s)
	toks, lexErr := lex(src)
	if known == nil || lexErr != nil {
		return err
	}
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		lane := t.text
		if t.kind == tString {
			lane = t.str
		}
		if (t.kind != tName && t.kind != tString) || toks[i+1].kind != tDot || (t.kind == tName && lane == "pod") || known[lane] {
			continue
		}
		bad := unknownContainer(src, t.pos, lane, known)
		bad.Msg += "; and " + err.Error()
		return bad
	}
	return err
}

// containersOf is the set of the names of the containers of s's pods; nil when it has no pod.
func containersOf(s timeline.Snapshot) map[string]bool {
	if s.Pods.Len() == 0 {
		return nil
	}
	known := map[string]bool{}
	for _, p := range s.Pods.Items() {
		for _, c := range p.Containers {
			known[c.Name] = true
		}
	}
	return known
}

// unknownContainer is the error of a lane at byte pos of src that no pod has, naming those
// that the pods have.
func unknownContainer(src string, pos int, lane string, known map[string]bool) *Error {
	names := make([]string, 0, len(known))
	for k := range known {
		names = append(names, k)
	}
	sort.Strings(names)
	return errAt(src, pos, "unknown container %q: the pods have %s", lane, strings.Join(names, ", "))
}

// walk calls f on n and every node below it, in source order.
func walk(n node, f func(node)) {
	f(n)
	switch n := n.(type) {
	case *negate:
		walk(n.x, f)
	case *not:
		walk(n.x, f)
	case *arith:
		walk(n.x, f)
		walk(n.y, f)
	case *compare:
		walk(n.x, f)
		walk(n.y, f)
	case *logic:
		walk(n.x, f)
		walk(n.y, f)
	case *gapRef:
		if n.from != nil {
			walk(n.from, f)
			walk(n.to, f)
		}
	}
}
