//go:build linux

// Command fleetscale measures what watching a whole cluster costs, on the e2e cluster, as the
// cluster grows: it binds pods to a Node object that has no kubelet, writes their statuses
// through pods/status as a kubelet would and Events about them, and at each size runs the
// programs it compares side by side on the same pods:
//
//   - -mode view: `sidecar-top -A` on a terminal, `kubectl get pods -A -w` and k9s's
//     all-namespaces pods view (issue 38's fleet scale): peak RSS, the time to the first full
//     table against the time a bare list of the same pods takes, key → frame while -rate pod
//     updates a second arrive, CPU per 1,000 updates.
//   - -mode agent: `sidecar-top agent -A` and kube-state-metrics watching pods (issue 39): peak
//     RSS, the time a scrape of /metrics takes and its size, CPU per 1,000 updates.
//   - -mode churn: only the updates, on the pods of a -keep run, with what the API server and
//     etcd spent on them.
//   - -mode replay: on the pods of a -keep run, `record -A` while the churn writes, then key →
//     frame in `replay --speed -speed` of that recording: the table under the churn's updates
//     -speed times as fast as this API server could write them.
//
// Sizes are -levels (the empty cluster is measured first, as the anchor for growth); every
// -sidecar-every-th pod has a native sidecar; -events-per-pod Events each. It prints one table.
// e2e/perf/fleet-scale.sh and agent-scale.sh run it. It deletes what it made unless -keep.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
)

type config struct {
	mode         string
	levels       []int
	eventsPerPod int
	sidecarEvery int
	namespaces   int
	rate         int
	churn        time.Duration
	speed        float64 // replay mode's playing speed
	recording    string  // replay mode: a recording made before, played instead of making one
	bin          string  // sidecar-top
	kubectl, k9s string  // view mode's peers
	ksm          string  // agent mode's peer
	kubeconfig   string
	out          string
	keep         bool
	clean        bool
}

func main() {
	var c config
	var levels string
	flag.StringVar(&c.mode, "mode", "view", "view (sidecar-top -A, kubectl, k9s), agent (the agent, kube-state-metrics), churn (only the updates, on the pods of a -keep run) or replay (key → frame in a replay of the churn, on the pods of a -keep run)")
	flag.Float64Var(&c.speed, "speed", 8, "replay mode: the replay's speed")
	flag.StringVar(&c.recording, "recording", "", "replay mode: play this recording of an earlier replay run instead of making one")
	flag.StringVar(&levels, "levels", "5000,20000", "cluster sizes in pods, measured in turn after the empty cluster")
	flag.IntVar(&c.eventsPerPod, "events-per-pod", 5, "Events about each pod")
	flag.IntVar(&c.sidecarEvery, "sidecar-every", 4, "every N-th pod has a native sidecar")
	flag.IntVar(&c.namespaces, "namespaces", 10, "namespaces the pods are spread over")
	flag.IntVar(&c.rate, "rate", 1000, "pod status updates a second during the churn")
	flag.DurationVar(&c.churn, "churn", 30*time.Second, "how long the updates go on at each size")
	flag.StringVar(&c.bin, "bin", "/tmp/perf/sidecar-top", "the sidecar-top to measure")
	flag.StringVar(&c.kubectl, "kubectl", "kubectl", "the kubectl to compare with")
	flag.StringVar(&c.k9s, "k9s", "", "the k9s to compare with (view mode; empty: none)")
	flag.StringVar(&c.ksm, "ksm", "", "the kube-state-metrics to compare with (agent mode)")
	flag.StringVar(&c.out, "out", "/tmp/perf/fleetscale-out", "where each program's output goes")
	flag.BoolVar(&c.keep, "keep", false, "keep the pods, namespaces and node")
	flag.BoolVar(&c.clean, "clean", false, "first delete what a run with -keep left")
	flag.Parse()
	log.SetFlags(log.Ltime)
	klog.SetLogger(logr.Discard()) // the churn's requests cut at its end would each log a line
	for f := range strings.SplitSeq(levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 || len(c.levels) > 0 && n <= c.levels[len(c.levels)-1] {
			log.Fatalf("-levels %q: want growing pod counts, like 5000,20000", levels)
		}
		c.levels = append(c.levels, n)
	}
	if c.mode != "view" && c.mode != "agent" && c.mode != "churn" && c.mode != "replay" {
		log.Fatalf("-mode %q: want view, agent, churn or replay", c.mode)
	}
	c.kubeconfig = os.Getenv("KUBECONFIG")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, c); err != nil {
		log.Fatal(err)
	}
}

// run measures what the mode says, on a cluster made ready for it (cleaned first with -clean;
// the node object the pods are bound to heartbeating while it runs).
func run(ctx context.Context, c config) error {
	if c.mode == "replay" && c.recording != "" {
		return replayRecorded(ctx, c) // a recording made before: no cluster needed
	}
	client, err := newClient(c)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	s := shape{namespaces: c.namespaces, total: c.levels[len(c.levels)-1], sidecarEvery: c.sidecarEvery}
	if c.clean {
		cleanup(client, s)
		if err := namespacesGone(ctx, client, s); err != nil {
			return err
		}
	}
	nodeCtx, stopNode := context.WithCancel(ctx)
	defer stopNode()
	if err := makeNode(nodeCtx, client); err != nil {
		return fmt.Errorf("node: %w", err)
	}
	switch c.mode {
	case "churn":
		// Only the updates, on the pods a -keep run left: to profile a program by hand meanwhile,
		// and to see what the cluster's own components spend on them.
		return churnOnly(ctx, client, c, s)
	case "replay":
		return replayKeys(ctx, client, c, s)
	}
	return measureLevels(ctx, client, c, s)
}

// newClient is a client of c's cluster that no client-side limit slows.
func newClient(c config) (kubernetes.Interface, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", c.kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = 5000, 5000
	return kubernetes.NewForConfig(cfg)
}

// measureLevels grows the cluster to each level in turn, measures the mode's programs there and
// prints the table; it deletes what it made unless -keep.
func measureLevels(ctx context.Context, client kubernetes.Interface, c config, s shape) error {
	if !c.keep {
		defer cleanup(client, s)
	}
	if err := makeNamespaces(ctx, client, s); err != nil {
		return err
	}
	var results []*level
	have := 0
	for _, n := range startLevels(ctx, client, c.levels) {
		if n > have {
			log.Printf("growing the cluster to %d pods of the benchmark", n)
			if err := grow(ctx, client, s, have, n, c.eventsPerPod); err != nil {
				return err
			}
			have = n
		}
		l, err := measureLevel(ctx, client, c, s, n)
		if err != nil {
			return fmt.Errorf("at %d pods: %w", n, err)
		}
		results = append(results, l)
	}
	report(os.Stdout, c, results)
	return nil
}

// startLevels are the levels to measure: the empty cluster first, unless the cluster holds pods
// already (a -keep run's), where a first level would measure them, not an empty cluster.
func startLevels(ctx context.Context, client kubernetes.Interface, levels []int) []int {
	if _, n, err := listTime(ctx, client); err == nil && n > 0 {
		log.Printf("the cluster holds %d pods already: no empty-cluster level, and no growth over it", n)
		return levels
	}
	return append([]int{0}, levels...)
}
