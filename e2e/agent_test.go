//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestAgent: `sidecar-top agent` runs from its image as deploy/ ships it (two replicas, leader
// election, in-cluster config through the `kubernetes` Service), a real Prometheus scrapes it,
// and PromQL over Prometheus' HTTP API says what `sidecar-top replay` of recordings of the same
// pods says: a gap histogram's count is the number of pods that had the gap, a single pod's
// observed value lies in its bounds, the findings counters are its findings. Then the leader is
// killed while pods run: the other replica leads within the Lease's duration plus 5 s, and
// every pod is counted once. Jaeger holds a trace per pod, sent by the leader
// (--otlp-endpoint), shaped as `export --format otlp` of the pod's recording.
func TestAgent(t *testing.T) {
	t.Parallel()
	deployAgent(t)
	jaeger := startAgentJaeger(t)
	prom := startAgentPrometheus(t)
	var runs []*harness.Run
	t.Run("Scenarios", func(t *testing.T) { runs = testAgentScenarios(t, prom) })
	t.Run("Traces", func(t *testing.T) {
		if len(runs) == 0 {
			t.Skip("no scenario ran")
		}
		testAgentTraces(t, jaeger, runs)
	})
	t.Run("Failover", func(t *testing.T) { testAgentFailover(t, prom) })
}

// agentScenarios are seed scenarios of one pod each, run at once while the agent watches; each
// deletes its pod, which makes it final. FindingTeardown has findings (sidecar-teardown-exit,
// killed-after-grace), so that the findings counters are held to some.
var agentScenarios = []harness.Scenario{harness.StartOrder, harness.TwoSidecars, harness.FindingTeardown}

func testAgentScenarios(t *testing.T, prom *harness.Prometheus) []*harness.Run {
	runs := runAgentScenariosDuring(t, "agent-", nil)
	var namespaces []string
	pods := map[string]float64{} // gap → pods that had it, over all the runs
	findings := 0
	for _, r := range runs {
		p := onePod(t, r)
		namespaces = append(namespaces, r.Namespace)
		for _, g := range p.Gaps {
			pods[gapLabel(g.Name)]++
		}
		findings += len(p.Findings())
		checkAgentPod(t, prom, r.Namespace, p)
	}
	if findings == 0 {
		t.Errorf("no replay has a finding: the findings counters were held to nothing")
	}
	sel := fmt.Sprintf(`namespace=~"%s"`, strings.Join(namespaces, "|"))
	got := eventually(t, prom, `sum by (gap) (sidecar_top_gap_seconds_count{`+sel+`})`, "gap", pods, 10*time.Second)
	if !equalCounts(got, pods) {
		t.Errorf("over the %d scenarios, sidecar_top_gap_seconds_count by gap = %v; the replays have these gaps in so many pods: %v", len(runs), got, pods)
	}
	return runs
}

// checkAgentPod holds what the agent published about the one pod of namespace ns against the
// replay of its recording: the pod counted once, each gap observed once with a value inside the
// replay's bounds, each finding counted once.
func checkAgentPod(t *testing.T, prom *harness.Prometheus, ns string, p *timeline.Pod) {
	t.Helper()
	sel := fmt.Sprintf(`{namespace=%q}`, ns)
	final := eventually(t, prom, `sum by (namespace) (sidecar_top_pods_final_total`+sel+`)`, "namespace", map[string]float64{ns: 1}, 30*time.Second)
	if final[ns] != 1 {
		t.Fatalf("%s: sidecar_top_pods_final_total = %v, want 1 (the pod, once)", ns, final)
	}
	count, bounds := map[string]float64{}, map[string]timeline.Span{}
	for _, g := range p.Gaps {
		count[gapLabel(g.Name)]++
		bounds[gapLabel(g.Name)] = g.Span
	}
	got := eventually(t, prom, `sum by (gap) (sidecar_top_gap_seconds_count`+sel+`)`, "gap", count, 10*time.Second)
	if !equalCounts(got, count) {
		t.Errorf("%s: sidecar_top_gap_seconds_count by gap = %v; replay's gaps: %v", ns, got, count)
	}
	values, err := byLabel(t.Context(), prom, `sum by (gap) (sidecar_top_gap_seconds_sum`+sel+`)`, "gap")
	if err != nil {
		t.Fatal(err)
	}
	for gap, s := range bounds {
		v, ok := values[gap]
		if !ok {
			continue // reported above
		}
		// The observation is float seconds of a duration; allow its rounding.
		lo, hi := s.Min.Seconds()-1e-6, s.Max.Seconds()+1e-6
		if (s.Min != timeline.NoMin && v < lo) || (s.Max != timeline.NoMax && v > hi) {
			t.Errorf("%s: gap %q observed %.6fs, outside the replay's bounds [%v, %v] (replay's estimate %v)", ns, gap, v, s.Min, s.Max, s.Value)
		} else {
			t.Logf("%s: gap %q observed %.6fs, in the replay's [%v, %v]", ns, gap, v, s.Min, s.Max)
		}
	}
	findings := map[string]float64{}
	for _, f := range p.Findings() {
		findings[string(f.ID)]++
	}
	got = eventually(t, prom, `sum by (id) (sidecar_top_findings_total`+sel+`)`, "id", findings, 10*time.Second)
	if !equalCounts(got, findings) {
		t.Errorf("%s: sidecar_top_findings_total by id = %v; replay's findings: %v", ns, got, findings)
	} else if len(findings) > 0 {
		t.Logf("%s: sidecar_top_findings_total by id = %v, as replay's findings", ns, got)
	}
}
