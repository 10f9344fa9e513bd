//go:build linux

// Command livemem measures what watching live costs sidecar-top as the namespace around its
// target grows: memory (peak RSS, VmHWM) and CPU (utime + stime), side by side with
// `kubectl get pod x -w`, which is the yardstick.
//
// It runs twice, each time in a fresh namespace: once with only the small target, once with the
// target among -pods pods that never run and -events Events about them. The target is pod x,
// Job x (two pods) and Deployment x (two pods), all running, the five labelled perf-target=yes.
// Each time, every binary given with -bin watches pod x, job/x, deploy/x and -l perf-target=yes
// with plain output (not a terminal), beside one kubectl, all for -duration; then each process
// is sampled and interrupted. It prints one table. e2e/perf/live-memory.sh runs it.
//
// It needs $KUBECONFIG of a cluster it may fill (e2e/cluster) and deletes its namespaces when
// done, unless -keep.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// bins collects -bin NAME=PATH flags.
type bins [][2]string

func (b *bins) String() string { return fmt.Sprint(*b) }
func (b *bins) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok || name == "" || path == "" {
		return fmt.Errorf("want NAME=PATH, got %q", v)
	}
	*b = append(*b, [2]string{name, path})
	return nil
}

type config struct {
	bins     bins
	kubectl  string
	duration time.Duration
	pods     int
	events   int
	out      string
	keep     bool
}

func main() {
	var c config
	flag.Var(&c.bins, "bin", "a sidecar-top to measure, as NAME=PATH (repeatable)")
	flag.StringVar(&c.kubectl, "kubectl", "kubectl", "the kubectl to compare with")
	flag.DurationVar(&c.duration, "duration", time.Minute, "how long every watcher runs")
	flag.IntVar(&c.pods, "pods", 5000, "pods that never run, in the big namespace")
	flag.IntVar(&c.events, "events", 20000, "Events about them")
	flag.StringVar(&c.out, "out", "/tmp/perf/out", "where each watcher's output goes")
	flag.BoolVar(&c.keep, "keep", false, "keep the namespaces")
	flag.Parse()
	log.SetFlags(log.Ltime)
	if len(c.bins) == 0 {
		log.Fatal("give at least one -bin NAME=PATH")
	}
	if err := run(context.Background(), c); err != nil {
		log.Fatal(err)
	}
}

// phase is one namespace's run: its size and what each watcher cost.
type phase struct {
	name          string
	pods, events  int
	samples       map[[2]string]sample // (target, binary) → sample
	namespace     string
	populatedSecs float64
}

func run(ctx context.Context, c config) error {
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(clientcmd.NewDefaultClientConfigLoadingRules(),
		&clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst = 500, 1000
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	stamp := time.Now().Format("150405")
	phases := []*phase{
		{name: "empty", namespace: "perf-empty-" + stamp},
		{name: "big", namespace: "perf-big-" + stamp, pods: c.pods, events: c.events},
	}
	for _, p := range phases {
		if err := measure(ctx, client, c, p); err != nil {
			return fmt.Errorf("%s namespace: %w", p.name, err)
		}
		if !c.keep {
			err := client.CoreV1().Namespaces().Delete(ctx, p.namespace, metav1.DeleteOptions{})
			if err != nil {
				log.Printf("deleting %s: %v", p.namespace, err)
			}
		}
	}
	report(os.Stdout, c, phases)
	return nil
}

// measure fills one namespace and runs every watcher in it side by side.
func measure(ctx context.Context, client kubernetes.Interface, c config, p *phase) error {
	log.Printf("namespace %s: %d pods that never run, %d Events", p.namespace, p.pods, p.events)
	if err := createNamespace(ctx, client, p.namespace); err != nil {
		return err
	}
	began := time.Now()
	if err := populate(ctx, client, p.namespace, p.pods, p.events); err != nil {
		return err
	}
	p.populatedSecs = time.Since(began).Seconds()
	if err := createTargets(ctx, client, p.namespace); err != nil {
		return err
	}
	kubectl, err := exec.LookPath(c.kubectl)
	if err != nil {
		return err
	}
	for _, path := range append([]string{kubectl}, binPaths(c.bins)...) {
		if err := evict(path); err != nil {
			return err
		}
	}
	var procs []*proc
	defer func() {
		for _, pr := range procs {
			pr.stop()
		}
	}()
	startOne := func(label, bin string, argv ...string) error {
		out := filepath.Join(c.out, fmt.Sprintf("%s-%s-%s.out", p.name, bin, strings.NewReplacer("/", "_", " ", "_", "=", "_").Replace(label)))
		pr, err := start(label, bin, out, argv...)
		if err == nil {
			procs = append(procs, pr)
		}
		return err
	}
	if err := startOne("kubectl get pod x -w", "kubectl", kubectl, "-n", p.namespace, "get", "pod", "x", "-w"); err != nil {
		return err
	}
	for _, b := range c.bins {
		for _, target := range []string{"pod/x", "job/x", "deploy/x", "-l " + targetLabel + "=yes"} {
			argv := append([]string{b[1], "-n", p.namespace}, strings.Fields(target)...)
			if err := startOne(target, b[0], argv...); err != nil {
				return err
			}
		}
	}
	log.Printf("  %d watchers for %s", len(procs), c.duration)
	time.Sleep(c.duration)
	p.samples = map[[2]string]sample{}
	for _, pr := range procs {
		s, err := pr.measure()
		if err != nil {
			return fmt.Errorf("%s %s: %w", pr.bin, pr.label, err)
		}
		p.samples[[2]string{pr.label, pr.bin}] = s
	}
	return nil
}

func binPaths(b bins) []string {
	var paths []string
	for _, nb := range b {
		paths = append(paths, nb[1])
	}
	return paths
}

// report prints one row per watcher: peak RSS and CPU in each namespace, and the RSS against
// kubectl's in the same namespace.
func report(w *os.File, c config, phases []*phase) {
	empty, big := phases[0], phases[1]
	fmt.Fprintf(w, "\nwatchers ran %s each, side by side; big namespace: %d pods that never run + %d Events (made in %.0f s);\n"+
		"peak RSS is VmHWM, anon is RssAnon at the end, CPU is utime+stime; every binary was dropped from the page cache before each namespace's run\n\n",
		c.duration, big.pods, big.events, big.populatedSecs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "watcher\ttarget\tRSS empty\tRSS big\tbig/empty\tvs kubectl (big)\tanon empty\tanon big\tCPU empty\tCPU big\t")
	kubectlKey := [2]string{"kubectl get pod x -w", "kubectl"}
	rows := [][2]string{kubectlKey}
	for _, b := range c.bins {
		for _, target := range []string{"pod/x", "job/x", "deploy/x", "-l " + targetLabel + "=yes"} {
			rows = append(rows, [2]string{target, b[0]})
		}
	}
	mb := func(kib int) string { return fmt.Sprintf("%.1f MB", float64(kib)/1024) }
	for _, k := range rows {
		e, b := empty.samples[k], big.samples[k]
		label := k[0]
		if k == kubectlKey {
			label = "pod/x -w"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f×\t%.2f×\t%s\t%s\t%.2f s\t%.2f s\t\n", k[1], label, mb(e.RSSKiB), mb(b.RSSKiB),
			float64(b.RSSKiB)/float64(e.RSSKiB), float64(b.RSSKiB)/float64(big.samples[kubectlKey].RSSKiB),
			mb(e.AnonKiB), mb(b.AnonKiB), e.CPU, b.CPU)
	}
	tw.Flush()
	fmt.Fprintf(w, "\noutputs: %s\n", c.out)
}
