//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
)

// TestFaultAgentAPIServerKilled: the API server is killed (kill -9) and started again twice
// while the agent, deployed from deploy/, watches the seed scenarios' pods. Its watches are lost
// and taken again (a relist when the server's watch cache no longer holds their version: 410),
// and yet every pod is counted once: sidecar_top_pods_final_total is 1 for each scenario's pod
// and no gap is observed twice; sidecar_top_watch_relists_total says the watches were taken
// again, and sidecar_top_watch_stale is back to 0.
func TestFaultAgentAPIServerKilled(t *testing.T) {
	if !harness.FaultsAllowed() {
		t.Skip(harness.ErrNoFaults)
	}
	t.Cleanup(func() {
		if err := env.EnsureAPIServer(); err != nil {
			t.Errorf("the API server after the test: %v", err)
		}
	})
	deployAgent(t)
	prom := startAgentPrometheus(t)
	relists := func() float64 {
		v, err := byLabel(t.Context(), prom, `sum(sidecar_top_watch_relists_total)`, "")
		if err != nil {
			t.Fatal(err)
		}
		return v[""]
	}
	before := relists()
	runs := runAgentScenariosDuring(t, "agentfault-", func(ctx context.Context) {
		time.Sleep(10 * time.Second) // the scenarios' pods are running
		for i := range 2 {
			if _, err := env.RestartAPIServer(ctx, "KILL", 2*time.Second, t.Logf); err != nil {
				t.Errorf("kill %d: %v", i+1, err)
				return
			}
			time.Sleep(8 * time.Second)
		}
	})
	var namespaces []string
	for _, r := range runs {
		namespaces = append(namespaces, r.Namespace)
		p := onePod(t, r)
		sel := fmt.Sprintf(`{namespace=%q}`, r.Namespace)
		final := eventually(t, prom, `sum by (namespace) (sidecar_top_pods_final_total`+sel+`)`, "namespace",
			map[string]float64{r.Namespace: 1}, 60*time.Second)
		if final[r.Namespace] != 1 {
			t.Errorf("%s: sidecar_top_pods_final_total = %v, want 1 (the pod, once)", r.Namespace, final)
		}
		counts, err := byLabel(t.Context(), prom, `sum by (gap) (sidecar_top_gap_seconds_count`+sel+`)`, "gap")
		if err != nil {
			t.Fatal(err)
		}
		for gap, n := range counts {
			if n != 1 {
				t.Errorf("%s: gap %q observed %v times, want once", r.Namespace, gap, n)
			}
		}
		t.Logf("%s: counted once, %d gaps observed once each (replay of its recording has %d)", r.Namespace, len(counts), len(p.Gaps))
	}
	sel := fmt.Sprintf(`namespace=~"%s"`, strings.Join(namespaces, "|"))
	got := eventually(t, prom, `sum(sidecar_top_pods_final_total{`+sel+`})`, "", map[string]float64{"": float64(len(runs))}, 10*time.Second)
	if got[""] != float64(len(runs)) {
		t.Errorf("sidecar_top_pods_final_total over the scenarios = %v, want %d", got, len(runs))
	}
	deadline := time.Now().Add(30 * time.Second)
	for relists() < before+1 && time.Now().Before(deadline) {
		time.Sleep(time.Second)
	}
	if after := relists(); after < before+1 {
		t.Errorf("sidecar_top_watch_relists_total went from %v to %v over two API server restarts: the metrics do not say the watches were taken again", before, after)
	} else {
		t.Logf("sidecar_top_watch_relists_total went from %v to %v over two API server restarts", before, after)
	}
	stale := eventually(t, prom, `max(sidecar_top_watch_stale)`, "", map[string]float64{"": 0}, 30*time.Second)
	if stale[""] != 0 {
		t.Errorf("sidecar_top_watch_stale = %v after the server is back, want 0", stale)
	}
}

// runAgentScenariosDuring runs agentScenarios at once (each in a namespace PREFIX…) with during
// (if not nil) beside them, and returns their runs once all are done.
func runAgentScenariosDuring(t *testing.T, prefix string, during func(context.Context)) []*harness.Run {
	runs := make([]*harness.Run, len(agentScenarios))
	var wg sync.WaitGroup
	for i, sc := range agentScenarios {
		sc.Name = prefix + sc.Name
		wg.Go(func() {
			r, err := env.RunScenario(t.Context(), sc, t.Logf)
			if r != nil {
				keep(t, r)
			}
			if err != nil {
				t.Errorf("%s: %v", sc.Test, err)
				return
			}
			runs[i] = r
		})
	}
	if during != nil {
		wg.Go(func() { during(t.Context()) })
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return runs
}
