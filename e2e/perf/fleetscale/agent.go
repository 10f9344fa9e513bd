//go:build linux

package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/perf/perfproc"
)

const agentAddr, ksmPort, ksmTelemetry = "127.0.0.1:19464", "19465", "19466"

// agentPrograms are the agent and kube-state-metrics, each watching every pod.
func agentPrograms(c config, l *level) []program {
	ps := []program{{name: "sidecar-top agent -A", start: func(n int) (running, error) { return startAgent(c, l, n) }}}
	if c.ksm != "" {
		ps = append(ps, program{name: "kube-state-metrics (pods)", start: func(n int) (running, error) { return startKSM(c, l, n) }})
	}
	return ps
}

// startAgent runs the agent and waits until its pods_watched gauge counts every pod.
func startAgent(c config, l *level, n int) (running, error) {
	if err := perfproc.Evict(c.bin); err != nil {
		return running{}, err
	}
	began := time.Now()
	p, err := perfproc.Start("agent", outPath(c, "agent", n), nil, c.bin, "agent", "-A", "--kubeconfig", c.kubeconfig,
		"--metrics-addr", agentAddr)
	if err != nil {
		return running{}, err
	}
	url := "http://" + agentAddr + "/metrics"
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if v, ok := gauge(url, "sidecar_top_pods_watched"); ok && int(v) >= n { // at least the benchmark's pods
			return running{proc: p, ready: time.Since(began), scrape: url}, nil
		}
		if p.Exited() {
			break
		}
	}
	p.Stop()
	return running{}, fmt.Errorf("the agent did not watch %d pods in 3 minutes (see %s)", n, p.Out)
}

// startKSM runs kube-state-metrics with only its pod metrics and waits until it exports
// kube_pod_info for every pod.
func startKSM(c config, l *level, n int) (running, error) {
	if err := perfproc.Evict(c.ksm); err != nil {
		return running{}, err
	}
	began := time.Now()
	p, err := perfproc.Start("kube-state-metrics", outPath(c, "kube-state-metrics", n), nil, c.ksm, "--kubeconfig", c.kubeconfig,
		"--resources", "pods", "--host", "127.0.0.1", "--port", ksmPort, "--telemetry-host", "127.0.0.1", "--telemetry-port", ksmTelemetry)
	if err != nil {
		return running{}, err
	}
	url := "http://127.0.0.1:" + ksmPort + "/metrics"
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if count(url, "kube_pod_info{") >= n {
			return running{proc: p, ready: time.Since(began), scrape: url}, nil
		}
		if p.Exited() {
			break
		}
	}
	p.Stop()
	return running{}, fmt.Errorf("kube-state-metrics did not export %d pods in 3 minutes (see %s)", n, p.Out)
}

// scrapeTimes GETs url times times, as Prometheus would (its text format), and returns each
// time sorted and the size of the last body.
func scrapeTimes(url string, times int) ([]time.Duration, int) {
	var took []time.Duration
	size := 0
	for range times {
		began := time.Now()
		resp, err := http.Get(url)
		if err != nil {
			continue
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		took, size = append(took, time.Since(began)), int(n)
	}
	slices.Sort(took)
	return took, size
}

// gauge reads one unlabelled sample's value from a /metrics page.
func gauge(url, name string) (float64, bool) {
	var v float64
	found := false
	scan(url, func(line string) bool {
		if rest, ok := strings.CutPrefix(line, name+" "); ok {
			v, found = parse(rest), true
			return false
		}
		return true
	})
	return v, found
}

// count is how many samples on a /metrics page start with prefix.
func count(url, prefix string) int {
	n := 0
	scan(url, func(line string) bool {
		if strings.HasPrefix(line, prefix) {
			n++
		}
		return true
	})
	return n
}

func scan(url string, each func(string) bool) {
	resp, err := http.Get(url)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() && each(sc.Text()) {
	}
}

func parse(s string) float64 {
	v, _ := strconv.ParseFloat(strings.Fields(s)[0], 64)
	return v
}
