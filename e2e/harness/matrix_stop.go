//go:build e2e

package harness

import (
	"fmt"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// The behaviour-matrix scenarios of stops (issue 7): sidecars stopped in turn, preStop hooks,
// grace periods, deletions. Their tests are in matrix_stop_test.go, matrix_prestop_test.go and
// matrix_delete_test.go.
var (
	// MatrixTwoSidecarsComplete and MatrixThreeSidecarsComplete (matrix 5): in a restartPolicy
	// Never pod that nobody deletes, the app exits 0 after 3 s; the sidecars are signalled in
	// reverse order, each once the one after it has exited (each drains 1 s).
	MatrixTwoSidecarsComplete   = sidecarsAfterApp("two-sidecars-complete", "TestMatrixTwoSidecarsAppExits", 2)
	MatrixThreeSidecarsComplete = sidecarsAfterApp("three-sidecars-complete", "TestMatrixThreeSidecarsAppExits", 3)
	// MatrixThreeSidecarsDeleted (matrix 5): on deletion the app drains 1 s, then s3, s2 and s1
	// are signalled in turn (each drains 1 s).
	MatrixThreeSidecarsDeleted = Scenario{
		Test: "TestMatrixThreeSidecarsDeleted", Name: "mx-three-deleted",
		Title:    "on delete the app, then s3, s2, s1 stop in turn (each drains 1 s)",
		Manifest: "matrix-three-sidecars-deleted", Target: "pod/three-sidecars-deleted", PodPrefix: "three-sidecars-deleted",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("three-sidecars-deleted"),
		Points: points(lifecycle("s1", 0), lifecycle("s2", 0), lifecycle("s3", 0), lifecycle("app", 0)),
	}
	// MatrixJobSidecars (matrix 6): a Job whose pod has three sidecars completes: main exits 0
	// after 3 s, then s3, s2 and s1 stop in turn.
	MatrixJobSidecars = Scenario{
		Test: "TestMatrixJobSidecars", Name: "mx-job",
		Title:    "a Job with three sidecars completes: main exits, then s3, s2, s1 stop in turn",
		Manifest: "matrix-job-sidecars", Target: "job/job-sidecars", PodPrefix: "job-sidecars-",
		Until: "complete", Timeout: 90 * time.Second,
		Points: points(lifecycle("s1", 0), lifecycle("s2", 0), lifecycle("s3", 0),
			startPt("main", 0), exitPt("main", 0, "main exiting")),
	}
	// MatrixPreStopTogether (matrix 7): on deletion the preStop hooks of s1 (1 s) and of the app
	// (2 s) start together; s1 is signalled only after the app has exited.
	MatrixPreStopTogether = Scenario{
		Test: "TestMatrixPreStopTogether", Name: "mx-prestop-together",
		Title:    "on delete the app's (2 s) and the sidecar's (1 s) preStop hooks run together",
		Manifest: "matrix-prestop-together", Target: "pod/prestop-together", PodPrefix: "prestop-together",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("prestop-together"),
		Points: points(lifecycle("s1", 0), lifecycle("app", 0), preStopPt("s1", 0), preStopPt("app", 0)),
	}
	// MatrixPreStopHangs (matrix 7): the app's preStop hook never returns: SIGTERM at the 4 s
	// grace deadline.
	MatrixPreStopHangs = Scenario{
		Test: "TestMatrixPreStopNeverReturns", Name: "mx-prestop-hangs",
		Title:    "the app's preStop hook never returns: SIGTERM at the 4 s grace deadline",
		Manifest: "matrix-prestop-hangs", Target: "pod/prestop-hangs", PodPrefix: "prestop-hangs",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("prestop-hangs"),
		Points: points(lifecycle("app", 0), preStopPt("app", 0), lifecycle("s1", 0)),
	}
	// MatrixPreStopMostGrace (matrix 7): the sidecar's preStop hook takes 4 s of the 5 s grace
	// period; its SIGTERM follows the hook, long after the app's exit.
	MatrixPreStopMostGrace = Scenario{
		Test: "TestMatrixPreStopMostOfGrace", Name: "mx-prestop-most",
		Title:    "the sidecar's preStop hook takes 4 s of the 5 s grace period",
		Manifest: "matrix-prestop-most-grace", Target: "pod/prestop-most-grace", PodPrefix: "prestop-most-grace",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("prestop-most-grace"),
		Points: points(lifecycle("app", 0), lifecycle("s1", 0), preStopPt("s1", 0)),
	}
	// MatrixAppExceedsGrace (matrix 8): the app ignores SIGTERM and is killed at the 4 s grace
	// deadline (137). Killed, it prints nothing at its exit: its last line bounds it below.
	MatrixAppExceedsGrace = Scenario{
		Test: "TestMatrixAppExceedsGrace", Name: "mx-app-grace",
		Title:    "the app ignores SIGTERM: SIGKILL (137) at the 4 s grace deadline",
		Manifest: "matrix-app-exceeds-grace", Target: "pod/app-exceeds-grace", PodPrefix: "app-exceeds-grace",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("app-exceeds-grace"),
		Points: points(startPt("app", 0), pt("app", timeline.MSigterm, 0, "app got TERM", After),
			pt("app", timeline.MExit, 0, "app still running", NotBefore), lifecycle("s1", 0)),
	}
	// MatrixSidecarExceedsGrace (matrix 8): the sidecar, signalled after the app's exit, ignores
	// SIGTERM and is killed 4 s later (137).
	MatrixSidecarExceedsGrace = Scenario{
		Test: "TestMatrixSidecarExceedsGrace", Name: "mx-sidecar-grace",
		Title:    "the sidecar ignores SIGTERM: SIGKILL (137) after the app's exit",
		Manifest: "matrix-sidecar-exceeds-grace", Target: "pod/sidecar-exceeds-grace", PodPrefix: "sidecar-exceeds-grace",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("sidecar-exceeds-grace"),
		Points: points(lifecycle("app", 0), startPt("s1", 0), pt("s1", timeline.MSigterm, 0, "s1 got TERM", After),
			pt("s1", timeline.MExit, 0, "s1 still running", NotBefore)),
	}
	// MatrixDeleteInInit (matrix 9): deleted 2 s into its first init container, which is
	// signalled; the sidecar and the app never start.
	MatrixDeleteInInit = Scenario{
		Test: "TestMatrixDeleteDuringInit", Name: "mx-delete-init",
		Title:    "deleted while the init container runs: it is signalled; nothing else starts",
		Manifest: "matrix-delete-in-init", Target: "pod/delete-in-init", PodPrefix: "delete-in-init",
		Until: "deleted", Timeout: 120 * time.Second,
		Then:   LineThenDelete("delete-in-init", "i1", "i1 start", 2*time.Second),
		Points: lifecycle("i1", 0),
	}
	// MatrixDeleteBeforeStarted (matrix 9): deleted 2 s after s2 started running, its startup
	// probe never passing: s2 stops first (drains 1 s), then s1; the app never starts.
	MatrixDeleteBeforeStarted = Scenario{
		Test: "TestMatrixDeleteBeforeSidecarStarted", Name: "mx-delete-unstarted",
		Title:    "deleted before s2's startup probe passed: s2 stops, then s1; the app never starts",
		Manifest: "matrix-delete-before-started", Target: "pod/delete-before-started", PodPrefix: "delete-before-started",
		Until: "deleted", Timeout: 120 * time.Second,
		Then:   LineThenDelete("delete-before-started", "s2", "s2 start", 2*time.Second),
		Points: points(lifecycle("s1", 0), lifecycle("s2", 0)),
	}
)

// sidecarsAfterApp is matrix 5 without deletion: pod (its manifest matrix-<pod>) with n sidecars
// s1..sn that stop in reverse order once the app has exited by itself.
func sidecarsAfterApp(pod, test string, n int) Scenario {
	var ps []Point
	for i := 1; i <= n; i++ {
		ps = append(ps, lifecycle(fmt.Sprintf("s%d", i), 0)...)
	}
	ps = append(ps, startPt("app", 0), exitPt("app", 0, "app exiting"))
	return Scenario{
		Test: test, Name: "mx-" + pod,
		Title:    fmt.Sprintf("Never pod, no deletion: the app exits 0, then %d sidecars stop in reverse order", n),
		Manifest: "matrix-" + pod, Target: "pod/" + pod, PodPrefix: pod,
		Until: "complete", Timeout: 90 * time.Second,
		Points: ps,
	}
}
