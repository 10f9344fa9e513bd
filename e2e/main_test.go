//go:build e2e

// Package e2e proves sidecar-top on a real one-node Kubernetes cluster (e2e/cluster): each test
// runs one scenario in its own namespace, with `sidecar-top record` watching from before the
// manifest is applied, and holds the replayed timeline against the ground truth of the container
// runtime's log files. Run it with e2e/run.sh (make e2e), which brings the cluster up and always
// tears it down. Without a cluster these tests fail; they never skip.
package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// env is the cluster every test runs on; TestMain fails the package without one.
var env *harness.Env

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sidecar-top-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	env, err = harness.Setup(ctx, dir)
	cancel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: FAIL: no cluster to run on: %v\n", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// keep closes r when the test ends, saving its evidence in harness.FailureDir if it failed.
func keep(t *testing.T, r *harness.Run) {
	t.Cleanup(func() {
		if t.Failed() {
			dir, err := r.Save(filepath.Join(harness.FailureDir, t.Name()))
			if err != nil {
				t.Logf("saving the evidence: %v", err)
			}
			t.Logf("evidence (recording, replay JSON, container logs) saved in %s", dir)
			if r.Record != nil {
				t.Logf("sidecar-top record printed:\n%s%s", r.Record.Stdout(), r.Record.Stderr())
			}
		}
		if err := r.Close(); err != nil {
			t.Logf("cleanup: %v", err)
		}
	})
}

// runScenario runs a scenario shared with the figures program (harness.Scenario): records it
// from before it is applied, replays the recording, and checks the timeline's invariants. It
// returns the run and the timeline's only pod.
func runScenario(t *testing.T, sc harness.Scenario) (*harness.Run, *timeline.Pod) {
	t.Helper()
	r, err := env.RunScenario(t.Context(), sc, t.Logf)
	if r != nil {
		keep(t, r)
	}
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r.Timeline)
	return r, onePod(t, r)
}

// checkInvariants checks what every timeline promises: each milestone's estimate lies in its
// interval, each gap's value in its [min, max]. It also shows the timeline's notes.
func checkInvariants(t *testing.T, tl *harness.Timeline) {
	t.Helper()
	check := func(where string, ms []*timeline.Milestone) {
		for _, m := range ms {
			if m.Latest.Before(m.Earliest) || m.At.Before(m.Earliest) || m.At.After(m.Latest) {
				t.Errorf("%s: milestone %s breaks earliest ≤ at ≤ latest: %s", where, name(m), describe(m))
			}
		}
	}
	for i := range tl.Pods {
		p := tl.Pods[i]
		check("pod "+p.Name, harness.Milestones(p, ""))
		for _, c := range p.Containers {
			check("pod "+p.Name, harness.Milestones(p, c.Name))
		}
		for _, g := range p.Gaps {
			if s := g.Span; s.Min > s.Value || s.Value > s.Max {
				t.Errorf("pod %s: gap %q breaks min ≤ value ≤ max: %v [%v, %v]", p.Name, g.Name, s.Value, s.Min, s.Max)
			}
		}
	}
	for _, j := range tl.Jobs {
		var jm []*timeline.Milestone
		for i := range j.Milestones {
			jm = append(jm, &j.Milestones[i])
		}
		check("job "+j.Name, jm)
	}
	for _, n := range tl.Notes {
		t.Logf("timeline note: %s", n)
	}
}

// onePod is the timeline's only pod.
func onePod(t *testing.T, r *harness.Run) *timeline.Pod {
	t.Helper()
	if n := len(r.Timeline.Pods); n != 1 {
		t.Fatalf("the timeline has %d pods, want 1", n)
	}
	return r.Timeline.Pods[0]
}

// milestone is a milestone that must exist (container "" for the pod row).
func milestone(t *testing.T, p *timeline.Pod, container string, kind timeline.MilestoneKind, attempt int32) *timeline.Milestone {
	t.Helper()
	m := harness.FindMilestone(p, container, kind, attempt)
	if m == nil {
		lane := container
		if lane == "" {
			lane = "pod"
		}
		t.Fatalf("no %s milestone #%d for %s; it has: %s", kind, attempt, lane, kinds(p, container))
	}
	return m
}

func kinds(p *timeline.Pod, container string) string {
	var s []string
	for _, m := range harness.Milestones(p, container) {
		s = append(s, fmt.Sprintf("%s#%d", m.Kind, m.Attempt))
	}
	return strings.Join(s, " ")
}

// checkTruth checks that every instant the scenario's lines witness lies in its milestone's
// bounds: its points (for every run the logs have) and its witnesses.
func checkTruth(t *testing.T, r *harness.Run, sc harness.Scenario) {
	t.Helper()
	p := onePod(t, r)
	for _, c := range harness.CheckPoints(p, r.Truth, sc.PointsOf(r)) {
		if c.Err != nil {
			t.Error(c.Err)
		} else {
			t.Logf("truth ok: %s", c)
		}
	}
	for _, w := range sc.Witnesses {
		if err := harness.CheckWitness(p, r.Truth, w); err != nil {
			t.Error(err)
		} else {
			t.Logf("truth ok: %s", w)
		}
	}
}

// before checks a < b (strictly) or a ≤ b, by the tool's best estimates, and shows both.
func before(t *testing.T, a, b *timeline.Milestone, orEqual bool) {
	t.Helper()
	ok := a.At.Before(b.At) || (orEqual && a.At.Equal(b.At))
	if !ok {
		op := "<"
		if orEqual {
			op = "≤"
		}
		t.Errorf("want %s %s %s, but %s", name(a), op, name(b), describe(a, b))
	}
}

func name(m *timeline.Milestone) string {
	if m.Container == "" {
		return "pod " + string(m.Kind)
	}
	return fmt.Sprintf("%s %s#%d", m.Container, m.Kind, m.Attempt)
}

func describe(ms ...*timeline.Milestone) string {
	var s []string
	for _, m := range ms {
		s = append(s, fmt.Sprintf("%s at %s [%s, %s] (%s)", name(m), clock(m.At), clock(m.Earliest), clock(m.Latest), m.Source))
	}
	return strings.Join(s, "; ")
}

func clock(t time.Time) string { return t.UTC().Format("15:04:05.000000000") }

// statusSequence is the pod's kubectl STATUS over time, each change once.
func statusSequence(p *timeline.Pod) []string {
	var seq []string
	for _, s := range p.Statuses {
		if len(seq) == 0 || seq[len(seq)-1] != s.Status {
			seq = append(seq, s.Status)
		}
	}
	return seq
}

// inOrder reports whether want appears in seq in that order (not necessarily adjacent).
func inOrder(seq, want []string) bool {
	i := 0
	for _, s := range seq {
		if i < len(want) && s == want[i] {
			i++
		}
	}
	return i == len(want)
}

// finding is the first finding about container whose text matches re, or nil.
func finding(fs []timeline.Finding, container string, re *regexp.Regexp) *timeline.Finding {
	i := slices.IndexFunc(fs, func(f timeline.Finding) bool { return f.Container == container && re.MatchString(f.Text) })
	if i < 0 {
		return nil
	}
	return &fs[i]
}

func findingTexts(fs []timeline.Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, fmt.Sprintf("[%s %s] %s", f.Severity, f.Container, f.Text))
	}
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, "\n")
}
