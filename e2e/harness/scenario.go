//go:build e2e

package harness

import (
	"context"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Scenario is one end-to-end scenario, written once here and run both by its test (package e2e),
// which checks everything the kubelet guarantees, and by the figures program (e2e/truth), which
// prints each named gap beside the ground truth. It is a manifest recorded from before it is
// applied, what is done once it runs, and the log lines that witness the tool's milestones.
type Scenario struct {
	Test      string        // the test that runs it, e.g. TestStartOrder
	Name      string        // short: the namespace is e2e-<Name>-XXXXXX
	Title     string        // what it shows, in a line
	Manifest  string        // e2e/manifests/<Manifest>.yaml
	Target    string        // what the recorder watches: pod/NAME or job/NAME
	PodPrefix string        // the pods whose logs are the truth
	Until     string        // the recorder's --until: deleted, complete, ready, or "" (stop at --timeout)
	Timeout   time.Duration // the recorder's --timeout
	Status    int           // the recorder's exit status: 0, or 2 when --timeout passes before --until
	// Then runs once the manifest is applied, while the recorder records; nil does nothing.
	Then Step
	// Points are the milestones witnessed by a line of their own container's run.
	Points []Point
	// Repeats are containers that run over and over, an unknown number of times: PointsOf
	// adds the points of every run the logs have.
	Repeats []Repeat
	// Witnesses are milestones witnessed by a line of another lane or run.
	Witnesses []Witness
}

// Step is what a scenario does while it is recorded, e.g. wait until the pod is Ready and
// delete it. logf says what it does.
type Step func(ctx context.Context, r *Run, logf func(string, ...any)) error

// Repeat describes a container that the kubelet runs again and again (a crash loop, an init
// container that keeps failing, a probe that kills each run). Every run prints "<name> start"
// first; a run that ends prints Exit just before it exits; with PreStop each run is killed with
// a preStop hook that writes "<name> prestop start", and with Term it catches the SIGTERM and
// writes "<name> got TERM".
type Repeat struct {
	Container string
	Exit      string
	PreStop   bool
	Term      bool
}

// SettleTime is how long the recorder runs on after a line for the tool to have seen what the
// line reports: the status update or Event that reports a start or an exit comes within it.
const SettleTime = 4 * time.Second

// Settled is the time before which every logged line must be on the tool's timeline: SettleTime
// before the recorder stopped.
func (r *Run) Settled() time.Time { return r.Record.Ended.Add(-SettleTime) }

// LoggedBefore reports whether run restart of the container logged the line before limit (a
// zero limit: at any time).
func (r *Run) LoggedBefore(container string, restart int, text string, limit time.Time) bool {
	l, ok := r.Truth.Find(container, restart, text)
	return ok && (limit.IsZero() || l.At.Before(limit))
}

// RunsLogged are the container's runs whose "<name> start" line the runtime logged before
// Settled, in order.
func (r *Run) RunsLogged(container string) []int32 {
	var out []int32
	for _, k := range r.Truth.Restarts(container) {
		if r.LoggedBefore(container, k, container+" start", r.Settled()) {
			out = append(out, int32(k))
		}
	}
	return out
}

// PointsOf are the scenario's points in run r: its fixed Points, and for each Repeat the start
// of every run logged before r settled (restart#n for n > 0) and, for every such run whose exit
// line was logged before then too, its preStop hook, SIGTERM and exit.
func (sc Scenario) PointsOf(r *Run) []Point {
	out := append([]Point(nil), sc.Points...)
	for _, rp := range sc.Repeats {
		c := rp.Container
		for _, n := range r.RunsLogged(c) {
			out = append(out, startPt(c, n))
			if !r.LoggedBefore(c, int(n), rp.Exit, r.Settled()) {
				continue
			}
			if rp.PreStop {
				out = append(out, preStopPt(c, n))
			}
			if rp.Term {
				out = append(out, Point{c, timeline.MSigterm, n, c + " got TERM", After})
			}
			out = append(out, Point{c, timeline.MExit, n, rp.Exit, Before})
		}
	}
	return out
}

// RunScenario runs sc in a fresh namespace: starts the recorder (with the containers' logs, the
// scenario marks and the kubelet's log), applies the manifest, runs sc.Then, waits for the
// recorder to exit with sc.Status, and replays the recording twice: without its log items (what
// the API alone tells, Run.Timeline) and whole (Run.WithLogs). The Run is returned even on error
// (when not nil), for Save and Close.
func (e *Env) RunScenario(ctx context.Context, sc Scenario, logf func(string, ...any)) (*Run, error) {
	r, err := e.NewRun(ctx, sc.Name, sc.PodPrefix)
	if err != nil {
		return nil, err
	}
	logf("namespace %s", r.Namespace)
	args := append([]string{"--timeout", sc.Timeout.String()}, e.logArgs()...)
	if sc.Until != "" {
		args = append(args, "--until", sc.Until)
	}
	if err := r.StartRecord(ctx, sc.Target, args...); err != nil {
		return r, err
	}
	if err := r.Apply(ctx, sc.Manifest); err != nil {
		return r, err
	}
	if sc.Then != nil {
		if err := sc.Then(ctx, r, logf); err != nil {
			return r, err
		}
	}
	if err := r.Finish(ctx, sc.Status, sc.Timeout+30*time.Second); err != nil {
		return r, err
	}
	logf("recorded and replayed: %d pods, %d container runs logged, %d log items recorded", len(r.Timeline.Pods),
		len(r.Truth.Runs), r.LogItems)
	return r, nil
}

// ReadyThenDelete waits until the pod is Ready, then deletes it.
func ReadyThenDelete(pod string) Step {
	return func(ctx context.Context, r *Run, logf func(string, ...any)) error {
		if err := r.WaitReady(ctx, pod, 90*time.Second); err != nil {
			return err
		}
		logf("pod %s Ready; deleting it", pod)
		return r.Delete(ctx, pod)
	}
}

// LineThenDelete waits until the container's first run logged line, waits pause more, then
// deletes the pod.
func LineThenDelete(pod, container, line string, pause time.Duration) Step {
	return func(ctx context.Context, r *Run, logf func(string, ...any)) error {
		l, err := r.WaitLine(ctx, container, 0, line, 90*time.Second)
		if err != nil {
			return err
		}
		logf("%s logged %q at %s; deleting pod %s in %s", container, line, clock(l.At), pod, pause)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		return r.Delete(ctx, pod)
	}
}

// The points of the lines every scenario container prints.

// pt is the milestone kind#attempt of container, witnessed by the line of that run.
func pt(container string, kind timeline.MilestoneKind, attempt int32, line string, stamp Stamp) Point {
	return Point{Container: container, Kind: kind, Attempt: attempt, Line: line, Stamp: stamp}
}

// startPt: "<name> start", printed first thing in run attempt (a start, or a restart).
func startPt(name string, attempt int32) Point {
	kind := timeline.MStart
	if attempt > 0 {
		kind = timeline.MRestart
	}
	return pt(name, kind, attempt, name+" start", After)
}

// exitPt: line, printed as the last act before the run exits.
func exitPt(name string, attempt int32, line string) Point {
	return pt(name, timeline.MExit, attempt, line, Before)
}

// lifecycle: a run that prints "<name> start" when it starts, "<name> got TERM" from its SIGTERM
// trap, then "<name> exiting" just before it exits.
func lifecycle(name string, attempt int32) []Point {
	return []Point{
		startPt(name, attempt),
		pt(name, timeline.MSigterm, attempt, name+" got TERM", After),
		exitPt(name, attempt, name+" exiting"),
	}
}

// preStopPt: the hook's start, which it writes to the container's log ("<name> prestop start").
// The kubelet starts the hook right after its Killing Event, but the hook's command runs only
// once the runtime has set up the exec, measured up to ~320 ms later here: the line bounds the
// hook's start above only.
func preStopPt(name string, attempt int32) Point {
	return pt(name, timeline.MPreStop, attempt, name+" prestop start", NotAfter)
}

// points joins Points and slices of them.
func points(ps ...any) []Point {
	var out []Point
	for _, p := range ps {
		switch p := p.(type) {
		case Point:
			out = append(out, p)
		case []Point:
			out = append(out, p...)
		default:
			panic("points: not a Point or []Point")
		}
	}
	return out
}
