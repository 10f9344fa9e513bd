//go:build e2e

package e2e

import (
	"slices"
	"testing"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestMatrixSidecarExitsNeverPod and TestMatrixSidecarExitsAlwaysPod (matrix 3): a sidecar that
// exits 0 and one that exits 1, 3 s after each start, are both restarted by the kubelet whatever
// the pod's restartPolicy: a sidecar's own policy is Always. The app is never touched.
func TestMatrixSidecarExitsNeverPod(t *testing.T) {
	t.Parallel()
	testSidecarExits(t, harness.MatrixSidecarExitsNever)
}

func TestMatrixSidecarExitsAlwaysPod(t *testing.T) {
	t.Parallel()
	testSidecarExits(t, harness.MatrixSidecarExitsAlways)
}

func testSidecarExits(t *testing.T, sc harness.Scenario) {
	r, p := runScenario(t, sc)
	for code, c := range []string{"exit0", "exit1"} {
		runs := runsLogged(t, r, c, 2)
		for _, n := range runs {
			if !r.LoggedBefore(c, int(n), c+" exiting", r.Settled()) {
				continue
			}
			exit := want(t, p, c, timeline.MExit, n)
			checkExitCode(t, exit, int32(code), "")
			order(t, want(t, p, c, startKind(n), n), exit, strictly)
			if slices.Contains(runs, n+1) {
				checkRestart(t, p, c, n+1)
			}
		}
		// Nobody signals a sidecar that exits by itself.
		none(t, p, c, timeline.MSigterm)
	}
	// The points: every run's start and exit, and the app's start.
	checkTruth(t, r, sc)
	for _, k := range []timeline.MilestoneKind{timeline.MRestart, timeline.MSigterm, timeline.MExit} {
		none(t, p, "app", k)
	}
	none(t, p, "", timeline.MPhase)
}

// TestMatrixInitFailsOnce (matrix 4a): i1 (before the sidecar s1) and i2 (after it) each fail
// once and are retried in place (restartPolicy OnFailure); s1 starts only after i1 succeeded and
// keeps running while i2 fails; the app starts after i2 succeeded. Deleted once Ready.
func TestMatrixInitFailsOnce(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixInitFailsOnce
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"i1", 0, "i1 start"}, line{"i1", 0, "i1 failing"}, line{"i1", 1, "i1 start"},
		line{"i1", 1, "i1 done"}, line{"s1", 0, "s1 start"}, line{"i2", 0, "i2 start"}, line{"i2", 0, "i2 failing"},
		line{"i2", 1, "i2 start"}, line{"i2", 1, "i2 done"}, line{"app", 0, "app start"})
	truthOrder(t, r, line{"app", 0, "app exiting"}, line{"s1", 0, "s1 got TERM"}, line{"s1", 0, "s1 exiting"})
	if runs := r.Truth.Restarts("s1"); !slices.Equal(runs, []int{0}) {
		t.Errorf("SCENARIO BROKEN: s1 logged runs %v, want [0]: it is not restarted when an init container after it fails", runs)
	}

	for _, c := range []string{"i1", "i2"} {
		exit0, exit1 := want(t, p, c, timeline.MExit, 0), want(t, p, c, timeline.MExit, 1)
		checkExitCode(t, exit0, 1, "")
		checkExitCode(t, exit1, 0, "")
		order(t, want(t, p, c, timeline.MStart, 0), exit0, strictly)
		checkRestart(t, p, c, 1)
		order(t, want(t, p, c, timeline.MRestart, 1), exit1, strictly)
	}
	// The points, and Initialized after i2's last line.
	checkTruth(t, r, sc)
	none(t, p, "s1", timeline.MRestart)

	s1Start, s1Started := want(t, p, "s1", timeline.MStart, 0), want(t, p, "s1", timeline.MStarted, 0)
	order(t, want(t, p, "i1", timeline.MExit, 1), s1Start, strictly)
	chain(t, orSame, s1Start, s1Started, want(t, p, "i2", timeline.MStart, 0))
	i2Done, appStart := want(t, p, "i2", timeline.MExit, 1), want(t, p, "app", timeline.MStart, 0)
	order(t, i2Done, appStart, strictly)
	order(t, i2Done, want(t, p, "", timeline.MInitialized, 0), strictly)

	appSig, appExit := want(t, p, "app", timeline.MSigterm, 0), want(t, p, "app", timeline.MExit, 0)
	s1Sig, s1Exit := want(t, p, "s1", timeline.MSigterm, 0), want(t, p, "s1", timeline.MExit, 0)
	order(t, appSig, appExit, strictly)
	order(t, appExit, s1Sig, orSame)
	order(t, s1Sig, s1Exit, strictly)
	checkDeletion(t, r, p, appSig)
}

// TestMatrixInitLoopBeforeSidecar (matrix 4b): an init container before the sidecar fails every
// time; the kubelet retries it with a growing back-off; the sidecar and the app never start.
func TestMatrixInitLoopBeforeSidecar(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixInitLoopBefore
	r, p := runScenario(t, sc)
	checkInitLoop(t, r, p, sc)
	truthAbsent(t, r, "s1")
	for _, c := range []string{"s1", "app"} {
		none(t, p, c, timeline.MStart)
		none(t, p, c, timeline.MSigterm)
	}
}

// TestMatrixInitLoopAfterSidecar (matrix 4c): an init container after the sidecar fails every
// time; the sidecar started before it keeps running, never restarted; the app never starts.
func TestMatrixInitLoopAfterSidecar(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixInitLoopAfter
	r, p := runScenario(t, sc)
	checkInitLoop(t, r, p, sc)
	truthOrder(t, r, line{"s1", 0, "s1 start"}, line{"i1", 0, "i1 start"})
	if runs := r.Truth.Restarts("s1"); !slices.Equal(runs, []int{0}) {
		t.Errorf("SCENARIO BROKEN: s1 logged runs %v, want [0]", runs)
	}
	chain(t, orSame, want(t, p, "s1", timeline.MStart, 0), want(t, p, "s1", timeline.MStarted, 0), want(t, p, "i1", timeline.MStart, 0))
	for _, k := range []timeline.MilestoneKind{timeline.MRestart, timeline.MSigterm, timeline.MExit} {
		none(t, p, "s1", k)
	}
	none(t, p, "app", timeline.MStart)
}

// checkInitLoop checks the init container i1 that exits 1 after 1 s, run after run: every run
// the runtime logged is on the timeline with its exit code, each exit before the next run, a
// back-off between them; the app never starts and the pod is never Initialized. It checks the
// scenario's points too.
func checkInitLoop(t *testing.T, r *harness.Run, p *timeline.Pod, sc harness.Scenario) {
	t.Helper()
	truthAbsent(t, r, "app")
	runs := runsLogged(t, r, "i1", 3)
	for _, n := range runs {
		if r.LoggedBefore("i1", int(n), "i1 failing", r.Settled()) {
			checkExitCode(t, want(t, p, "i1", timeline.MExit, n), 1, "")
		}
		if n > 0 {
			checkRestart(t, p, "i1", n)
		}
	}
	checkTruth(t, r, sc)
	backOff := len(harness.MilestonesOf(p, "i1", timeline.MBackOff)) > 0
	for _, m := range harness.MilestonesOf(p, "i1", timeline.MWaiting) {
		backOff = backOff || m.Reason == "CrashLoopBackOff"
	}
	if !backOff {
		t.Errorf("no back-off milestone (BackOff Event or waiting CrashLoopBackOff) for i1: %s", kinds(p, "i1"))
	}
	// The kubelet need not publish the waiting CrashLoopBackOff state between two runs (the
	// BackOff Event is what it always reports), but the pod never leaves initialization.
	for _, s := range statusSequence(p) {
		if s == "PodInitializing" || s == "Running" || s == "Completed" {
			t.Errorf("STATUS went %q; the pod never finished initializing", statusSequence(p))
			break
		}
	}
	none(t, p, "", timeline.MInitialized)
	none(t, p, "app", timeline.MStart)
}

// runsLogged are the container's runs whose start line the runtime logged well before the
// recorder stopped (so the tool has had the time to see them), at least least of them.
func runsLogged(t *testing.T, r *harness.Run, container string, least int) []int32 {
	t.Helper()
	out := r.RunsLogged(container)
	if len(out) < least {
		t.Errorf("SCENARIO BROKEN: %s logged %d runs before %s, want at least %d:\n%s", container, len(out),
			clock(r.Settled()), least, dumpTruth(r))
	}
	return out
}

// checkRestart checks the seam between run n-1 and run n of a container: the exit of n-1 reads
// strictly before the restart, and the restart's Created Event is filed under run n, between
// the two.
func checkRestart(t *testing.T, p *timeline.Pod, container string, n int32) {
	t.Helper()
	exit, restart := want(t, p, container, timeline.MExit, n-1), want(t, p, container, timeline.MRestart, n)
	order(t, exit, restart, strictly)
	created := want(t, p, container, timeline.MCreated, n)
	order(t, exit, created, strictly)
	order(t, created, restart, orSame)
}

func startKind(n int32) timeline.MilestoneKind {
	if n == 0 {
		return timeline.MStart
	}
	return timeline.MRestart
}
