//go:build e2e

package harness

import (
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// The scenarios' containers print one line per step. Lines printed as a step happens witness
// the instant before them; the line printed as the last act before exiting witnesses the exit.
// These are the first scenarios of the suite; matrix_*.go hold the behaviour matrix.
var (
	// StartOrder: init container (sleep 2), then a native sidecar gated by a startup probe that
	// passes ~3 s after it starts, then the app; then the pod is deleted.
	StartOrder = Scenario{
		Test: "TestStartOrder", Name: "start-order",
		Title:    "start order: init → sidecar (startup probe) → app, then delete",
		Manifest: "start-order", Target: "pod/start-order", PodPrefix: "start-order",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("start-order"),
		Points: points(
			startPt("init", 0), exitPt("init", 0, "init done"),
			// The startup probe can pass only once the file it tests exists.
			pt("sidecar", timeline.MStarted, 0, "sidecar ready-file", NotBefore),
			lifecycle("sidecar", 0), lifecycle("app", 0),
		),
	}
	// JobNativeSidecar: a Job whose helper is a native sidecar completes: once main exits
	// (after 3 s), the kubelet stops the sidecar.
	JobNativeSidecar = Scenario{
		Test: "TestJobNativeSidecarCompletes", Name: "job-native",
		Title:    "Job with a native sidecar completes: main exits, then the sidecar is stopped",
		Manifest: "job-native-sidecar", Target: "job/job-native", PodPrefix: "job-native-",
		Until: "complete", Timeout: 90 * time.Second,
		Points: points(startPt("main", 0), exitPt("main", 0, "main done"), lifecycle("sidecar", 0)),
	}
	// JobClassicSidecar: the same Job with the helper in containers never completes; the
	// recorder's --timeout passes before --until complete (exit status 2).
	JobClassicSidecar = Scenario{
		Test: "TestJobClassicSidecarNeverCompletes", Name: "job-classic",
		Title:    "the same Job, helper in containers: never completes (recorded 40 s)",
		Manifest: "job-classic-sidecar", Target: "job/job-classic", PodPrefix: "job-classic-",
		Until: "complete", Timeout: 40 * time.Second, Status: 2,
		Points: points(startPt("main", 0), exitPt("main", 0, "main done"), startPt("sidecar", 0)),
	}
	// TerminationOrder: on delete the app drains 3 s; the sidecar is signalled only after it exits.
	TerminationOrder = Scenario{
		Test: "TestTerminationOrder", Name: "termination",
		Title:    "termination order on delete: app drains 3 s, then the sidecar stops",
		Manifest: "termination-order", Target: "pod/termination-order", PodPrefix: "termination-order",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("termination-order"),
		Points: points(lifecycle("sidecar", 0), lifecycle("app", 0)),
	}
	// Readiness: a native sidecar whose readiness probe fails for ~6 s holds the Pod not Ready
	// although the app is ready; recorded until the Pod is Ready.
	Readiness = Scenario{
		Test: "TestSidecarHoldsReadiness", Name: "readiness",
		Title:    "a sidecar's readiness probe holds Pod Ready ~6 s after the app is ready",
		Manifest: "readiness", Target: "pod/readiness", PodPrefix: "readiness",
		Until: "ready", Timeout: 90 * time.Second,
		Points: []Point{
			startPt("sidecar", 0), startPt("app", 0),
			// The probe can pass only once the file it tests exists; the app is ready once it runs.
			pt("sidecar", timeline.MReady, 0, "sidecar ready-file", NotBefore),
			pt("app", timeline.MReady, 0, "app start", NotBefore),
		},
	}
	// CrashingSidecar: a native sidecar that exits 1 every 3 s is restarted with a growing
	// back-off; the app keeps running. Recorded for 30 s.
	CrashingSidecar = Scenario{
		Test: "TestCrashingSidecar", Name: "crashloop",
		Title:    "a native sidecar exiting 1 every 3 s: restarts with back-off (recorded 30 s)",
		Manifest: "crashing-sidecar", Target: "pod/crashing-sidecar", PodPrefix: "crashing-sidecar",
		Timeout: 30 * time.Second,
		Points:  []Point{startPt("app", 0)},
		Repeats: []Repeat{{Container: "sidecar", Exit: "sidecar crashing"}},
	}
	// TwoSidecars: two sidecars stop in reverse order after the app, which drains 2 s.
	TwoSidecars = Scenario{
		Test: "TestTwoSidecars", Name: "two-sidecars",
		Title:    "two sidecars stop in reverse order after the app (drains 2 s)",
		Manifest: "two-sidecars", Target: "pod/two-sidecars", PodPrefix: "two-sidecars",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("two-sidecars"),
		Points: points(lifecycle("s1", 0), lifecycle("s2", 0), lifecycle("app", 0)),
	}
)

// All are the suite's scenarios, in the order of the table in e2e/README.md: the first ones, the
// behaviour matrix, then the findings' (findings.go).
func All() []Scenario {
	return append([]Scenario{
		StartOrder, JobNativeSidecar, JobClassicSidecar, TerminationOrder, Readiness, CrashingSidecar, TwoSidecars,
		MatrixMixed, MatrixStartupSerial, MatrixSidecarExitsNever, MatrixSidecarExitsAlways,
		MatrixInitFailsOnce, MatrixInitLoopBefore, MatrixInitLoopAfter,
		MatrixTwoSidecarsComplete, MatrixThreeSidecarsComplete, MatrixThreeSidecarsDeleted, MatrixJobSidecars,
		MatrixPreStopTogether, MatrixPreStopHangs, MatrixPreStopMostGrace,
		MatrixAppExceedsGrace, MatrixSidecarExceedsGrace,
		MatrixDeleteInInit, MatrixDeleteBeforeStarted,
		MatrixStartupProbeKills, MatrixLivenessProbeKills, MatrixSidecarRecovers,
	}, append(FindingScenarios(), BehaviourScenarios()...)...)
}
