//go:build e2e

package e2e

import (
	"regexp"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestCrashingSidecar: a native sidecar that exits 1 every 3 s is restarted by the kubelet with
// a growing back-off, on its own: the app keeps running. Recorded for 30 s (two restarts).
func TestCrashingSidecar(t *testing.T) {
	t.Parallel()
	r, p := runScenario(t, harness.CrashingSidecar)
	side, app := harness.FindContainer(p, "sidecar"), harness.FindContainer(p, "app")
	if side == nil || app == nil {
		t.Fatalf("want lanes sidecar and app, got %s", kinds(p, ""))
	}

	var restarts []*timeline.Milestone
	backOff := false
	for _, m := range harness.Milestones(p, "sidecar") {
		switch {
		case m.Kind == timeline.MRestart:
			restarts = append(restarts, m)
		case m.Kind == timeline.MBackOff, m.Kind == timeline.MWaiting && m.Reason == "CrashLoopBackOff":
			backOff = true
		}
	}
	if len(restarts) < 2 {
		t.Errorf("%d restart milestones for the sidecar, want at least 2: %s", len(restarts), kinds(p, "sidecar"))
	}
	if !backOff {
		t.Errorf("no back-off milestone (BackOff Event or waiting CrashLoopBackOff) for the sidecar: %s", kinds(p, "sidecar"))
	}
	for _, m := range restarts {
		before(t, milestone(t, p, "sidecar", timeline.MExit, m.Attempt-1), m, false)
	}
	if app.RestartCount != 0 || side.RestartCount < 2 {
		t.Errorf("restart counts: app %d (want 0), sidecar %d (want ≥ 2)", app.RestartCount, side.RestartCount)
	}
	loop := regexp.MustCompile(`restarted \d+ times`)
	if f := finding(p.Findings(), "sidecar", loop); f == nil {
		t.Errorf("no crash-loop finding for the sidecar; findings:\n%s", findingTexts(p.Findings()))
	} else {
		t.Logf("finding: %s", f.Text)
	}
	// Every run the runtime logged well before the recorder stopped must be on the timeline.
	for _, n := range r.Truth.Restarts("sidecar") {
		l, ok := r.Truth.Find("sidecar", n, "sidecar start")
		if ok && l.At.Before(r.Record.Ended.Add(-3*time.Second)) && harness.FindMilestone(p, "sidecar", startKind(int32(n)), int32(n)) == nil {
			t.Errorf("the runtime logged the sidecar's run %d starting at %s, but the timeline has no start for it", n, clock(l.At))
		}
	}
	// The points: every run's start and exit that the runtime logged before the recorder settled.
	checkTruth(t, r, harness.CrashingSidecar)
}
