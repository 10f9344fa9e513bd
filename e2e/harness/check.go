//go:build e2e

package harness

import (
	"fmt"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Slack is how far a log line's time may be from the instant it witnesses, on one side only.
// The runtime stamps a line when it reads it from the container's pipe: a few milliseconds
// after the container wrote it. A line written when something happened ("app start" at the
// start, "app got TERM" from the SIGTERM trap) is stamped just AFTER that instant; a line written
// as the last act before exiting ("app exiting") is stamped just BEFORE the exit. So the instant
// is in [stamp − Slack, stamp] for the first kind and in [stamp, stamp + Slack] for the second.
// Nowhere else is any tolerance allowed.
const Slack = 100 * time.Millisecond

// Stamp says on which side of its line's time a witnessed instant lies.
type Stamp int

const (
	// After: the line was written just after the instant (a start, a signal caught).
	After Stamp = iota
	// Before: the line was written just before the instant (the exit that follows it).
	Before
	// NotBefore: the line bounds the instant below only: what it reports (a file a probe
	// tests, created) happened before the instant, which may be much later.
	NotBefore
	// NotAfter: the line bounds the instant above only: it was written some time after the
	// instant, maybe long after (a preStop hook's first line, written once the runtime has set
	// up the exec the kubelet asked for at the hook's start).
	NotAfter
)

// Point ties a milestone of the tool to the log line that witnesses it: the first line with
// exactly that text in the container's run Attempt.
type Point struct {
	Container string
	Kind      timeline.MilestoneKind
	Attempt   int32
	Line      string
	Stamp     Stamp
}

func (p Point) String() string {
	return fmt.Sprintf("%s %s#%d (%q)", p.Container, p.Kind, p.Attempt, p.Line)
}

// Instant is the ground truth of one milestone: the line's time, and the interval the instant
// certainly lies in given Slack. A zero Hi is unbounded (NotBefore).
type Instant struct {
	At, Lo, Hi time.Time
	Plus       time.Duration // the uncertainty of At itself (the deletion's kubectl call), else 0
	What       string
	Runtime    bool // At is the container runtime's own stamp of the instant (Lo = Hi = At)
}

// instantOf is the truth for p from the collected lines.
func instantOf(t *Truth, p Point) (Instant, error) {
	l, ok := t.Find(p.Container, int(p.Attempt), p.Line)
	if !ok {
		return Instant{}, fmt.Errorf("%s: no such line in the container's log (restart %d)", p, p.Attempt)
	}
	in := Instant{At: l.At, Lo: l.At.Add(-Slack), Hi: l.At, What: fmt.Sprintf("%q", p.Line)}
	switch p.Stamp {
	case Before:
		in.Lo, in.Hi = l.At, l.At.Add(Slack)
	case NotBefore:
		in.Hi = time.Time{}
	case NotAfter:
		in.Lo = time.Time{}
	}
	return t.refine(p, in), nil
}

// FindMilestone is the first milestone of that kind and attempt in the container's lane, or in
// the pod row when container is empty; nil if there is none.
func FindMilestone(p *timeline.Pod, container string, kind timeline.MilestoneKind, attempt int32) *timeline.Milestone {
	for _, m := range Milestones(p, container) {
		if m.Kind == kind && m.Attempt == attempt {
			return m
		}
	}
	return nil
}

// FindContainer is the pod's lane of that name, or nil.
func FindContainer(p *timeline.Pod, name string) *timeline.Container {
	for i := range p.Containers {
		if p.Containers[i].Name == name {
			return &p.Containers[i]
		}
	}
	return nil
}

// Checked is the outcome of checking one point.
type Checked struct {
	Point     Point
	Milestone *timeline.Milestone // nil if the tool has none
	Truth     Instant             // zero if the line was not logged
	Err       error
}

// String says what was compared: the line's time against the milestone's bounds.
func (c Checked) String() string {
	if c.Milestone == nil || c.Truth.At.IsZero() {
		return fmt.Sprintf("%s: %v", c.Point, c.Err)
	}
	m := c.Milestone
	return fmt.Sprintf("%s: logged %s; tool [%s, %s] at %s (%s)", c.Point, clock(c.Truth.At),
		clock(m.Earliest), clock(m.Latest), clock(m.At), m.Source)
}

// CheckPoints checks every point: the milestone exists, its line was logged, and the line's
// instant (with Slack on its one side) lies in the milestone's [earliest, latest].
func CheckPoints(p *timeline.Pod, t *Truth, points []Point) []Checked {
	var out []Checked
	for _, pt := range points {
		out = append(out, CheckPoint(p, t, pt))
	}
	return out
}

// CheckPoint checks one point.
func CheckPoint(p *timeline.Pod, t *Truth, pt Point) Checked {
	c := Checked{Point: pt, Milestone: FindMilestone(p, pt.Container, pt.Kind, pt.Attempt)}
	if c.Milestone == nil {
		c.Err = fmt.Errorf("%s: the tool has no such milestone", pt)
		return c
	}
	m := c.Milestone
	in, err := instantOf(t, pt)
	if err != nil {
		c.Err = err
		return c
	}
	c.Truth = in
	if (in.Hi.IsZero() || !in.Hi.Before(m.Earliest)) && !in.Lo.After(m.Latest) {
		return c
	}
	side := "the log line, written after the event (so it may be up to the slack late)"
	switch {
	case in.Runtime:
		side = "by the runtime itself: " + in.What
	case pt.Stamp == Before:
		side = "the log line, written before the exit (so the exit may be up to the slack later)"
	case pt.Stamp == NotBefore:
		side = "the log line, written before the event, which cannot precede it"
	case pt.Stamp == NotAfter:
		side = "the log line, written after the event, which cannot follow it"
	}
	hi := "∞"
	if !in.Hi.IsZero() {
		hi = clock(in.Hi)
	}
	lo := "-∞"
	if !in.Lo.IsZero() {
		lo = clock(in.Lo)
	}
	c.Err = fmt.Errorf("%s: TRUTH OUTSIDE THE TOOL'S BOUNDS: stamped %s, %s; "+
		"the tool says [%s, %s] (at %s, source %s; %s), which misses [%s, %s] by %s",
		pt, clock(in.At), side, clock(m.Earliest), clock(m.Latest), clock(m.At), m.Source,
		evidence(m), lo, hi, miss(in, m))
	return c
}

func miss(in Instant, m *timeline.Milestone) time.Duration {
	if !in.Hi.IsZero() && in.Hi.Before(m.Earliest) {
		return m.Earliest.Sub(in.Hi)
	}
	return in.Lo.Sub(m.Latest)
}

func evidence(m *timeline.Milestone) string {
	s := ""
	for i, e := range m.Evidence {
		if i > 0 {
			s += "; "
		}
		s += e.What
		if e.Note != "" {
			s += " (" + e.Note + ")"
		}
	}
	return "evidence: " + s
}

// clock prints a time of day to the nanosecond, as the logs do.
func clock(t time.Time) string { return t.UTC().Format("15:04:05.000000000") }

// CheckDeletion checks that the tool's deletion request meets the interval of the kubectl
// delete call that made it. It fails when the tool shows no deletion request or r deleted nothing.
func CheckDeletion(p *timeline.Pod, r *Run) error {
	lo, hi := r.Deletion[0], r.Deletion[1]
	if lo.IsZero() {
		return fmt.Errorf("the scenario deleted nothing")
	}
	m := FindMilestone(p, "", timeline.MDeleting, 0)
	if m == nil {
		return fmt.Errorf("kubectl delete ran in [%s, %s], but the tool has no deletion request", clock(lo), clock(hi))
	}
	if hi.Before(m.Earliest) || lo.After(m.Latest) {
		return fmt.Errorf("pod deleting: TRUTH OUTSIDE THE TOOL'S BOUNDS: kubectl delete ran in [%s, %s]; the tool says [%s, %s] (at %s, source %s; %s)",
			clock(lo), clock(hi), clock(m.Earliest), clock(m.Latest), clock(m.At), m.Source, evidence(m))
	}
	return nil
}

// Witnessed checks every instant run r of the scenario witnesses: its points, its witnesses
// and, when the pod was deleted, the deletion request against the kubectl delete call. It
// returns how many it checked, and an error for each that is not inside the tool's bounds (or
// has no milestone, or no line).
func (sc Scenario) Witnessed(r *Run, p *timeline.Pod) (int, []error) {
	var errs []error
	n := 0
	for _, c := range CheckPoints(p, r.Truth, sc.PointsOf(r)) {
		n++
		if c.Err != nil {
			errs = append(errs, c.Err)
		}
	}
	for _, w := range sc.Witnesses {
		n++
		if err := CheckWitness(p, r.Truth, w); err != nil {
			errs = append(errs, err)
		}
	}
	if !r.Deletion[0].IsZero() {
		n++
		if err := CheckDeletion(p, r); err != nil {
			errs = append(errs, err)
		}
	}
	return n, errs
}
