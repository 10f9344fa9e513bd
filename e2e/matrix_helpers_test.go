//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The helpers of the behaviour-matrix scenarios (matrix_*_test.go): the check of the kubelet's
// orderings on the tool's timeline, and checks that the scenario itself did what it claims. The
// scenarios themselves (manifest, target, points) are in the harness, shared with e2e/truth.

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
	if r.Deletion[0].IsZero() {
		t.Fatal("checkDeletion: the scenario deleted nothing")
	}
	if err := harness.CheckDeletion(p, r); err != nil {
		t.Error(err)
	} else {
		t.Logf("truth ok: kubectl delete in [%s, %s]; %s", clock(r.Deletion[0]), clock(r.Deletion[1]), describe(del))
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
// one before. A failure here is the scenario's (or the kubelet's), not the tool's. Lines of one
// run come from one stream, stamped in the order they were written; a line of another container
// may be stamped up to harness.Slack after it was written, so only a line stamped more than that
// before the one it should follow shows the order broken (on a loaded node the runtime stamps a
// line tens of milliseconds late, and a sidecar's "got TERM" then reads before the app's
// "exiting" that preceded it).
func truthOrder(t *testing.T, r *harness.Run, lines ...line) {
	t.Helper()
	var prev harness.Line
	for i, l := range lines {
		got, ok := r.Truth.Find(l.container, l.restart, l.text)
		if !ok {
			t.Errorf("SCENARIO BROKEN: %s was never logged; the runs logged are:\n%s", l, dumpTruth(r))
			return
		}
		slack := time.Duration(0)
		if i > 0 && (lines[i-1].container != l.container || lines[i-1].restart != l.restart) {
			slack = harness.Slack
		}
		if i > 0 && !prev.At.Add(-slack).Before(got.At) {
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

func dumpTruth(r *harness.Run) string {
	var sb strings.Builder
	_ = r.Truth.Dump(&sb)
	return sb.String()
}
