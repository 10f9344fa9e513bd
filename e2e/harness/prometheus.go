//go:build e2e

package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Prometheus is a real Prometheus server (github.com/prometheus/prometheus/cmd/prometheus, built
// once into .e2e/bin by e2e/cluster/prometheus.sh) on a free localhost port, scraping the pods
// of one namespace that have a container port of a given name, found as a prometheus-operator
// PodMonitor finds them: kubernetes_sd_configs (role pod, through the admin kubeconfig) and
// relabelling. Its HTTP API answers PromQL.
type Prometheus struct {
	URL string // http://127.0.0.1:PORT

	daemon
}

// prometheusConfig scrapes every 1 s each pod of the namespace (%[2]q) whose container port is
// named %[3]q, labelled with the pod's name; %[1]q is the kubeconfig.
const prometheusConfig = `global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: sidecar-top-agent
    kubernetes_sd_configs:
      - role: pod
        kubeconfig_file: %[1]q
        namespaces:
          names: [%[2]q]
    relabel_configs:
      - source_labels: [__meta_kubernetes_pod_container_port_name]
        regex: %[3]q
        action: keep
      - source_labels: [__meta_kubernetes_pod_name]
        target_label: pod
`

// StartPrometheus starts Prometheus scraping the pods of namespace whose port is named port, and
// returns once its API answers. Stop it when done. Without the binary it fails and says how to
// build it.
func (e *Env) StartPrometheus(ctx context.Context, namespace, port string) (*Prometheus, error) {
	bin := filepath.Join(e2eDir(e.Root), "bin", "prometheus")
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("no Prometheus binary (%w): e2e/cluster/prometheus.sh builds it (e2e/run.sh runs it)", err)
	}
	ports, err := freePorts(1)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "sidecar-top-e2e-prometheus-")
	if err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(conf, fmt.Appendf(nil, prometheusConfig, e.Kubeconfig, namespace, port), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(ports[0])
	p := &Prometheus{URL: "http://" + addr}
	if err := p.start(dir, bin, "--config.file="+conf, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=warn"); err != nil {
		return nil, err
	}
	if err := p.waitReady(ctx, 60*time.Second); err != nil {
		p.Stop()
		return nil, fmt.Errorf("%w; its log ends:\n%s", err, p.LogTail(20))
	}
	return p, nil
}

// waitReady polls /-/ready until it answers 200.
func (p *Prometheus) waitReady(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+"/-/ready", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.done:
			return errors.New("prometheus exited")
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("prometheus not ready within %s", limit)
		}
	}
}

// Sample is one series of an instant vector: its labels and value.
type Sample struct {
	Labels map[string]string
	Value  float64
}

// apiResponse is the envelope of every answer of Prometheus' HTTP API.
type apiResponse struct {
	Status    string          `json:"status"`
	Data      json.RawMessage `json:"data"`
	ErrorType string          `json:"errorType"`
	Error     string          `json:"error"`
}

// api GETs path?query from the HTTP API and decodes its data into v.
func (p *Prometheus) api(ctx context.Context, path string, query url.Values, v any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	u := p.URL + path + "?" + query.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var r apiResponse
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return fmt.Errorf("GET %s: %d, undecodable answer: %w", u, resp.StatusCode, err)
	}
	if r.Status != "success" {
		return fmt.Errorf("GET %s: %d %s: %s", u, resp.StatusCode, r.ErrorType, r.Error)
	}
	return json.Unmarshal(r.Data, v)
}

// Query evaluates an instant PromQL query now; the result must be a vector.
func (p *Prometheus) Query(ctx context.Context, promql string) ([]Sample, error) {
	var data struct {
		ResultType string `json:"resultType"`
		Result     []struct {
			Metric map[string]string `json:"metric"`
			Value  [2]any            `json:"value"`
		} `json:"result"`
	}
	if err := p.api(ctx, "/api/v1/query", url.Values{"query": {promql}}, &data); err != nil {
		return nil, err
	}
	if data.ResultType != "vector" {
		return nil, fmt.Errorf("query %s: a %s, want a vector", promql, data.ResultType)
	}
	out := make([]Sample, 0, len(data.Result))
	for _, r := range data.Result {
		s, _ := r.Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("query %s: value %v: %w", promql, r.Value[1], err)
		}
		out = append(out, Sample{Labels: r.Metric, Value: v})
	}
	return out, nil
}

// Target is one scrape target as /api/v1/targets tells it.
type Target struct {
	Labels    map[string]string `json:"labels"`
	ScrapeURL string            `json:"scrapeUrl"`
	Health    string            `json:"health"`
	LastError string            `json:"lastError"`
}

// Targets are the active scrape targets.
func (p *Prometheus) Targets(ctx context.Context) ([]Target, error) {
	var data struct {
		Active []Target `json:"activeTargets"`
	}
	err := p.api(ctx, "/api/v1/targets", url.Values{"state": {"active"}}, &data)
	return data.Active, err
}
