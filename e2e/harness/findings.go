//go:build e2e

package harness

import (
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// The scenarios of the findings that read the spec and the timeline together (issue 9): each
// pod causes one finding in one container, and holds a near miss in another container (or, for
// a finding about the whole pod, in another scenario) that must not cause it. Their tests are in
// finding_start_test.go, finding_stop_test.go and finding_crash_test.go.
var (
	// FindingRaced: guarded (a startupProbe, its file after 2 s) gates proxy; proxy has no
	// startupProbe, so the app starts at once, ~3 s before proxy's readinessProbe passes.
	FindingRaced = Scenario{
		Test: "TestFindingSidecarRaced", Name: "fd-raced",
		Title:    "a sidecar with no startupProbe is raced by the app; one with a startupProbe is not",
		Manifest: "finding-raced", Target: "pod/finding-raced", PodPrefix: "finding-raced",
		Until: "ready", Timeout: 90 * time.Second,
		Points: points(
			startPt("guarded", 0), startPt("proxy", 0), startPt("app", 0),
			// A probe can pass only once the file it tests exists.
			pt("guarded", timeline.MStarted, 0, "guarded started-file", NotBefore),
			pt("proxy", timeline.MReady, 0, "proxy ready-file", NotBefore),
		),
	}
	// FindingProbeTimeout: three sidecars gated by startup probes: failing (fails, no timeout),
	// explicit (times out at its timeoutSeconds of 2) and slow (times out at the default 1 s).
	FindingProbeTimeout = Scenario{
		Test: "TestFindingStartupProbeTimedOut", Name: "fd-probe-timeout",
		Title:    "a startupProbe times out at the default 1 s; one at 2 s and one that fails do not count",
		Manifest: "finding-probe-timeout", Target: "pod/finding-probe-timeout", PodPrefix: "finding-probe-timeout",
		Until: "ready", Timeout: 90 * time.Second,
		Points: points(
			startPt("failing", 0), startPt("explicit", 0), startPt("slow", 0), startPt("app", 0),
			pt("failing", timeline.MStarted, 0, "failing up-file", NotBefore),
			pt("explicit", timeline.MStarted, 0, "explicit up-file", NotBefore),
			pt("slow", timeline.MStarted, 0, "slow up-file", NotBefore),
		),
	}
	// FindingReadiness: s1's readinessProbe passes after 3 s (the Pod's Ready waits for it) and
	// fails again 4 s later (the Pod is not Ready, the app is). Recorded 20 s.
	FindingReadiness = Scenario{
		Test: "TestFindingReadinessHeldBySidecar", Name: "fd-readiness",
		Title:    "a sidecar's readiness holds Pod Ready, then makes it not Ready (recorded 20 s)",
		Manifest: "finding-readiness", Target: "pod/finding-readiness", PodPrefix: "finding-readiness",
		Timeout: 20 * time.Second,
		Points: points(
			startPt("s1", 0), startPt("app", 0),
			pt("s1", timeline.MReady, 0, "s1 ready-file", NotBefore),
			pt("s1", timeline.MNotReady, 0, "s1 unready-file", NotBefore),
			// The app has no probe: it is ready once it runs.
			pt("app", timeline.MReady, 0, "app start", NotBefore),
		),
	}
	// FindingTeardown: on deletion the app exits 0, s2 exits 143 on its SIGTERM, s1 ignores its
	// SIGTERM and is killed at the 4 s grace deadline (137).
	FindingTeardown = Scenario{
		Test: "TestFindingSidecarTeardownExit", Name: "fd-teardown",
		Title:    "on delete a sidecar exits 143 on SIGTERM (expected), another is killed (137)",
		Manifest: "finding-teardown", Target: "pod/finding-teardown", PodPrefix: "finding-teardown",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("finding-teardown"),
		Points: points(lifecycle("app", 0), lifecycle("s2", 0), ignoresTerm("s1")),
	}
	// FindingGraceSpent: on deletion the app drains 5.5 s of the 6 s grace period; s1, signalled
	// after it, ignores SIGTERM and is killed (137). The app's readinessProbe passes after 1.5 s.
	FindingGraceSpent = Scenario{
		Test: "TestFindingGraceSpentByApps", Name: "fd-grace-spent",
		Title:    "the app drains 5.5 s of the 6 s grace period: the sidecar after it is killed",
		Manifest: "finding-grace-spent", Target: "pod/finding-grace-spent", PodPrefix: "finding-grace-spent",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("finding-grace-spent"),
		Points: points(lifecycle("app", 0), ignoresTerm("s1"),
			pt("app", timeline.MReady, 0, "app ready-file", NotBefore)),
	}
	// FindingPreStop: on deletion the app's preStop hook takes 5.5 s of the 8 s grace period,
	// web's 1 s; then the sidecar s1 stops.
	FindingPreStop = Scenario{
		Test: "TestFindingPreStopUsedGrace", Name: "fd-prestop",
		Title:    "the app's preStop hook takes 5.5 s of the 8 s grace period; web's takes 1 s",
		Manifest: "finding-prestop", Target: "pod/finding-prestop", PodPrefix: "finding-prestop",
		Until: "deleted", Timeout: 120 * time.Second, Then: ReadyThenDelete("finding-prestop"),
		Points: points(lifecycle("s1", 0), lifecycle("app", 0), lifecycle("web", 0),
			preStopPt("app", 0), preStopPt("web", 0)),
	}
	// FindingRestartPolicy: restartPolicy OnFailure on the regular container retry, in a Never
	// pod: its first run exits 1 and it runs again. Recorded 15 s.
	FindingRestartPolicy = Scenario{
		Test: "TestFindingRestartPolicyOnApp", Name: "fd-restart-policy",
		Title:    "restartPolicy OnFailure on a regular container: it fails once and runs again (recorded 15 s)",
		Manifest: "finding-restart-policy", Target: "pod/finding-restart-policy", PodPrefix: "finding-restart-policy",
		Timeout: 15 * time.Second,
		Points:  points(startPt("s1", 0), startPt("plain", 0)),
		Repeats: []Repeat{{Container: "retry", Exit: "retry failing"}},
	}
	// FindingAppCrashed: in a Never pod worker exits 1 while the regular container helper runs
	// on: the pod stays Running. Recorded 15 s.
	FindingAppCrashed = Scenario{
		Test: "TestFindingAppCrashedPodRunning", Name: "fd-app-crashed",
		Title:    "an app exits 1 while a regular helper runs on: the pod stays Running (recorded 15 s)",
		Manifest: "finding-app-crashed", Target: "pod/finding-app-crashed", PodPrefix: "finding-app-crashed",
		Timeout: 15 * time.Second,
		Points: points(startPt("s1", 0), startPt("helper", 0), startPt("worker", 0),
			exitPt("worker", 0, "worker failing")),
	}
	// FindingAppCrashedNative: the same crash with the helper a native sidecar: it is stopped
	// and the pod fails.
	FindingAppCrashedNative = Scenario{
		Test: "TestFindingAppCrashedNativeHelper", Name: "fd-app-crashed-native",
		Title:    "the same crash with a native sidecar as helper: it is stopped, the pod fails",
		Manifest: "finding-app-crashed-native", Target: "pod/finding-app-crashed-native",
		PodPrefix: "finding-app-crashed-native", Until: "complete", Timeout: 90 * time.Second,
		Points: points(lifecycle("helper", 0), startPt("worker", 0), exitPt("worker", 0, "worker failing")),
	}
)

// FindingScenarios are the findings' scenarios, in the order of the table in e2e/README.md.
func FindingScenarios() []Scenario {
	return []Scenario{
		FindingRaced, FindingProbeTimeout, FindingReadiness,
		FindingTeardown, FindingGraceSpent, FindingPreStop,
		FindingRestartPolicy, FindingAppCrashed, FindingAppCrashedNative,
	}
}

// ignoresTerm: a run that prints "<name> start", then "<name> got TERM" from its SIGTERM trap and
// goes on, printing "<name> still running" 1 s later; killed, it prints nothing at its exit, so
// that line bounds the exit below only.
func ignoresTerm(name string) []Point {
	return []Point{
		startPt(name, 0),
		pt(name, timeline.MSigterm, 0, name+" got TERM", After),
		pt(name, timeline.MExit, 0, name+" still running", NotBefore),
	}
}
