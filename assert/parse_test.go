package assert

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tree writes a parsed expression as an S-expression, with each value's type where it is not
// a truth: what the parser understood.
func tree(n node) string {
	switch n := n.(type) {
	case *milestoneRef:
		s := n.lane + "." + string(n.kind)
		if n.lane == "" {
			s = "pod." + string(n.kind)
		}
		switch {
		case n.hasAttempt:
			s += fmt.Sprintf("[%d]", n.attempt)
		case n.latest:
			s += "[latest]"
		default:
			s += "[first]"
		}
		return s
	case *restartsRef:
		return n.lane + ".restarts"
	case *findingsCount:
		if n.severity == "" {
			return "count(findings)"
		}
		return "count(findings " + string(n.severity) + ")"
	case *gapRef:
		if n.from != nil {
			return "gap(" + tree(n.from) + " " + tree(n.to) + ")"
		}
		return fmt.Sprintf("gap(%q)", n.name)
	case *literal:
		if n.ty == tyNumber {
			return fmt.Sprint(n.num)
		}
		return n.dur.String()
	case *negate:
		return "(neg " + tree(n.x) + ")"
	case *arith:
		return "(" + opName[n.op] + " " + tree(n.x) + " " + tree(n.y) + ")"
	case *compare:
		return "(" + opName[n.op] + " " + tree(n.x) + " " + tree(n.y) + ")"
	case *logic:
		return "(" + opName[n.op] + " " + tree(n.x) + " " + tree(n.y) + ")"
	case *not:
		return "(! " + tree(n.x) + ")"
	}
	return fmt.Sprintf("?%T", n)
}

var opName = map[tokenKind]string{
	tPlus: "+", tMinus: "-", tLT: "<", tLE: "<=", tGT: ">", tGE: ">=", tEQ: "==", tNE: "!=",
	tAnd: "&&", tOr: "||",
}

func TestParse(t *testing.T) {
	tests := []struct{ src, want string }{
		{"app.start - proxy.started < 3s", "(< (- app.start[first] proxy.started[first]) 3s)"},
		{"app.start-proxy.started<3s", "(< (- app.start[first] proxy.started[first]) 3s)"},
		{"init-sleep.exit - sidecar.start <= 1500ms", "(<= (- init-sleep.exit[latest] sidecar.start[first]) 1.5s)"},
		{"sidecar.sigterm > app.exit", "(> sidecar.sigterm[latest] app.exit[latest])"},
		{"app.restart[2] - app.exit[1] >= 10s", "(>= (- app.restart[2] app.exit[1]) 10s)"},
		{"pod.ready - pod.created < 1m30s", "(< (- pod.ready[first] pod.created[first]) 1m30s)"},
		{"pod.deleting + 5s > app.exit", "(> (+ pod.deleting[latest] 5s) app.exit[latest])"},
		{"5s + pod.deleting > app.exit", "(> (+ 5s pod.deleting[latest]) app.exit[latest])"},
		{"app.not_ready != pod.not_ready", "(!= app.not-ready[latest] pod.not-ready[latest])"},
		{`gap("app SIGTERM → app exit") < 5s`, `(< gap("app sigterm → app exit") 5s)`},
		{`gap("App SIGTERM->app   exit") < 5s`, `(< gap("app sigterm → app exit") 5s)`},
		{"gap(app.sigterm, app.exit) < 5s", "(< gap(app.sigterm[latest] app.exit[latest]) 5s)"},
		{"gap(pod.deleting, sidecar.exit[0]) < 5s", "(< gap(pod.deleting[latest] sidecar.exit[0]) 5s)"},
		{"sidecar.restarts == 0", "(== sidecar.restarts 0)"},
		{"count(findings) == 0", "(== count(findings) 0)"},
		{"count( findings , warning ) <= 1", "(<= count(findings warning) 1)"},
		{"sidecar.restarts + app.restarts < 2.5", "(< (+ sidecar.restarts app.restarts) 2.5)"},
		{`"1st".start < "pod".start`, "(< 1st.start[first] pod.start[first])"},
		{"app.start - proxy.started > -1s", "(> (- app.start[first] proxy.started[first]) (neg 1s))"},
		{"a.exit - b.exit < 1s && b.restarts == 0 || count(findings) == 0",
			"(|| (&& (< (- a.exit[latest] b.exit[latest]) 1s) (== b.restarts 0)) (== count(findings) 0))"},
		{"a.exit - b.exit < 1s && (b.restarts == 0 || count(findings) == 0)",
			"(&& (< (- a.exit[latest] b.exit[latest]) 1s) (|| (== b.restarts 0) (== count(findings) 0)))"},
		{"!a.start < b.start", "(! (< a.start[first] b.start[first]))"},
		{"!!(a.start < b.start)", "(! (! (< a.start[first] b.start[first])))"},
		{"((a.start - b.start)) < (1s + 500ms)", "(< (- a.start[first] b.start[first]) (+ 1s 500ms))"},
		{"a.start - b.start - 1s < 0s", "(< (- (- a.start[first] b.start[first]) 1s) 0s)"},
		// count and gap without a ( are containers; a quoted "pod" is a container, with restarts and runs.
		{"count.exit < gap.exit", "(< count.exit[latest] gap.exit[latest])"},
		{`"pod".restarts == 0`, "(== pod.restarts 0)"},
		{`"pod".exit[1] < app.exit`, "(< pod.exit[1] app.exit[latest])"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			a, err := Parse(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tree(a.root), tt.want); diff != "" {
				t.Errorf("-got +want:\n%s", diff)
			}
			if a.String() != tt.src {
				t.Errorf("String() = %q", a.String())
			}
		})
	}
}

// TestParseErrors: every bad assertion is refused with what is wrong and the column where.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		src  string
		want Error
	}{
		// Empty, and not a truth.
		{"", Error{1, "the assertion is empty"}},
		{"   ", Error{1, "the assertion is empty"}},
		{"app.start - proxy.started", Error{1, "the assertion is a duration, not true or false: compare it, e.g. app.start - sidecar.started < 3s"}},
		{"sidecar.restarts", Error{1, "the assertion is a count, not true or false: compare it, e.g. app.start - sidecar.started < 3s"}},
		// Unknown kinds.
		{"app.strat < proxy.started", Error{5, `unknown milestone kind "strat" of a container's lane: want ` + containerKindList}},
		{"pod.start < 3s", Error{5, `unknown milestone kind "start" of the pod's lane: want ` + podKindList}},
		{"app.scheduled < pod.ready", Error{5, `unknown milestone kind "scheduled" of a container's lane: want ` + containerKindList}},
		{"pod.not-ready < app.exit", Error{5, "write not_ready: a kind's - is written _ here"}},
		{"pod.restarts == 0", Error{5, "the pod has no restart count: give a container's, e.g. app.restarts"}},
		{"app < 3s", Error{1, "app alone is not a value: name a milestone, e.g. app.start, or write app.restarts"}},
		{"app. < 3s", Error{6, `a milestone kind after the dot expected, found "<"`}},
		// Attempts.
		{"app.restart[0] < app.exit", Error{13, "restart[0] does not exist: restart[n] is the nth restart, from 1 (the first run is start)"}},
		{"app.exit[-1] < app.exit", Error{10, `an attempt number after [ expected, found "-"`}},
		{"app.exit[1.5] < app.exit", Error{10, "an attempt is a whole number, 0 for the first run"}},
		{"app.exit[1 < app.exit", Error{12, `] expected, found "<"`}},
		{"pod.ready[1] < app.exit", Error{10, "the pod's milestones have no attempt [n]: only a container's runs do"}},
		// Bad durations and numbers.
		{"app.exit - app.sigterm < 3sec", Error{26, `bad duration "3sec": write a number and a unit, ms, s, m or h (e.g. 500ms, 1.5s, 1m30s)`}},
		{"app.exit - app.sigterm < 3x", Error{26, `bad duration "3x": write a number and a unit, ms, s, m or h (e.g. 500ms, 1.5s, 1m30s)`}},
		{"app.exit - app.sigterm < 1.2.3s", Error{26, `bad duration "1.2.3s": write a number and a unit, ms, s, m or h (e.g. 500ms, 1.5s, 1m30s)`}},
		{"app.restarts < 1.2.3", Error{16, `bad number "1.2.3"`}},
		// Parentheses.
		{"(app.exit - app.sigterm < 3s", Error{1, "this ( is never closed"}},
		{"((app.exit - app.sigterm) < 3s", Error{1, "this ( is never closed"}},
		{"app.exit - app.sigterm) < 3s", Error{23, "this ) closes no ("}},
		{"app.exit - app.sigterm < 3s)", Error{28, "this ) closes no ("}},
		{"() < 3s", Error{2, "a value was expected before this )"}},
		{"(app.exit - app.sigterm < 3s]", Error{29, `) expected, found "]"`}},
		// Type errors.
		{"app.start < sidecar.restarts", Error{11, "cannot compare a time (app.start) with a count (sidecar.restarts): subtract two times for a duration, e.g. app.start - sidecar.started < 3s"}},
		// Which side was read as a time, whether or not its container exists (Check says that).
		{"proxy.start < 3s", Error{13, "cannot compare a time (proxy.start) with a duration (3s): a milestone is a time; for how long after the pod's creation, write proxy.start - pod.created < 3s"}},
		{"3s > (app.start)", Error{4, "cannot compare a duration (3s) with a time ((app.start)): subtract two times for a duration, e.g. app.start - sidecar.started < 3s"}},
		{"app.exit - app.start < 3", Error{22, "cannot compare a duration (app.exit - app.start) with a plain number (3): give the number a unit, e.g. 3s"}},
		{"app.exit - app.start < -3", Error{22, "cannot compare a duration (app.exit - app.start) with a plain number (-3): give the number a unit, e.g. 3s"}},
		{"count(findings) == 0s", Error{17, "cannot compare a count (count(findings)) with a duration (0s)"}},
		// A unit after a space is read with its number; a name after a number stays a name.
		{"app.exit - app.start < 5 sec", Error{22, "cannot compare a duration (app.exit - app.start) with a plain number (5): give the number a unit, e.g. 3s"}},
		{"app.exit - app.start < 5 s.start", Error{22, "cannot compare a duration (app.exit - app.start) with a plain number (5): give the number a unit, e.g. 3s"}},
		{"app.start + sidecar.start < app.exit", Error{11, "cannot add a time and a time"}},
		{"app.restarts - 1s == 0", Error{14, "cannot subtract a count and a duration"}},
		{"3s - app.start < app.exit", Error{4, "cannot subtract a duration and a time"}},
		{"-app.start < app.exit", Error{1, "cannot negate a time"}},
		{"(a.start < b.start) < (a.exit < b.exit)", Error{21, "< compares times, durations or counts, not truths: join truths with && or ||"}},
		{"a.start < b.start && a.exit", Error{22, "&& joins truths, and this is a time: compare it first"}},
		{"a.restarts || a.exit < b.exit", Error{1, "|| joins truths, and this is a count: compare it first"}},
		{"!a.restarts", Error{1, "! negates a truth, and this is a count"}},
		{"a.start < b.start < c.start", Error{19, "comparisons do not chain: join them with &&, e.g. a < b && b < c"}},
		// Operators and strings.
		{"app.restarts = 0", Error{14, "= alone: compare with =="}},
		{"a.start < b.start & a.exit < b.exit", Error{19, "& alone: write && for and"}},
		{"a.start < b.start | a.exit < b.exit", Error{19, "| alone: write || for or"}},
		{"gap('a → b') < 1s", Error{5, "strings are written in double quotes"}},
		{`gap("app SIGTERM → app exit) < 1s`, Error{5, `the string that begins here has no closing "`}},
		{"app.exit - app.sigterm < 3s;", Error{28, "unexpected ';'"}},
		{"app.exit - app.sigterm ≤ 3s", Error{24, "unexpected '≤'"}},
		{"a.start < b.start c.start", Error{19, `unexpected "c": an operator (&&, ||, <, -, ...) or the end was expected`}},
		{"a.start <", Error{10, "the assertion ends where a value was expected"}},
		{"< 3s", Error{1, `a value (a milestone, gap, count, duration or number) was expected, found "<"`}},
		{"app.exit < ,", Error{12, `a value (a milestone, gap, count, duration or number) was expected, found ","`}},
		{`"".start < a.start`, Error{1, "a container's name cannot be empty"}},
		// Counts and gaps.
		{"count(pods) == 1", Error{7, "count counts findings: write count(findings) or count(findings, warning)"}},
		{"count(findings, error) == 0", Error{17, `unknown severity "error": want warning or info`}},
		{"count(findings == 0", Error{16, `) expected, found "=="`}},
		{`gap("app exit") < 1s`, Error{5, `a gap's name reads FROM → TO (or FROM -> TO), e.g. "app SIGTERM → app exit"`}},
		{"gap(app.sigterm) < 1s", Error{16, `a comma between the gap's two milestones expected, found ")"`}},
		{"gap(app.restarts, app.exit) < 1s", Error{5, "a gap runs between two milestones, e.g. gap(app.sigterm, app.exit)"}},
		{"gap(3s, app.exit) < 1s", Error{5, "gap( wants a gap's name in quotes, or two milestones: gap(app.sigterm, app.exit)"}},
		// Columns count characters, not bytes.
		{`gap("a → b") < 1s && x.y < 1s`, Error{24, `unknown milestone kind "y" of a container's lane: want ` + containerKindList}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			a, err := Parse(tt.src)
			if err == nil {
				t.Fatalf("parsed as %s", tree(a.root))
			}
			got, ok := err.(*Error)
			if !ok {
				t.Fatalf("error %T %v, want *Error", err, err)
			}
			if diff := cmp.Diff(*got, tt.want); diff != "" {
				t.Errorf("-got +want:\n%s", diff)
			}
		})
	}
}
