//go:build e2e

package harness

import (
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// The behaviour-matrix scenarios of starts and restarts (issue 7): the kubelet's sidecar
// behaviour from KEP-753 and the "Sidecar Containers" docs. Their tests are in
// matrix_start_test.go, matrix_restart_test.go and matrix_probe_test.go.
var (
	// MatrixMixed (matrix 1): i1, s1, i2, s2, app start one after the other; deleted once Ready.
	MatrixMixed = Scenario{
		Test: "TestMatrixMixedInitAndSidecars", Name: "mx-mixed",
		Title:    "init containers and sidecars mixed (i1, s1, i2, s2, app), then delete",
		Manifest: "matrix-mixed", Target: "pod/mixed", PodPrefix: "mixed",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("mixed"),
		Points: points(
			startPt("i1", 0), exitPt("i1", 0, "i1 done"), lifecycle("s1", 0),
			startPt("i2", 0), exitPt("i2", 0, "i2 done"), lifecycle("s2", 0), lifecycle("app", 0),
		),
		// Initialized follows i2's exit, which follows its last line.
		Witnesses: []Witness{{Kind: timeline.MInitialized, Log: "i2", Line: "i2 done", Stamp: NotBefore}},
	}
	// MatrixStartupSerial (matrix 2): s2 starts only once s1's startup probe has passed, the app
	// only once s2's has; each probe tests a file its sidecar creates 2 s after it starts.
	MatrixStartupSerial = Scenario{
		Test: "TestMatrixStartupProbesSerial", Name: "mx-startup-serial",
		Title:    "two sidecars with startup probes start serially, then delete",
		Manifest: "matrix-startup-serial", Target: "pod/startup-serial", PodPrefix: "startup-serial",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("startup-serial"),
		Points: points(
			lifecycle("s1", 0), lifecycle("s2", 0), lifecycle("app", 0),
			// A startup probe can pass only once the file it tests exists.
			pt("s1", timeline.MStarted, 0, "s1 ready-file", NotBefore),
			pt("s2", timeline.MStarted, 0, "s2 ready-file", NotBefore),
		),
	}
	// MatrixSidecarExitsNever and MatrixSidecarExitsAlways (matrix 3): sidecars that exit 0 and
	// 1, 3 s after each start, are restarted whatever the pod's restartPolicy. Recorded 25 s.
	MatrixSidecarExitsNever  = sidecarExits("never", "TestMatrixSidecarExitsNeverPod")
	MatrixSidecarExitsAlways = sidecarExits("always", "TestMatrixSidecarExitsAlwaysPod")
	// MatrixInitFailsOnce (matrix 4a): i1 (before s1) and i2 (after it) each fail once and are
	// retried in place (restartPolicy OnFailure); deleted once Ready.
	MatrixInitFailsOnce = Scenario{
		Test: "TestMatrixInitFailsOnce", Name: "mx-init-once",
		Title:    "init containers before and after a sidecar fail once, retried in place; then delete",
		Manifest: "matrix-init-fails-once", Target: "pod/init-fails-once", PodPrefix: "init-fails-once",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("init-fails-once"),
		Points: points(
			startPt("i1", 0), exitPt("i1", 0, "i1 failing"), startPt("i1", 1), exitPt("i1", 1, "i1 done"),
			startPt("i2", 0), exitPt("i2", 0, "i2 failing"), startPt("i2", 1), exitPt("i2", 1, "i2 done"),
			lifecycle("s1", 0), lifecycle("app", 0),
		),
		Witnesses: []Witness{{Kind: timeline.MInitialized, Log: "i2", Restart: 1, Line: "i2 done", Stamp: NotBefore}},
	}
	// MatrixInitLoopBefore (matrix 4b): an init container before the sidecar fails every time;
	// the sidecar and the app never start. Recorded 28 s.
	MatrixInitLoopBefore = Scenario{
		Test: "TestMatrixInitLoopBeforeSidecar", Name: "mx-loop-before",
		Title:    "an init container before the sidecar fails every time (recorded 28 s)",
		Manifest: "matrix-init-loop-before", Target: "pod/init-loop-before", PodPrefix: "init-loop-before",
		Timeout: 28 * time.Second,
		Repeats: []Repeat{{Container: "i1", Exit: "i1 failing"}},
	}
	// MatrixInitLoopAfter (matrix 4c): an init container after the sidecar fails every time; the
	// sidecar runs on; the app never starts. Recorded 28 s.
	MatrixInitLoopAfter = Scenario{
		Test: "TestMatrixInitLoopAfterSidecar", Name: "mx-loop-after",
		Title:    "an init container after the sidecar fails every time (recorded 28 s)",
		Manifest: "matrix-init-loop-after", Target: "pod/init-loop-after", PodPrefix: "init-loop-after",
		Timeout: 28 * time.Second,
		Points:  []Point{startPt("s1", 0)},
		Repeats: []Repeat{{Container: "i1", Exit: "i1 failing"}},
	}
	// MatrixStartupProbeKills (matrix 10): the app's startup probe never passes: the kubelet
	// kills it run after run (Killing, a 1 s preStop hook, SIGTERM). Recorded 32 s.
	MatrixStartupProbeKills = Scenario{
		Test: "TestMatrixStartupProbeKillsApp", Name: "mx-startup-kills",
		Title:    "a failing startup probe kills the app run after run, with a preStop hook (recorded 32 s)",
		Manifest: "matrix-startup-probe-kills", Target: "pod/startup-probe-kills", PodPrefix: "startup-probe-kills",
		Timeout: 32 * time.Second,
		Points:  []Point{startPt("s1", 0)},
		Repeats: []Repeat{{Container: "app", Exit: "app exiting", PreStop: true, Term: true}},
	}
	// MatrixLivenessProbeKills (matrix 10): the sidecar's liveness probe fails 3 s after each
	// start: the kubelet kills it run after run (Killing, a 1 s preStop hook, SIGTERM).
	MatrixLivenessProbeKills = Scenario{
		Test: "TestMatrixLivenessProbeKillsSidecar", Name: "mx-liveness-kills",
		Title:    "a failing liveness probe kills the sidecar run after run, with a preStop hook (recorded 32 s)",
		Manifest: "matrix-liveness-probe-kills", Target: "pod/liveness-probe-kills", PodPrefix: "liveness-probe-kills",
		Timeout: 32 * time.Second,
		Points:  []Point{startPt("app", 0)},
		Repeats: []Repeat{{Container: "s1", Exit: "s1 exiting", PreStop: true, Term: true}},
	}
	// MatrixSidecarRecovers (matrix 11): a sidecar whose first run never passes its startup probe
	// is killed and restarted; its second run passes, and only then the app starts.
	MatrixSidecarRecovers = Scenario{
		Test: "TestMatrixSidecarRecovers", Name: "mx-recovers",
		Title:    "a sidecar killed by its startup probe recovers on its next run; then delete",
		Manifest: "matrix-sidecar-recovers", Target: "pod/sidecar-recovers", PodPrefix: "sidecar-recovers",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("sidecar-recovers"),
		Points: points(
			lifecycle("s1", 0), lifecycle("s1", 1),
			pt("s1", timeline.MStarted, 1, "s1 ready-file", NotBefore),
			lifecycle("app", 0),
		),
	}
)

// sidecarExits is matrix 3 in a pod of that restartPolicy (never or always).
func sidecarExits(policy, test string) Scenario {
	pod := "sidecar-exits-" + policy
	return Scenario{
		Test: test, Name: "mx-exits-" + policy,
		Title:    "sidecars exiting 0 and 1 are restarted (restartPolicy " + policy + " pod, recorded 25 s)",
		Manifest: "matrix-" + pod, Target: "pod/" + pod, PodPrefix: pod,
		Timeout: 25 * time.Second,
		Points:  []Point{startPt("app", 0)},
		Repeats: []Repeat{{Container: "exit0", Exit: "exit0 exiting"}, {Container: "exit1", Exit: "exit1 exiting"}},
	}
}
