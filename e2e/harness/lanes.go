//go:build e2e

package harness

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// KindPreStop is the milestone of a preStop hook's start: the kubelet reports Killing and runs
// the hook before it signals the container.
const KindPreStop = timeline.MPreStop

// Milestones are the milestones of the container's lane, or of the pod row when container is
// empty, in the timeline's order; nil when there is no such lane. It is the one place that
// reads a lane's milestones, so that a change in the shape of timeline.Container touches only it.
func Milestones(p *timeline.Pod, container string) []*timeline.Milestone {
	var out []*timeline.Milestone
	if container == "" {
		for _, m := range p.Milestones.All() {
			out = append(out, m)
		}
		return out
	}
	c := FindContainer(p, container)
	if c == nil {
		return nil
	}
	for _, r := range c.Runs.Items() {
		for i := range r.Milestones {
			out = append(out, &r.Milestones[i])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return timeline.Before(out[i], out[j]) })
	return out
}

// MilestonesOf are the lane's milestones of one kind, every attempt, in the timeline's order.
func MilestonesOf(p *timeline.Pod, container string, kind timeline.MilestoneKind) []*timeline.Milestone {
	var out []*timeline.Milestone
	for _, m := range Milestones(p, container) {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// Witness ties a milestone to a log line of another lane or run than its own, e.g. the pod's
// Initialized condition to the last sidecar's start line, which it cannot precede.
type Witness struct {
	Lane    string // the milestone's container, "" for the pod row
	Kind    timeline.MilestoneKind
	Attempt int32
	Log     string // the container whose log has the line
	Restart int    // the run of that container
	Line    string
	Stamp   Stamp
}

func (w Witness) String() string {
	lane := w.Lane
	if lane == "" {
		lane = "pod"
	}
	return fmt.Sprintf("%s %s#%d (%s run %d: %q)", lane, w.Kind, w.Attempt, w.Log, w.Restart, w.Line)
}

// CheckWitness checks that the line's instant (with Slack on its one side, as for a Point) lies
// in the milestone's [earliest, latest]. It fails when the milestone or the line is missing.
func CheckWitness(p *timeline.Pod, t *Truth, w Witness) error {
	m := FindMilestone(p, w.Lane, w.Kind, w.Attempt)
	if m == nil {
		return fmt.Errorf("%s: the tool has no such milestone", w)
	}
	in, err := instantOf(t, Point{Container: w.Log, Attempt: int32(w.Restart), Line: w.Line, Stamp: w.Stamp})
	if err != nil {
		return fmt.Errorf("%s: %w", w, err)
	}
	if (in.Hi.IsZero() || !in.Hi.Before(m.Earliest)) && !in.Lo.After(m.Latest) {
		return nil
	}
	lo, hi := "-∞", "∞"
	if !in.Lo.IsZero() {
		lo = clock(in.Lo)
	}
	if !in.Hi.IsZero() {
		hi = clock(in.Hi)
	}
	return fmt.Errorf("%s: TRUTH OUTSIDE THE TOOL'S BOUNDS: the log line is stamped %s, so the instant is in [%s, %s]; "+
		"the tool says [%s, %s] (at %s, source %s; %s), which misses it by %s",
		w, clock(in.At), lo, hi, clock(m.Earliest), clock(m.Latest), clock(m.At), m.Source, evidence(m), miss(in, m))
}

// WaitLine waits up to limit until run restart of the container has logged a line with exactly
// that text, and returns it.
func (r *Run) WaitLine(ctx context.Context, container string, restart int, text string, limit time.Duration) (Line, error) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(PollInterval)
	defer tick.Stop()
	for {
		if l, ok := r.logs.Truth().Find(container, restart, text); ok {
			return l, nil
		}
		select {
		case <-ctx.Done():
			return Line{}, ctx.Err()
		case <-deadline.C:
			return Line{}, fmt.Errorf("%s run %d did not log %q within %s (%s)", container, restart, text, limit, r.logs)
		case <-tick.C:
		}
	}
}

// JobCondition is the job's first condition milestone with that reason (Complete, Failed), or nil.
func JobCondition(j *timeline.Job, reason string) *timeline.Milestone {
	for i := range j.Milestones {
		if m := &j.Milestones[i]; m.Kind == timeline.MCondition && m.Reason == reason {
			return m
		}
	}
	return nil
}
