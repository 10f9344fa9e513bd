//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The helpers of the behaviour-matrix scenarios (matrix_*_test.go): one way to run a scenario,
// points built from the lines every scenario container prints, the check of the kubelet's
// orderings on the tool's timeline, and checks that the scenario itself did what it claims.

// scenario is one matrix scenario: a manifest recorded from before it is applied, with an
// optional action once it runs (e.g. wait until Ready, then delete the pod).
type scenario struct {
	name      string        // short: the namespace is e2e-<name>-XXXXXX
	manifest  string        // e2e/manifests/<manifest>.yaml
	target    string        // what the recorder watches: pod/NAME or job/NAME
	podPrefix string        // the pods whose logs are the truth
	until     string        // the recorder's --until: deleted, complete, or "" (stop at --timeout)
	timeout   time.Duration // the recorder's --timeout
	// then runs once the manifest is applied, while the recorder records; nil does nothing.
	then func(t *testing.T, r *harness.Run)
}

// run runs sc: records, applies, runs sc.then, waits for the recorder to stop (status 0: its
// --until held, or there is none and --timeout passed), replays, and checks the invariants.
func (sc scenario) run(t *testing.T) (*harness.Run, *timeline.Pod) {
	t.Helper()
	ctx := t.Context()
	r := newRun(t, sc.name, sc.podPrefix)
	args := []string{"--timeout", sc.timeout.String()}
	if sc.until != "" {
		args = append(args, "--until", sc.until)
	}
	must(t, r.StartRecord(ctx, sc.target, args...))
	must(t, r.Apply(ctx, sc.manifest))
	if sc.then != nil {
		sc.then(t, r)
	}
	finish(t, r, 0, sc.timeout+30*time.Second)
	return r, onePod(t, r)
}

// readyThenDelete waits until the pod is Ready, then deletes it.
func readyThenDelete(pod string) func(*testing.T, *harness.Run) {
	return func(t *testing.T, r *harness.Run) {
		t.Helper()
		must(t, r.WaitReady(t.Context(), pod, 90*time.Second))
		t.Logf("pod %s Ready; deleting it", pod)
		must(t, r.Delete(t.Context(), pod))
	}
}

// lineThenDelete waits until the container's first run logged line, waits pause more, then
// deletes the pod.
func lineThenDelete(pod, container, line string, pause time.Duration) func(*testing.T, *harness.Run) {
	return func(t *testing.T, r *harness.Run) {
		t.Helper()
		l, err := r.WaitLine(t.Context(), container, 0, line, 90*time.Second)
		must(t, err)
		t.Logf("%s logged %q at %s; deleting pod %s in %s", container, line, clock(l.At), pod, pause)
		sleep(t.Context(), pause)
		must(t, r.Delete(t.Context(), pod))
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// pt is a point: the milestone kind#attempt of container, witnessed by the line of that run.
func pt(container string, kind timeline.MilestoneKind, attempt int32, line string, stamp harness.Stamp) harness.Point {
	return harness.Point{Container: container, Kind: kind, Attempt: attempt, Line: line, Stamp: stamp}
}

// startPt: "<name> start", printed first thing in run attempt (a start, or a restart).
func startPt(name string, attempt int32) harness.Point {
	kind := timeline.MStart
	if attempt > 0 {
		kind = timeline.MRestart
	}
	return pt(name, kind, attempt, name+" start", harness.After)
}

// stopPts: "<name> got TERM" from the SIGTERM trap, and "<name> exiting" just before the exit.
func stopPts(name string, attempt int32) []harness.Point {
	return []harness.Point{
		pt(name, timeline.MSigterm, attempt, name+" got TERM", harness.After),
		pt(name, timeline.MExit, attempt, name+" exiting", harness.Before),
	}
}

// lifecycle: a run that starts, is signalled and exits on its trap.
func lifecycle(name string, attempt int32) []harness.Point {
	return append([]harness.Point{startPt(name, attempt)}, stopPts(name, attempt)...)
}

// preStop: the hook's start, which it writes to the container's log ("<name> prestop start").
// The kubelet starts the hook right after its Killing Event, but the hook's command runs only
// once the runtime has set up the exec, measured up to ~180 ms later here: the line bounds the
// hook's start above only.
func preStop(name string, attempt int32) harness.Point {
	return pt(name, harness.KindPreStop, attempt, name+" prestop start", harness.NotAfter)
}

func points(ps ...any) []harness.Point {
	var out []harness.Point
	for _, p := range ps {
		switch p := p.(type) {
		case harness.Point:
			out = append(out, p)
		case []harness.Point:
			out = append(out, p...)
		default:
			panic(fmt.Sprintf("points: %T", p))
		}
	}
	return out
}

// want is a milestone the kubelet's behaviour implies; unlike milestone, a missing one is an
// error, not the end of the test, so that one report shows everything that is wrong. It
// returns nil then, and the order checks skip it.
func want(t *testing.T, p *timeline.Pod, container string, kind timeline.MilestoneKind, attempt int32) *timeline.Milestone {
	t.Helper()
	m := harness.FindMilestone(p, container, kind, attempt)
	if m == nil {
		lane := container
		if lane == "" {
			lane = "pod"
		}
		t.Errorf("no %s milestone #%d for %s, but the kubelet's behaviour implies one; the lane has: %s", kind, attempt, lane, kinds(p, container))
	}
	return m
}

// none checks that the lane has no milestone of that kind, e.g. no start for a container the
// kubelet never started.
func none(t *testing.T, p *timeline.Pod, container string, kind timeline.MilestoneKind) {
	t.Helper()
	for _, m := range harness.MilestonesOf(p, container, kind) {
		t.Errorf("the kubelet never did this, but the tool shows %s", describe(m))
	}
}

// rel says how b must follow a.
type rel int

const (
	// strictly: b happens after a (a start after the exit before it, an exit after its SIGTERM).
	strictly rel = iota
	// orSame: b follows a within milliseconds (the kubelet reacts to a), so the best estimates
	// may coincide, but b must not read before a.
	orSame
)

// order checks that the timeline reads b after a, as the kubelet guarantees. Where the bounds
// separate (a.Latest < b.Earliest) they decide; bounds that put b wholly before a are wrong;
// where they overlap, the best estimates must read in that order. Nil milestones (already
// reported missing) are skipped.
func order(t *testing.T, a, b *timeline.Milestone, how rel) {
	t.Helper()
	if a == nil || b == nil {
		return
	}
	switch {
	case b.Latest.Before(a.Earliest):
		t.Errorf("ORDER: the kubelet does %s before %s, but the tool's bounds put it after: %s", name(a), name(b), describe(a, b))
	case a.Latest.Before(b.Earliest):
		// The bounds separate: the order is certain. (The invariants check at ≤ latest.)
	case how == strictly && !a.At.Before(b.At), how == orSame && b.At.Before(a.At):
		op := "<"
		if how == orSame {
			op = "≤"
		}
		t.Errorf("ORDER: the bounds overlap, and the estimates must read %s %s %s, but they do not: %s", name(a), op, name(b), describe(a, b))
	}
}

// chain checks each consecutive pair with order.
func chain(t *testing.T, how rel, ms ...*timeline.Milestone) {
	t.Helper()
	for i := 1; i < len(ms); i++ {
		order(t, ms[i-1], ms[i], how)
	}
}

// checkDeletion checks that the tool's deletion request meets the kubectl delete call's
// interval, and that every milestone the deletion caused (a Killing, a preStop, a SIGTERM) reads
// after it.
func checkDeletion(t *testing.T, r *harness.Run, p *timeline.Pod, caused ...*timeline.Milestone) {
	t.Helper()
	del := want(t, p, "", timeline.MDeleting, 0)
	if del == nil {
		return
	}
	lo, hi := r.Deletion[0], r.Deletion[1]
	if lo.IsZero() {
		t.Fatal("checkDeletion: the scenario deleted nothing")
	}
	if hi.Before(del.Earliest) || lo.After(del.Latest) {
		t.Errorf("TRUTH OUTSIDE THE TOOL'S BOUNDS: kubectl delete ran in [%s, %s], the tool's deletion request is %s",
			clock(lo), clock(hi), describe(del))
	} else {
		t.Logf("truth ok: kubectl delete in [%s, %s]; %s", clock(lo), clock(hi), describe(del))
	}
	for _, m := range caused {
		order(t, del, m, orSame)
	}
}

// checkExitCode checks the exit code (and its signal) the tool shows for a run.
func checkExitCode(t *testing.T, m *timeline.Milestone, code int32, signal string) {
	t.Helper()
	if m == nil {
		return
	}
	if m.ExitCode == nil || *m.ExitCode != code || m.Signal != signal {
		got := "none"
		if m.ExitCode != nil {
			got = fmt.Sprint(*m.ExitCode)
		}
		t.Errorf("%s: exit code %s signal %q, want %d %q", name(m), got, m.Signal, code, signal)
	}
}

// line names one log line of a container's run, for the checks of the scenario itself.
type line struct {
	container string
	restart   int
	text      string
}

func (l line) String() string { return fmt.Sprintf("%s run %d %q", l.container, l.restart, l.text) }

// truthOrder checks that the scenario did what it claims: every line was logged, each after the
// one before. A failure here is the scenario's (or the kubelet's), not the tool's.
func truthOrder(t *testing.T, r *harness.Run, lines ...line) {
	t.Helper()
	var prev harness.Line
	for i, l := range lines {
		got, ok := r.Truth.Find(l.container, l.restart, l.text)
		if !ok {
			t.Errorf("SCENARIO BROKEN: %s was never logged; the runs logged are:\n%s", l, dumpTruth(r))
			return
		}
		if i > 0 && !prev.At.Before(got.At) {
			t.Errorf("SCENARIO BROKEN: %s (%s) was logged before %s (%s)", l, clock(got.At), lines[i-1], clock(prev.At))
		}
		prev = got
	}
}

// truthAbsent checks that the container never ran: it logged nothing.
func truthAbsent(t *testing.T, r *harness.Run, container string) {
	t.Helper()
	if runs := r.Truth.Restarts(container); len(runs) > 0 {
		t.Errorf("SCENARIO BROKEN: %s was not to run, but logged runs %v", container, runs)
	}
}

// logged reports whether the run logged the line before limit (zero: any time).
func logged(r *harness.Run, container string, restart int, text string, limit time.Time) bool {
	l, ok := r.Truth.Find(container, restart, text)
	return ok && (limit.IsZero() || l.At.Before(limit))
}

// settled is the time before which every line must be on the tool's timeline: the recorder ran
// on a few seconds after it, long enough for the status and Events that report it.
func settled(r *harness.Run) time.Time { return r.Record.Ended.Add(-4 * time.Second) }

func dumpTruth(r *harness.Run) string {
	var sb strings.Builder
	_ = r.Truth.Dump(&sb)
	return sb.String()
}

// checkWitnesses checks milestones against lines of other lanes or runs.
func checkWitnesses(t *testing.T, r *harness.Run, p *timeline.Pod, ws ...harness.Witness) {
	t.Helper()
	for _, w := range ws {
		if err := harness.CheckWitness(p, r.Truth, w); err != nil {
			t.Error(err)
		} else {
			t.Logf("truth ok: %s", w)
		}
	}
}
