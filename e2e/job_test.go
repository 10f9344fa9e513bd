//go:build e2e

package e2e

import (
	"regexp"
	"slices"
	"testing"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestJobNativeSidecarCompletes: a Job whose helper is a native sidecar completes: once main
// exits, the kubelet stops the sidecar.
func TestJobNativeSidecarCompletes(t *testing.T) {
	t.Parallel()
	r, p := runScenario(t, harness.JobNativeSidecar)

	j := oneJob(t, r)
	if j.Status != "Complete" {
		t.Errorf("job status %q, want Complete", j.Status)
	}
	if !slices.ContainsFunc(j.Milestones, func(m timeline.Milestone) bool {
		return m.Kind == timeline.MCondition && m.Reason == "Complete"
	}) {
		t.Errorf("no condition milestone with reason Complete in the job's lane: %+v", j.Milestones)
	}
	mainExit := milestone(t, p, "main", timeline.MExit, 0)
	sideSig := milestone(t, p, "sidecar", timeline.MSigterm, 0)
	sideExit := milestone(t, p, "sidecar", timeline.MExit, 0)
	before(t, mainExit, sideSig, true)
	before(t, sideSig, sideExit, false)
	checkTruth(t, r, harness.JobNativeSidecar)
}

// TestJobClassicSidecarNeverCompletes: the same Job with the helper in containers never
// completes: the helper is a regular container and nobody stops it. The recorder's --timeout
// passes before --until complete (exit status 2), and a finding says why.
func TestJobClassicSidecarNeverCompletes(t *testing.T) {
	t.Parallel()
	r, p := runScenario(t, harness.JobClassicSidecar)

	j := oneJob(t, r)
	if j.Status == "Complete" {
		t.Errorf("job status %q: the Job completed, but its helper never stops", j.Status)
	}
	why := regexp.MustCompile("`sidecar`.*(regular container|native sidecar)")
	if f := finding(append(slices.Clone(p.Findings()), j.Findings...), "sidecar", why); f == nil {
		t.Errorf("no finding says the still-running regular container `sidecar` keeps the Job open; findings:\npod: %s\njob: %s",
			findingTexts(p.Findings()), findingTexts(j.Findings))
	} else {
		t.Logf("finding: %s", f.Text)
	}
	if m := harness.FindMilestone(p, "sidecar", timeline.MExit, 0); m != nil {
		t.Errorf("the helper never exits, but the tool shows its exit: %s", describe(m))
	}
	checkTruth(t, r, harness.JobClassicSidecar)
}

func oneJob(t *testing.T, r *harness.Run) *timeline.JobDocument {
	t.Helper()
	if n := len(r.Timeline.Jobs); n != 1 {
		t.Fatalf("the timeline has %d jobs, want 1", n)
	}
	return &r.Timeline.Jobs[0]
}
