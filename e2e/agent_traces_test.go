//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/export"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// startAgentJaeger starts Jaeger with its OTLP receiver on the node's address and has the
// deployed agent send its traces there: the one flag deploy/ shows commented out
// (--otlp-endpoint), added to the Deployment's arguments, which rolls both replicas.
func startAgentJaeger(t *testing.T) *harness.Jaeger {
	t.Helper()
	ctx := t.Context()
	hostIP, err := env.Kubectl(ctx, "-n", agentNS, "get", "pods", "-l", agentSelector, "-o", "jsonpath={.items[0].status.hostIP}")
	if err != nil || strings.TrimSpace(hostIP) == "" {
		t.Fatalf("the agent's node address: %q, %v", hostIP, err)
	}
	j, err := env.StartJaegerOn(ctx, strings.TrimSpace(hostIP))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("Jaeger's log ends:\n%s", j.LogTail(20))
		}
		j.Stop()
	})
	patch, _ := json.Marshal([]map[string]string{
		{"op": "add", "path": "/spec/template/spec/containers/0/args/-", "value": "--otlp-endpoint"},
		{"op": "add", "path": "/spec/template/spec/containers/0/args/-", "value": j.OTLP},
	})
	if out, err := env.Kubectl(ctx, "-n", agentNS, "patch", "deployment/sidecar-top-agent", "--type=json", "-p", string(patch)); err != nil {
		t.Fatalf("adding --otlp-endpoint %s: %v\n%s", j.OTLP, err, out)
	}
	if out, err := env.Kubectl(ctx, "-n", agentNS, "rollout", "status", "deployment/sidecar-top-agent", "--timeout=180s"); err != nil {
		t.Fatalf("the agent's Deployment with --otlp-endpoint is not rolled out: %v\n%s", err, out)
	}
	leader, _ := waitLeader(t, "", 60*time.Second)
	t.Logf("the agents send traces to Jaeger at %s; %s leads", j.OTLP, leader)
	return j
}

// testAgentTraces: Jaeger holds one trace per scenario pod, sent by the leading agent, made by
// the same mapping as `export --format otlp` of the pod's recording: the same spans (the pod,
// each container's runs, each state of its lane), the same events on each, and each named gap as
// numbers on the pod's span, its value within the replay's bounds. (Times are not held equal:
// the agent stamps what it receives itself, the recorder its own.)
func testAgentTraces(t *testing.T, j *harness.Jaeger, runs []*harness.Run) {
	for _, r := range runs {
		p := onePod(t, r)
		id := strings.ReplaceAll(p.UID, "-", "")
		want := expectedSpans(p)
		spans, err := j.WaitTrace(t.Context(), id, want, 30*time.Second)
		if err != nil {
			t.Errorf("%s: %v", r.Namespace, err)
			continue
		}
		if diff := cmp.Diff(spanShape(spans, afterFinal), podShape(p, afterFinal)); diff != "" {
			t.Errorf("%s: the agent's trace's spans and events (-agent +replay of the recording):\n%s", r.Namespace, diff)
		}
		root := spans[slices.IndexFunc(spans, func(s harness.JaegerSpan) bool { return s.ParentSpanID == "" })]
		for _, g := range p.Gaps {
			key := "sidecar_top.gap." + export.GapKey(g.Name) + ".seconds"
			v, err := strconv.ParseFloat(root.Attributes[key], 64)
			switch {
			case err != nil:
				t.Errorf("%s: the pod's span has no number %s (%q)", r.Namespace, key, root.Attributes[key])
			case g.Span.Min != timeline.NoMin && v < g.Span.Min.Seconds()-1e-6 || g.Span.Max != timeline.NoMax && v > g.Span.Max.Seconds()+1e-6:
				t.Errorf("%s: %s = %v, outside the replay's [%v, %v]", r.Namespace, key, v, g.Span.Min, g.Span.Max)
			}
		}
		t.Logf("%s: trace %s, %d spans, %d gaps as numbers within the replay's bounds", r.Namespace, id, len(spans), len(p.Gaps))
	}
}

// afterFinal are the pod events that may come after the agent has sent a pod's trace: it sends
// it once the pod is final (its containers ended, its deletion asked), which can be before the
// API server removes the pod (deleted); the recorder (--until deleted) sees that.
var afterFinal = map[string]bool{string(timeline.MDeleted): true}

// spanShape is a trace as names: "pod NAME: events", "CONTAINER ×RUNS: events" for the run
// spans under it (their events in time order), and each state span as "CONTAINER/STATE", sorted;
// the pod span's events in drop are left out.
func spanShape(spans []harness.JaegerSpan, drop map[string]bool) []string {
	byID := map[string]harness.JaegerSpan{}
	for _, s := range spans {
		byID[s.SpanID] = s
	}
	runs := map[string][]harness.JaegerEvent{}
	count := map[string]int{}
	var out []string
	for _, s := range spans {
		parent, hasParent := byID[s.ParentSpanID]
		switch {
		case !hasParent:
			names := slices.DeleteFunc(eventNames(s.Events), func(n string) bool { return drop[n] })
			out = append(out, s.Name+": "+strings.Join(names, ","))
		case parent.ParentSpanID == "":
			runs[s.Name] = append(runs[s.Name], s.Events...)
			count[s.Name]++
		default:
			out = append(out, parent.Name+"/"+s.Name)
		}
	}
	for name, evs := range runs {
		slices.SortStableFunc(evs, func(a, b harness.JaegerEvent) int { return a.At.Compare(b.At) })
		out = append(out, fmt.Sprintf("%s ×%d: %s", name, count[name], strings.Join(eventNames(evs), ",")))
	}
	slices.Sort(out)
	return out
}

// podShape is what spanShape should read of the trace of pod p, the pod's events in drop left out.
func podShape(p *timeline.Pod, drop map[string]bool) []string {
	names := slices.DeleteFunc(kindNames(p.Milestones.Slice()), func(n string) bool { return drop[n] })
	out := []string{"pod " + p.Name + ": " + strings.Join(names, ",")}
	for i := range p.Containers {
		c := &p.Containers[i]
		out = append(out, fmt.Sprintf("%s ×%d: %s", c.Name, max(c.Runs.Len(), 1), strings.Join(kindNames(c.Milestones()), ",")))
		for _, g := range c.Segments() {
			out = append(out, c.Name+"/"+string(g.State))
		}
	}
	slices.Sort(out)
	return out
}
