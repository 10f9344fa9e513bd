//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestOTLPExportToJaeger: the start-order scenario is recorded with --export otlp=JAEGER (and a
// Markdown report), then `sidecar-top export FILE --format otlp` sends the recording's timeline
// again. Jaeger all-in-one, a real OTLP backend, must hold the pod's trace, read back through its
// query API: the pod's UID as the trace ID, a root span for the pod with the k8s resource, a span
// per container run under it and a span per lane state under each run, every milestone an event
// of its run at its time with its bounds; and each span once, however often it was sent.
func TestOTLPExportToJaeger(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	j, err := env.StartJaeger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("Jaeger's log ends:\n%s", j.LogTail(40))
		}
		j.Stop()
	})
	t.Logf("Jaeger: OTLP %s, query %s", j.OTLP, j.Query)

	sc := harness.StartOrder
	r, err := env.NewRun(ctx, "otlp", sc.PodPrefix)
	if err != nil {
		t.Fatal(err)
	}
	keep(t, r)
	t.Logf("namespace %s", r.Namespace)
	report := filepath.Join(r.Dir, "report.md")
	if err := r.StartRecord(ctx, sc.Target, "--until", sc.Until, "--timeout", sc.Timeout.String(),
		"--export", "otlp="+j.OTLP, "--export", "markdown="+report); err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(ctx, sc.Manifest); err != nil {
		t.Fatal(err)
	}
	if err := sc.Then(ctx, r, t.Logf); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(ctx, 0, sc.Timeout+30*time.Second); err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r.Timeline)
	// The recorder exported what it recorded: the logs' bounds included.
	if n := len(r.WithLogs.Pods); n != 1 {
		t.Fatalf("the timeline with logs has %d pods, want 1", n)
	}
	p := r.WithLogs.Pods[0]
	for _, want := range []string{"exported the timeline as otlp to " + j.OTLP, "exported the timeline as markdown to " + report} {
		if !strings.Contains(r.Record.Stderr(), want) {
			t.Errorf("the recorder did not say %q:\n%s", want, r.Record.Stderr())
		}
	}
	if md, err := os.ReadFile(report); err != nil || !strings.Contains(string(md), "## Pod `"+p.Name+"`") {
		t.Errorf("--export markdown: %v; the report lacks the pod:\n%s", err, md)
	}

	want := expectedSpans(p)
	id := strings.ReplaceAll(p.UID, "-", "")
	spans, err := j.WaitTrace(ctx, id, want, 15*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("record --export otlp: Jaeger has trace %s with %d spans", id, len(spans))
	checkTraceInJaeger(t, p, r.Namespace, spans, want)

	// The export command sends the recording's timeline again: the same spans, with the same IDs.
	cmd := exec.CommandContext(ctx, env.Binary, "export", r.Record.Path, "--format", "otlp", "--otlp-endpoint", j.OTLP)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sidecar-top export --format otlp: %v\n%s", err, out)
	}
	again, err := j.Trace(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after export --format otlp: %d spans", len(again))
	if diff := cmp.Diff(spanIDs(again), spanIDs(spans)); diff != "" {
		t.Errorf("span IDs after sending again (-got +want):\n%s", diff)
	}
	checkTraceInJaeger(t, p, r.Namespace, again, want)
}

// expectedSpans is how many spans pod p's trace has: the pod, each container's runs (one for a
// lane that never ran) and each stretch of its lane.
func expectedSpans(p *timeline.Pod) int {
	n := 1
	for i := range p.Containers {
		c := &p.Containers[i]
		n += max(c.Runs.Len(), 1) + len(c.Segments())
	}
	return n
}

func spanIDs(spans []harness.JaegerSpan) []string {
	var ids []string
	for _, s := range spans {
		ids = append(ids, s.SpanID)
	}
	sort.Strings(ids)
	return ids
}

// checkTraceInJaeger holds the trace Jaeger returned against the timeline of pod p.
func checkTraceInJaeger(t *testing.T, p *timeline.Pod, ns string, spans []harness.JaegerSpan, want int) {
	t.Helper()
	if len(spans) != want {
		t.Errorf("the trace has %d spans, want %d (the pod, %d lanes' runs and states)", len(spans), want, len(p.Containers))
	}
	byID := map[string]harness.JaegerSpan{}
	var roots []harness.JaegerSpan
	for _, s := range spans {
		byID[s.SpanID] = s
		if s.ParentSpanID == "" {
			roots = append(roots, s)
		}
	}
	if len(roots) != 1 {
		t.Fatalf("%d root spans, want 1", len(roots))
	}
	root := roots[0]
	if root.Name != "pod "+p.Name {
		t.Errorf("root span %q, want %q", root.Name, "pod "+p.Name)
	}
	wantRes := map[string]string{"service.name": "sidecar-top", "k8s.pod.uid": p.UID, "k8s.pod.name": p.Name, "k8s.namespace.name": ns}
	for k, v := range wantRes {
		if root.Resource[k] != v {
			t.Errorf("resource %s = %q, want %q", k, root.Resource[k], v)
		}
	}
	if diff := cmp.Diff(eventNames(root.Events), kindNames(p.Milestones.Slice())); diff != "" {
		t.Errorf("the pod span's events (-got +want):\n%s", diff)
	}
	for i := range p.Containers {
		c := &p.Containers[i]
		var run *harness.JaegerSpan
		for _, s := range spans {
			if s.Name == c.Name && s.ParentSpanID == root.SpanID {
				run = &s
			}
		}
		if run == nil {
			t.Errorf("no span %q under the pod's", c.Name)
			continue
		}
		if got := run.Attributes["k8s.container.name"]; got != c.Name {
			t.Errorf("span %s: k8s.container.name %q", c.Name, got)
		}
		if diff := cmp.Diff(eventNames(run.Events), kindNames(c.Milestones())); diff != "" {
			t.Errorf("span %s's events (-got +want):\n%s", c.Name, diff)
		}
		var states []harness.JaegerSpan
		for _, s := range spans {
			if s.ParentSpanID == run.SpanID {
				states = append(states, s)
			}
		}
		sort.SliceStable(states, func(a, b int) bool { return states[a].Start.Before(states[b].Start) })
		var gotStates, wantStates []string
		for _, s := range states {
			gotStates = append(gotStates, s.Name)
		}
		for _, g := range c.Segments() {
			wantStates = append(wantStates, string(g.State))
		}
		if diff := cmp.Diff(gotStates, wantStates); diff != "" {
			t.Errorf("span %s's state spans (-got +want):\n%s", c.Name, diff)
		}
		// Each milestone is an event at its best estimate, with its bounds: the n-th milestone of
		// a name (a probe's repeated failures are one each) the n-th event of that name.
		seen := map[string]int{}
		for _, m := range c.Milestones() {
			var ev *harness.JaegerEvent
			nth := seen[kindName(m)]
			seen[kindName(m)]++
			for k := range run.Events {
				if run.Events[k].Name != kindName(m) {
					continue
				}
				if nth == 0 {
					ev = &run.Events[k]
					break
				}
				nth--
			}
			if ev == nil {
				continue // reported above
			}
			if !ev.At.Equal(m.At) {
				t.Errorf("%s %s: event at %s, milestone at %s", c.Name, m.Kind, clock(ev.At), clock(m.At))
			}
			for key, at := range map[string]time.Time{"sidecar_top.milestone.earliest": m.Earliest, "sidecar_top.milestone.latest": m.Latest} {
				if at.IsZero() {
					continue
				}
				if got := ev.Attributes[key]; got != at.UTC().Format(time.RFC3339Nano) {
					t.Errorf("%s %s: %s %q, want %s", c.Name, m.Kind, key, got, at.UTC().Format(time.RFC3339Nano))
				}
			}
			if got := ev.Attributes["sidecar_top.milestone.source"]; got != string(m.Source) {
				t.Errorf("%s %s: source %q, want %q", c.Name, m.Kind, got, m.Source)
			}
		}
	}
	for _, s := range spans {
		if parent, ok := byID[s.ParentSpanID]; ok && (s.Start.Before(parent.Start) || s.End.After(parent.End)) {
			t.Errorf("span %s [%s, %s] is not within %s [%s, %s]", s.Name, clock(s.Start), clock(s.End), parent.Name, clock(parent.Start), clock(parent.End))
		}
	}
}

func eventNames(evs []harness.JaegerEvent) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Name)
	}
	sort.Strings(out)
	return out
}

// kindName is a milestone's name as the export writes it: its kind, "?" when inferred.
func kindName(m timeline.Milestone) string {
	if m.Source == timeline.SourceInferred {
		return string(m.Kind) + "?"
	}
	return string(m.Kind)
}

func kindNames(ms []timeline.Milestone) []string {
	var out []string
	for _, m := range ms {
		out = append(out, kindName(m))
	}
	sort.Strings(out)
	return out
}
