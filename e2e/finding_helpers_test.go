//go:build e2e

package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The helpers of the findings' scenarios (finding_*_test.go): a finding is looked up by its ID
// and container, as `replay -o json` prints them, never by its words.

// findingOf is the pod's finding with that ID about container, or nil.
func findingOf(p *timeline.Pod, id timeline.FindingID, container string) *timeline.Finding {
	fs := p.Findings()
	i := slices.IndexFunc(fs, func(f timeline.Finding) bool { return f.ID == id && f.Container == container })
	if i < 0 {
		return nil
	}
	return &fs[i]
}

// wantFinding checks that the pod has the finding with that ID about container, and that the
// replay's JSON carries its ID; it logs the finding's words.
func wantFinding(t *testing.T, r *harness.Run, p *timeline.Pod, id timeline.FindingID, container string) {
	t.Helper()
	f := findingOf(p, id, container)
	if f == nil {
		t.Errorf("no %s finding about %s; the findings are:\n%s", id, container, findingList(p))
		return
	}
	if !strings.Contains(string(r.JSON), `"id":"`+string(id)+`"`) {
		t.Errorf("the replay's JSON has no \"id\":%q", id)
	}
	t.Logf("finding %s about %s: %s", id, container, f.Text)
}

// noFinding checks that the pod has no finding with that ID about any of the containers: each
// is a near miss, which looks like the finding's cause but is not.
func noFinding(t *testing.T, p *timeline.Pod, id timeline.FindingID, containers ...string) {
	t.Helper()
	for _, c := range containers {
		if f := findingOf(p, id, c); f != nil {
			t.Errorf("a %s finding about %s, which is a near miss, not the cause: %s", id, c, f.Text)
		}
	}
}

// findingList is the pod's findings, one a line with their IDs.
func findingList(p *timeline.Pod) string {
	var s []string
	for _, f := range p.Findings() {
		s = append(s, string(f.ID)+" ["+string(f.Severity)+" "+f.Container+"] "+f.Text)
	}
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, "\n")
}

// podPhase checks the pod's phase at the end of the recording.
func podPhase(t *testing.T, p *timeline.Pod, want string) {
	t.Helper()
	if p.Phase != want {
		t.Errorf("SCENARIO BROKEN: the pod's phase is %q, want %q (STATUS %s)", p.Phase, want, strings.Join(statusSequence(p), " → "))
	}
}
