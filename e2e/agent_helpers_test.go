//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
)

// The agent as deploy/ ships it.
const (
	agentNS       = "sidecar-top"
	agentSelector = "app.kubernetes.io/name=sidecar-top,app.kubernetes.io/component=agent"
	agentLease    = "sidecar-top-agent"
	agentPort     = "9464"
)

// agentPod is one replica: its pod and what its /readyz says.
type agentPod struct {
	Name, IP, Phase string
	Ready           bool
	Readyz          string // "leader", "standby", or the error
}

// deployAgent applies deploy/ as it is written (the image must be in the node's containerd:
// e2e/run.sh imports `make image`'s archive) and waits for both replicas to be Ready and one to
// lead. At the test's end it deletes what it applied and waits for the namespace to go.
func deployAgent(t *testing.T) {
	t.Helper()
	ctx := t.Context()
	dir := filepath.Join(env.Root, "deploy")
	// A namespace left Terminating by an earlier run refuses new objects: wait for it to go.
	if _, err := env.Kubectl(ctx, "wait", "--for=delete", "namespace/"+agentNS, "--timeout=120s"); err != nil &&
		!strings.Contains(err.Error(), "not found") {
		t.Fatalf("the namespace %s of an earlier run does not go: %v", agentNS, err)
	}
	if out, err := env.Kubectl(ctx, "apply", "-f", dir); err != nil {
		t.Fatalf("kubectl apply -f deploy/: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if t.Failed() {
			out, _ := env.Kubectl(context.Background(), "-n", agentNS, "logs", "-l", agentSelector, "--tail=40", "--prefix")
			t.Logf("the agents' logs end:\n%s", out)
		}
		if out, err := env.Kubectl(context.Background(), "delete", "-f", dir, "--ignore-not-found", "--wait=true", "--timeout=120s"); err != nil {
			t.Logf("cleanup: kubectl delete -f deploy/: %v\n%s", err, out)
		}
	})
	if out, err := env.Kubectl(ctx, "-n", agentNS, "rollout", "status", "deployment/sidecar-top-agent", "--timeout=180s"); err != nil {
		pods, _ := env.Kubectl(ctx, "-n", agentNS, "describe", "pods", "-l", agentSelector)
		t.Fatalf("the agent's Deployment is not rolled out: %v\n%s\n%s", err, out, pods)
	}
	leader, _ := waitLeader(t, "", 60*time.Second)
	t.Logf("deploy/ applied: 2 replicas Ready, %s leads", leader)
}

// agentPods are the agent's running replicas with what /readyz answers each.
func agentPods(ctx context.Context) ([]agentPod, error) {
	out, err := env.Kubectl(ctx, "-n", agentNS, "get", "pods", "-l", agentSelector, "-o", "json")
	if err != nil {
		return nil, err
	}
	var list struct {
		Items []struct {
			Metadata struct {
				Name              string  `json:"name"`
				DeletionTimestamp *string `json:"deletionTimestamp"`
			} `json:"metadata"`
			Status struct {
				Phase      string `json:"phase"`
				PodIP      string `json:"podIP"`
				Conditions []struct{ Type, Status string }
			} `json:"status"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		return nil, err
	}
	var pods []agentPod
	for _, it := range list.Items {
		if it.Metadata.DeletionTimestamp != nil {
			continue
		}
		p := agentPod{Name: it.Metadata.Name, IP: it.Status.PodIP, Phase: it.Status.Phase}
		for _, c := range it.Status.Conditions {
			p.Ready = p.Ready || (c.Type == "Ready" && c.Status == "True")
		}
		if p.IP != "" {
			p.Readyz = readyz(ctx, p.IP)
		}
		pods = append(pods, p)
	}
	return pods, nil
}

// readyz is the body of the replica's /readyz, or what went wrong asking it.
func readyz(ctx context.Context, ip string) string {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+ip+":"+agentPort+"/readyz", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "error: " + err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
	if resp.StatusCode != http.StatusOK {
		return fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b)))
	}
	return strings.TrimSpace(string(b))
}

// leaseHolder is the pod of the Lease's holder, and the Lease's duration.
func leaseHolder(ctx context.Context) (string, time.Duration, error) {
	out, err := env.Kubectl(ctx, "-n", agentNS, "get", "lease", agentLease, "-o",
		"jsonpath={.spec.holderIdentity} {.spec.leaseDurationSeconds}")
	if err != nil {
		return "", 0, err
	}
	var holder string
	var secs int
	if _, err := fmt.Sscan(out, &holder, &secs); err != nil {
		return "", 0, fmt.Errorf("lease %q: %w", out, err)
	}
	// The identity is the pod's name, then "_" and what tells its runs apart (a pod's name
	// has no "_").
	if i := strings.LastIndex(holder, "_"); i > 0 {
		holder = holder[:i]
	}
	return holder, time.Duration(secs) * time.Second, nil
}

// waitLeader waits until a replica other than not leads: the Lease names it, its /readyz says
// "leader", every other Ready replica's says "standby", and two replicas are Ready. It returns
// the leader and the Lease's duration.
func waitLeader(t *testing.T, not string, limit time.Duration) (string, time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	var last string
	for {
		holder, dur, err := leaseHolder(t.Context())
		pods, perr := agentPods(t.Context())
		if err == nil && perr == nil && holder != not && settled(pods, holder) {
			return holder, dur
		}
		last = fmt.Sprintf("lease holder %q (%v); replicas %+v (%v)", holder, err, pods, perr)
		if time.Now().After(deadline) {
			t.Fatalf("no replica but %q leads within %s: %s", not, limit, last)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// settled: two replicas Ready, holder among them saying "leader", the other "standby".
func settled(pods []agentPod, holder string) bool {
	ready, leads := 0, false
	for _, p := range pods {
		if !p.Ready {
			continue
		}
		ready++
		switch {
		case p.Name == holder && p.Readyz == "leader":
			leads = true
		case p.Name != holder && p.Readyz != "standby":
			return false
		}
	}
	return ready == 2 && leads
}

// startAgentPrometheus starts Prometheus scraping the agent's replicas and waits until it scrapes
// both.
func startAgentPrometheus(t *testing.T) *harness.Prometheus {
	t.Helper()
	prom, err := env.StartPrometheus(t.Context(), agentNS, "metrics")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("Prometheus' log ends:\n%s", prom.LogTail(20))
		}
		prom.Stop()
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		targets, err := prom.Targets(t.Context())
		up := 0
		for _, tg := range targets {
			if tg.Health == "up" {
				up++
			}
		}
		if err == nil && up >= 2 {
			t.Logf("Prometheus %s scrapes %d agent replicas", prom.URL, up)
			return prom
		}
		if time.Now().After(deadline) {
			t.Fatalf("Prometheus does not scrape both replicas within 60 s: %+v (%v)", targets, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// byLabel runs promql and returns its samples' values by the label's value; a label seen twice is
// an error (the query must aggregate by it).
func byLabel(ctx context.Context, prom *harness.Prometheus, promql, label string) (map[string]float64, error) {
	samples, err := prom.Query(ctx, promql)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, s := range samples {
		k := s.Labels[label]
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%s: two series with %s=%q", promql, label, k)
		}
		out[k] = s.Value
	}
	return out, nil
}

// eventually polls promql (aggregated by label) until it equals want or limit passes, and returns
// the last answer.
func eventually(t *testing.T, prom *harness.Prometheus, promql, label string, want map[string]float64, limit time.Duration) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		got, err := byLabel(t.Context(), prom, promql, label)
		if err == nil && equalCounts(got, want) {
			return got
		}
		if time.Now().After(deadline) {
			if err != nil {
				t.Errorf("%s: %v", promql, err)
			}
			return got
		}
		time.Sleep(time.Second)
	}
}

func equalCounts(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// gapLabel is a gap's name as the agent labels it (Prometheus label values are any UTF-8, but
// "→" is spelled "->" so that queries can be typed).
func gapLabel(name string) string { return strings.ReplaceAll(name, "→", "->") }
