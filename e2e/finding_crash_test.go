//go:build e2e

package e2e

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestFindingRestartPolicyOnApp: restartPolicy OnFailure on the regular container retry (the
// ContainerRestartRules feature, on in v1.37) restarts it in a Never pod: restart-policy-on-app
// about retry, none about plain or the sidecar. Its crash was answered by a restart, so it is no
// app crashed while the pod runs on.
func TestFindingRestartPolicyOnApp(t *testing.T) {
	t.Parallel()
	sc := harness.FindingRestartPolicy
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"retry", 0, "retry start"}, line{"retry", 0, "retry failing"}, line{"retry", 1, "retry start"})
	if runs := r.Truth.Restarts("retry"); len(runs) != 2 {
		t.Errorf("SCENARIO BROKEN: retry ran %v times, want 2 (it fails once, then runs on)", runs)
	}
	podPhase(t, p, "Running")

	checkTruth(t, r, sc)
	exit0 := want(t, p, "retry", timeline.MExit, 0)
	checkExitCode(t, exit0, 1, "")
	order(t, exit0, want(t, p, "retry", timeline.MRestart, 1), strictly)
	none(t, p, "plain", timeline.MExit)

	wantFinding(t, r, p, timeline.FindingRestartPolicyOnApp, "retry")
	noFinding(t, p, timeline.FindingRestartPolicyOnApp, "plain", "s1")
	noFinding(t, p, timeline.FindingAppCrashedPodRunning, "retry", "plain")
}

// TestFindingAppCrashedPodRunning: in a Never pod worker exits 1, but helper, a regular
// container, runs on and the pod stays Running: app-crashed-pod-running about worker. Neither has
// a restartPolicy of its own.
func TestFindingAppCrashedPodRunning(t *testing.T) {
	t.Parallel()
	sc := harness.FindingAppCrashed
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"helper", 0, "helper start"}, line{"worker", 0, "worker failing"})
	podPhase(t, p, "Running")

	checkTruth(t, r, sc)
	checkExitCode(t, want(t, p, "worker", timeline.MExit, 0), 1, "")
	none(t, p, "helper", timeline.MExit)
	none(t, p, "worker", timeline.MRestart)

	wantFinding(t, r, p, timeline.FindingAppCrashedPodRunning, "worker")
	noFinding(t, p, timeline.FindingAppCrashedPodRunning, "helper", "s1")
	noFinding(t, p, timeline.FindingRestartPolicyOnApp, "worker", "helper")
}

// TestFindingAppCrashedNativeHelper: the same crash with the helper a native sidecar, as the
// finding advises: the kubelet stops the helper and the pod fails, so there is nothing to say.
func TestFindingAppCrashedNativeHelper(t *testing.T) {
	t.Parallel()
	sc := harness.FindingAppCrashedNative
	r, p := runScenario(t, sc)

	truthOrder(t, r, line{"worker", 0, "worker failing"}, line{"helper", 0, "helper got TERM"}, line{"helper", 0, "helper exiting"})
	podPhase(t, p, "Failed")

	checkTruth(t, r, sc)
	workerExit := want(t, p, "worker", timeline.MExit, 0)
	checkExitCode(t, workerExit, 1, "")
	helperSig, helperExit := want(t, p, "helper", timeline.MSigterm, 0), want(t, p, "helper", timeline.MExit, 0)
	order(t, workerExit, helperSig, orSame)
	order(t, helperSig, helperExit, strictly)

	noFinding(t, p, timeline.FindingAppCrashedPodRunning, "worker", "helper")
}
