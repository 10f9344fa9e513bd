package timeline_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// These tests hold the timelines of the real recordings to what really happened, as the
// container runtime's logs tell it (recordings/README.md).

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

func container(t *testing.T, p *timeline.Pod, name string) *timeline.Container {
	t.Helper()
	c := p.Container(name)
	if c == nil {
		t.Fatalf("no container %q", name)
	}
	return c
}

func milestone(t *testing.T, c *timeline.Container, kind timeline.MilestoneKind, attempt int32) timeline.Milestone {
	t.Helper()
	m := c.Find(kind, attempt)
	if m == nil {
		t.Fatalf("%s has no %s #%d", c.Name, kind, attempt)
	}
	return *m
}

func statuses(p *timeline.Pod) []string {
	var out []string
	for _, s := range p.Statuses {
		out = append(out, s.Status)
	}
	return out
}

func contains(t *testing.T, what string, m timeline.Milestone, truth time.Time) {
	t.Helper()
	if truth.Before(m.Earliest) || truth.After(m.Latest) {
		t.Errorf("%s: truth %s outside [%s, %s]", what, truth.Format("15:04:05.000000"), m.Earliest.Format("15:04:05.000000"), m.Latest.Format("15:04:05.000000"))
	}
}

func before(t *testing.T, a, b timeline.Milestone) {
	t.Helper()
	if !a.At.Before(b.At) && !a.At.Equal(b.At) {
		t.Errorf("%s %s (%s) should come before %s %s (%s)", a.Container, a.Kind, a.At.Format("05.000"), b.Container, b.Kind, b.At.Format("05.000"))
	}
}

func TestStartupProbe(t *testing.T) {
	s := build(t, "startup-probe")
	p := s.Pods.At(0)
	want := []string{"Pending", "Init:0/2", "Init:1/2", "PodInitializing", "Running", "Terminating", "Completed"}
	if diff := cmp.Diff(want, statuses(p)); diff != "" {
		t.Errorf("STATUS sequence (-want +got):\n%s", diff)
	}
	initExit := milestone(t, container(t, p, "init-sleep"), timeline.MExit, 0)
	side := container(t, p, "sidecar")
	sideStart, sideStarted := milestone(t, side, timeline.MStart, 0), milestone(t, side, timeline.MStarted, 0)
	appStart := milestone(t, container(t, p, "app"), timeline.MStart, 0)
	before(t, initExit, sideStart)
	before(t, sideStart, sideStarted)
	before(t, sideStarted, appStart)
	// finishedAt 54Z: the init container exited within that second.
	contains(t, "init-sleep exit", initExit, at("2026-12-02T08:32:54.5Z"))
	// The startup probe failed at 58 (Unhealthy count 4) and passed before the app's Pulled
	// Event (59.984, which arrived before the status saying started=true).
	if sideStarted.Earliest.Before(at("2026-12-02T08:32:58Z")) || sideStarted.Latest.After(at("2026-12-02T08:32:59.985Z")) {
		t.Errorf("sidecar started in [%s, %s], want within [58, 59.985]", sideStarted.Earliest, sideStarted.Latest)
	}
	var names []string
	for _, g := range p.Gaps {
		names = append(names, g.Name)
	}
	wantGaps := []string{"init-sleep exit → sidecar start", "sidecar start → sidecar started", "sidecar started → app start",
		"app SIGTERM → app exit", "app exit → sidecar SIGTERM", "sidecar SIGTERM → sidecar exit", "pod deletion → last exit (sidecar)"}
	if diff := cmp.Diff(wantGaps, names); diff != "" {
		t.Errorf("named gaps (-want +got):\n%s", diff)
	}
}

func TestTerminationOrder(t *testing.T) {
	s := build(t, "termination-order")
	p := s.Pods.At(0)
	app, side := container(t, p, "app"), container(t, p, "sidecar")
	appTerm, appExit := milestone(t, app, timeline.MSigterm, 0), milestone(t, app, timeline.MExit, 0)
	sideTerm, sideExit := milestone(t, side, timeline.MSigterm, 0), milestone(t, side, timeline.MExit, 0)
	contains(t, "app SIGTERM", appTerm, at("2026-12-02T08:35:11.558577930Z"))
	contains(t, "app exit", appExit, at("2026-12-02T08:35:14.567743817Z"))
	contains(t, "sidecar SIGTERM", sideTerm, at("2026-12-02T08:35:14.715271355Z"))
	before(t, appTerm, appExit)
	before(t, appExit, sideTerm)
	before(t, sideTerm, sideExit)
	if sideTerm.Source != timeline.SourceInferred {
		t.Errorf("sidecar SIGTERM source = %s, want inferred", sideTerm.Source)
	}
	if appTerm.Source != timeline.SourceEvent {
		t.Errorf("app SIGTERM source = %s, want event", appTerm.Source)
	}
	// The app drained 3 s: the gap must say so, within its bounds.
	for _, g := range p.Gaps {
		if g.Name == "app SIGTERM → app exit" && (g.Span.Min > 3009*time.Millisecond || g.Span.Max < 3009*time.Millisecond) {
			t.Errorf("app SIGTERM → exit %v not in [%v, %v]", 3009*time.Millisecond, g.Span.Min, g.Span.Max)
		}
	}
}

func TestJobNativeSidecar(t *testing.T) {
	s := build(t, "job-native-sidecar")
	if len(s.Jobs) != 1 || s.Jobs[0].Status != "Complete" {
		t.Fatalf("jobs = %+v, want one Complete", s.Jobs)
	}
	p := s.Pods.At(0)
	if p.Owner == nil || p.Owner.String() != "Job/sc-b1" || p.Phase != "Succeeded" {
		t.Errorf("pod owner %q phase %q", p.Owner, p.Phase)
	}
	side := container(t, p, "sidecar")
	exit := milestone(t, side, timeline.MExit, 0)
	if exit.ExitCode == nil || *exit.ExitCode != 137 || exit.Signal != "SIGKILL" {
		t.Errorf("sidecar exit = %v %q, want 137 SIGKILL", exit.ExitCode, exit.Signal)
	}
	term := milestone(t, side, timeline.MSigterm, 0)
	mainExit := milestone(t, container(t, p, "main"), timeline.MExit, 0)
	before(t, mainExit, term)
	if d := exit.At.Sub(term.At); d < 29*time.Second || d > 31*time.Second {
		t.Errorf("sidecar SIGTERM → SIGKILL = %v, want the 30 s grace period", d)
	}
	if !hasFinding(p.Findings(), "did not exit on SIGTERM") {
		t.Errorf("no finding about the ignored SIGTERM: %+v", p.Findings())
	}
	var complete *timeline.Milestone
	for i, m := range s.Jobs[0].Milestones {
		if m.Kind == timeline.MCondition && m.Reason == "Complete" {
			complete = &s.Jobs[0].Milestones[i]
		}
	}
	if complete == nil || complete.Offset.Value < 36*time.Second || complete.Offset.Value > 39*time.Second {
		t.Errorf("Job Complete = %+v, want about 37 s after creation", complete)
	}
}

func TestJobClassicSidecar(t *testing.T) {
	s := build(t, "job-classic-sidecar")
	if len(s.Jobs) != 1 || s.Jobs[0].Status == "Complete" {
		t.Fatalf("jobs = %+v, want one that is not Complete", s.Jobs)
	}
	p := s.Pods.At(0)
	if p.Status != "NotReady" || p.Phase != "Running" {
		t.Errorf("pod status %q phase %q, want NotReady Running", p.Status, p.Phase)
	}
	if !hasFinding(s.JobFindings(s.Jobs[0]), "still running") || !hasFinding(p.Findings(), "native sidecar") {
		t.Errorf("the tool does not say why the Job does not complete: %+v / %+v", s.JobFindings(s.Jobs[0]), p.Findings())
	}
}

func TestCrashingSidecar(t *testing.T) {
	s := build(t, "crashing-sidecar")
	p := s.Pods.At(0)
	side, app := container(t, p, "sidecar"), container(t, p, "app")
	if side.RestartCount != 4 || app.RestartCount != 0 {
		t.Errorf("restart counts sidecar %d app %d, want 4 and 0", side.RestartCount, app.RestartCount)
	}
	// Every restart is shown, not only the last, each after the run before it exited.
	var offsets []time.Duration
	for a := int32(1); a <= 4; a++ {
		r := milestone(t, side, timeline.MRestart, a)
		before(t, milestone(t, side, timeline.MExit, a-1), r)
		offsets = append(offsets, r.Offset.Value.Truncate(time.Second)) // startedAt is whole seconds
	}
	// First restart at once, then back-off: ~13 s, ~27 s, ~53 s after the crash before.
	want := []time.Duration{5 * time.Second, 21 * time.Second, 51 * time.Second, 107 * time.Second}
	if diff := cmp.Diff(want, offsets); diff != "" {
		t.Errorf("restart offsets (-want +got):\n%s", diff)
	}
	backoffs := 0
	for _, m := range side.Milestones() {
		if m.Kind == timeline.MBackOff {
			backoffs++
		}
	}
	if backoffs != 4 {
		t.Errorf("%d back-off milestones, want 4 (BackOff count 1→4)", backoffs)
	}
	if !hasFinding(p.Findings(), "restarted 4 times") {
		t.Errorf("no crash-loop finding: %+v", p.Findings())
	}
}

func hasFinding(fs []timeline.Finding, text string) bool {
	for _, f := range fs {
		if strings.Contains(f.Text, text) {
			return true
		}
	}
	return false
}

// TestInvariants holds on every real recording: each estimate lies in its bounds, each gap's
// value in its span, and a run's start, SIGTERM and exit read in the order they happen.
func TestInvariants(t *testing.T) {
	for _, name := range recordings.Names() {
		s := build(t, name)
		for _, p := range s.Pods.Items() {
			check := func(m timeline.Milestone) {
				if m.At.Before(m.Earliest) || m.At.After(m.Latest) {
					t.Errorf("%s: %s %s #%d at %s outside [%s, %s]", name, m.Container, m.Kind, m.Attempt, m.At, m.Earliest, m.Latest)
				}
				if m.Gap != nil && (m.Gap.Value < m.Gap.Min || m.Gap.Value > m.Gap.Max) {
					t.Errorf("%s: %s %s gap %+v", name, m.Container, m.Kind, *m.Gap)
				}
			}
			for _, r := range p.Rows() {
				check(*r.Milestone)
				if g := r.Gap; g != nil && (g.Value < g.Min || g.Value > g.Max) {
					t.Errorf("%s: %s %s gap %+v", name, r.Milestone.Container, r.Milestone.Kind, *g)
				}
			}
			for _, c := range p.Containers {
				runs := map[int32]map[timeline.MilestoneKind]timeline.Milestone{}
				for _, m := range c.Milestones() {
					check(m)
					if runs[m.Attempt] == nil {
						runs[m.Attempt] = map[timeline.MilestoneKind]timeline.Milestone{}
					}
					runs[m.Attempt][m.Kind] = m
				}
				for _, r := range runs {
					order := []timeline.MilestoneKind{timeline.MStart, timeline.MRestart, timeline.MSigterm, timeline.MExit}
					for i, a := range order {
						for _, b := range order[i+1:] {
							ma, okA := r[a]
							mb, okB := r[b]
							if okA && okB && mb.At.Before(ma.At) {
								t.Errorf("%s: %s #%d %s (%s) after %s (%s)", name, c.Name, ma.Attempt, a, ma.At, b, mb.At)
							}
						}
					}
				}
			}
			for _, g := range p.Gaps {
				if g.Span.Value < g.Span.Min || g.Span.Value > g.Span.Max {
					t.Errorf("%s: gap %s %+v", name, g.Name, g.Span)
				}
			}
		}
	}
}
