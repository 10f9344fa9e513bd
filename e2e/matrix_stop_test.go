//go:build e2e

package e2e

import (
	"fmt"
	"testing"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestMatrixTwoSidecarsAppExits and TestMatrixThreeSidecarsAppExits (matrix 5): in a
// restartPolicy Never pod that nobody deletes, the app exits 0 after 3 s; the kubelet reports
// Killing for every sidecar at once, but signals the last one first and each other only once the
// one declared after it has exited (each drains 1 s). The pod Succeeds once they are all gone.
func TestMatrixTwoSidecarsAppExits(t *testing.T) {
	t.Parallel()
	testSidecarsAfterApp(t, harness.MatrixTwoSidecarsComplete, 2)
}

func TestMatrixThreeSidecarsAppExits(t *testing.T) {
	t.Parallel()
	testSidecarsAfterApp(t, harness.MatrixThreeSidecarsComplete, 3)
}

func testSidecarsAfterApp(t *testing.T, sc harness.Scenario, n int) {
	r, p := runScenario(t, sc)
	sidecars := sidecarNames(n)
	checkReverseStop(t, r, p, "app", sidecars)
	checkTruth(t, r, sc)
	checkExitCode(t, want(t, p, "app", timeline.MExit, 0), 0, "")
	// Nobody signals an app that exits by itself, and nobody deleted the pod.
	none(t, p, "app", timeline.MSigterm)
	none(t, p, "", timeline.MDeleting)
	if phase := want(t, p, "", timeline.MPhase, 0); phase != nil {
		if phase.Reason != "Succeeded" {
			t.Errorf("pod phase %q, want Succeeded", phase.Reason)
		}
		order(t, want(t, p, sidecars[0], timeline.MExit, 0), phase, orSame)
	}
}

// TestMatrixThreeSidecarsDeleted (matrix 5): on deletion the app drains 1 s, then s3, s2 and s1
// are signalled in turn, each once the one declared after it has exited (each drains 1 s).
func TestMatrixThreeSidecarsDeleted(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixThreeSidecarsDeleted
	r, p := runScenario(t, sc)
	truthOrder(t, r, line{"app", 0, "app got TERM"}, line{"app", 0, "app exiting"})
	checkReverseStop(t, r, p, "app", sidecarNames(3))
	checkTruth(t, r, sc)
	appSig := want(t, p, "app", timeline.MSigterm, 0)
	order(t, appSig, want(t, p, "app", timeline.MExit, 0), strictly)
	checkDeletion(t, r, p, appSig)
}

// TestMatrixJobSidecars (matrix 6): a Job whose pod has three native sidecars completes: main
// exits 0 after 3 s, then s3, s2 and s1 stop in turn, the pod Succeeds and the Job is Complete.
func TestMatrixJobSidecars(t *testing.T) {
	t.Parallel()
	sc := harness.MatrixJobSidecars
	r, p := runScenario(t, sc)
	sidecars := sidecarNames(3)
	checkReverseStop(t, r, p, "main", sidecars)
	checkTruth(t, r, sc)
	none(t, p, "main", timeline.MSigterm)
	j := oneJob(t, r)
	if j.Status != "Complete" {
		t.Errorf("job status %q, want Complete", j.Status)
	}
	if c := harness.JobCondition(j.Job, "Complete"); c == nil {
		t.Errorf("no condition milestone with reason Complete in the job's lane")
	} else {
		order(t, want(t, p, sidecars[0], timeline.MExit, 0), c, orSame)
	}
}

// checkReverseStop checks the sidecars' stop after the app: in the logs (the scenario), and as
// orderings on the timeline: app exit ≤ last sidecar's SIGTERM < its exit ≤ the SIGTERM of the
// one before it < ... < the first sidecar's exit. (The scenario's points, checked by
// checkTruth, witness every sidecar's start, SIGTERM and exit.)
func checkReverseStop(t *testing.T, r *harness.Run, p *timeline.Pod, app string, sidecars []string) {
	t.Helper()
	lines := []line{{app, 0, app + " exiting"}}
	for i := len(sidecars) - 1; i >= 0; i-- {
		s := sidecars[i]
		lines = append(lines, line{s, 0, s + " got TERM"}, line{s, 0, s + " exiting"})
	}
	truthOrder(t, r, lines...)
	prevExit := want(t, p, app, timeline.MExit, 0)
	for i := len(sidecars) - 1; i >= 0; i-- {
		s := sidecars[i]
		sig, exit := want(t, p, s, timeline.MSigterm, 0), want(t, p, s, timeline.MExit, 0)
		order(t, prevExit, sig, orSame)
		order(t, sig, exit, strictly)
		if exit != nil {
			prevExit = exit
		}
	}
}

func sidecarNames(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("s%d", i))
	}
	return out
}
