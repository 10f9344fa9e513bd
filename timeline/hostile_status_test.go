package timeline_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// restartCountStream is a sidecar and an app seen three times: starting, then the sidecar
// restarted once (its last run terminated), then both running. The sidecar's status says its
// restart count is count+1 when it has restarted, count before; the app's is always count.
func restartCountStream(count int32) []timeline.Observation {
	side := running("side", timeline.KindSidecar, 1, false, "s1")
	side.Status.RestartCount = count
	app := timeline.ContainerObservation{Name: "app", Kind: timeline.KindApp, Status: &timeline.ContainerStatus{
		RestartCount: count, Waiting: &timeline.Waiting{Reason: "PodInitializing"}}}

	again := running("side", timeline.KindSidecar, 4, true, "s2")
	again.Status.RestartCount = count + 1
	again.Status.LastTerminated = &timeline.Terminated{ContainerID: "s1", ExitCode: 1, Reason: "Error",
		StartedAt: sec(1), FinishedAt: sec(3)}
	appUp := running("app", timeline.KindApp, 5, true, "a1")
	appUp.Status.RestartCount = count
	return []timeline.Observation{
		{Type: timeline.Added, Received: sec(1.5), Pod: pod("u", side, app)},
		{Type: timeline.Modified, Received: sec(4.5), Pod: pod("u", again, app)},
		{Type: timeline.Modified, Received: sec(5.5), Pod: pod("u", again, appUp)},
	}
}

// rowsOf is each milestone of the pod as container, kind and attempt, in time order.
func rowsOf(p *timeline.Pod) []string {
	var out []string
	for _, r := range p.Rows() {
		out = append(out, fmt.Sprintf("%s %s #%d", r.Lane, r.Milestone.Kind, r.Milestone.Attempt))
	}
	return out
}

// TestNegativeRestartCount: a status whose restart count is below zero (a recording or a
// server can say anything) is read as zero and said so in a note: the same milestones as the
// same pod with true counts from zero, no restart the count implies, no second creation, and
// restart counts of zero or more.
func TestNegativeRestartCount(t *testing.T) {
	build := func(obs []timeline.Observation) timeline.Snapshot {
		b := timeline.NewBuilder()
		for _, o := range obs {
			b.Apply(o)
		}
		return b.Snapshot()
	}
	want := build(restartCountStream(0))
	for _, count := range []int32{-1, -3, -2147483648} {
		t.Run(fmt.Sprint(count), func(t *testing.T) {
			s := build(restartCountStream(count))
			p := s.Pods.At(0)
			if diff := cmp.Diff(rowsOf(p), rowsOf(want.Pods.At(0))); diff != "" {
				t.Errorf("milestones (-got +want, the same pod counting from zero):\n%s", diff)
			}
			for _, c := range p.Containers {
				if c.RestartCount < 0 {
					t.Errorf("%s: restart count %d", c.Name, c.RestartCount)
				}
			}
			created := 0
			for _, r := range rowsOf(p) {
				if strings.HasPrefix(r, "app created") {
					created++
				}
			}
			if created > 1 {
				t.Errorf("app created %d times: %q", created, rowsOf(p))
			}
			note := "a restart count below zero was read as zero"
			if !slices.ContainsFunc(s.Notes, func(n string) bool { return strings.Contains(n, note) }) {
				t.Errorf("notes %q, want one saying %q", s.Notes, note)
			}
		})
	}
	if len(want.Notes) != 0 {
		t.Errorf("counts from zero gave notes %q", want.Notes)
	}
}
