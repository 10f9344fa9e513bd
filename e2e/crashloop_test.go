//go:build e2e

package e2e

import (
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestCrashingSidecar: a native sidecar that exits 1 every 3 s is restarted by the kubelet with
// a growing back-off, on its own: the app keeps running. Recorded for 30 s (two restarts).
func TestCrashingSidecar(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	r := newRun(t, "crashloop", "crashing-sidecar")
	must(t, r.StartRecord(ctx, "pod/crashing-sidecar", "--timeout", "30s"))
	must(t, r.Apply(ctx, "crashing-sidecar"))
	finish(t, r, 0, 45*time.Second)
	p := onePod(t, r)
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
	var points []harness.Point
	for _, m := range append([]*timeline.Milestone{milestone(t, p, "sidecar", timeline.MStart, 0)}, restarts...) {
		points = append(points, harness.Point{Container: "sidecar", Kind: m.Kind, Attempt: m.Attempt, Line: "sidecar start", Stamp: harness.After})
		if m.Attempt > 0 {
			before(t, milestone(t, p, "sidecar", timeline.MExit, m.Attempt-1), m, false)
		}
		if exit := harness.FindMilestone(p, "sidecar", timeline.MExit, m.Attempt); exit != nil {
			points = append(points, harness.Point{Container: "sidecar", Kind: timeline.MExit, Attempt: m.Attempt, Line: "sidecar crashing", Stamp: harness.Before})
		}
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
		if ok && l.At.Before(r.Record.Ended.Add(-3*time.Second)) && !slices.ContainsFunc(points, func(pt harness.Point) bool {
			return pt.Attempt == int32(n)
		}) {
			t.Errorf("the runtime logged the sidecar's run %d starting at %s, but the timeline has no start for it", n, clock(l.At))
		}
	}
	points = append(points, harness.Point{Container: "app", Kind: timeline.MStart, Line: "app start", Stamp: harness.After})
	checkPoints(t, r, points)
}
