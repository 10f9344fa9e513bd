//go:build e2e

// Truth prints, for every scenario of the e2e suite (harness.All), each named gap as sidecar-top
// shows it beside the ground truth from the container runtime's log files: the tool's value ±
// its uncertainty and [min, max], the truth, the error (tool − truth), and whether the truth
// lies in [min, max]; then how many witnessed instants lie inside the tool's [earliest, latest],
// and a summary table with one row per scenario. The scenarios are the tests' own, defined once
// in the harness; they run in parallel, since they mostly sleep.
//
// It needs the e2e cluster: run it with `e2e/run.sh --truth` (make truth). It exits 1 if a
// truth lies outside the tool's bounds or a scenario fails, after saving the evidence in
// /tmp/e2e-failures/truth/.
//
//	go run -tags e2e ./e2e/truth [-parallel 4] [-run REGEXP] [-evidence DIR]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
)

func main() {
	cfg, err := parseArgs(os.Args[1:], os.Stderr)
	if err != nil {
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := cfg.Run(ctx, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "truth:", err)
		os.Exit(1)
	}
}

// config is what the command line asks for.
type config struct {
	parallel int            // scenarios run at once
	only     *regexp.Regexp // the tests whose scenarios run; nil: all
	evidence string         // save every run's evidence there; "" saves only the failures'
}

func parseArgs(args []string, errOut io.Writer) (config, error) {
	fs := flag.NewFlagSet("truth", flag.ContinueOnError)
	fs.SetOutput(errOut)
	var cfg config
	fs.IntVar(&cfg.parallel, "parallel", 4, "how many scenarios run at once (as many as the e2e suite: at 8 on 2 cores the kubelet acted seconds late)")
	run := fs.String("run", "", "run only the scenarios whose test name matches this regular expression")
	fs.StringVar(&cfg.evidence, "evidence", "", "save every run's evidence (recording, replay JSON, container logs) in this directory")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected arguments %q", fs.Args())
		fmt.Fprintln(errOut, "truth:", err)
		return cfg, err
	}
	if cfg.parallel < 1 {
		err := fmt.Errorf("-parallel %d: want at least 1", cfg.parallel)
		fmt.Fprintln(errOut, "truth:", err)
		return cfg, err
	}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			fmt.Fprintln(errOut, "truth: -run:", err)
			return cfg, err
		}
		cfg.only = re
	}
	return cfg, nil
}

// Run runs the scenarios on the cluster and prints their figures on out, progress on errOut.
func (cfg config) Run(ctx context.Context, out, errOut io.Writer) error {
	dir, err := os.MkdirTemp("", "sidecar-top-truth-bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	env, err := harness.Setup(ctx, dir)
	if err != nil {
		return fmt.Errorf("no cluster to run on: %w", err)
	}
	var scs []harness.Scenario
	for _, sc := range harness.All() {
		if cfg.only == nil || cfg.only.MatchString(sc.Test) {
			scs = append(scs, sc)
		}
	}
	if len(scs) == 0 {
		return fmt.Errorf("no scenario's test matches -run %s", cfg.only)
	}
	began := time.Now()
	results := cfg.runAll(ctx, env, scs, errOut)
	took := time.Since(began)

	fmt.Fprintf(out, "sidecar-top: named gaps beside the ground truth (container runtime log times)\n")
	fmt.Fprintf(out, "%s, Kubernetes %s, one node, containerd, %d cores; %d scenarios, %d at a time, in %s\n\n",
		began.UTC().Format("2006-01-02 15:04 MST"), serverVersion(ctx, env), runtime.NumCPU(), len(scs),
		min(cfg.parallel, len(scs)), took.Round(time.Second))
	var bad []string
	for _, res := range results {
		fmt.Fprint(out, res.report)
		switch {
		case res.err != nil:
			bad = append(bad, fmt.Sprintf("%s: %v", res.sc.Test, res.err))
		case res.sum.outside+res.sumLogs.outside > 0:
			bad = append(bad, fmt.Sprintf("%s: %d outside, %d with logs", res.sc.Test, res.sum.outside, res.sumLogs.outside))
		}
	}
	if err := printSummary(out, results); err != nil {
		return err
	}
	var figs figures
	for _, res := range results {
		figs.add(res.figs)
	}
	figs.print(out)
	fmt.Fprint(out, legend)
	if len(bad) > 0 {
		return fmt.Errorf("ground truth outside the tool's bounds, or a scenario failed (%s)", strings.Join(bad, "; "))
	}
	return nil
}

// result is one scenario's run: its report, its summary, or why it failed.
type result struct {
	sc      harness.Scenario
	report  string
	sum     summary // from what the API alone tells
	sumLogs summary // with the logs
	figs    figures
	err     error // the scenario itself failed (not the tool's bounds)
}

// runAll runs the scenarios, cfg.parallel at a time, and returns their results in their order.
func (cfg config) runAll(ctx context.Context, env *harness.Env, scs []harness.Scenario, errOut io.Writer) []result {
	results := make([]result, len(scs))
	slots := make(chan struct{}, cfg.parallel)
	var mu sync.Mutex // errOut
	var wg sync.WaitGroup
	for i, sc := range scs {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			logf := func(format string, args ...any) {
				mu.Lock()
				defer mu.Unlock()
				fmt.Fprintf(errOut, "truth: %s: "+format+"\n", append([]any{sc.Test}, args...)...)
			}
			results[i] = cfg.runOne(ctx, env, sc, logf)
		})
	}
	wg.Wait()
	return results
}

// runOne runs one scenario and reports it. The evidence is saved when the scenario failed or a
// truth lies outside the tool's bounds, and always with -evidence.
func (cfg config) runOne(ctx context.Context, env *harness.Env, sc harness.Scenario, logf func(string, ...any)) result {
	res := result{sc: sc}
	r, err := env.RunScenario(ctx, sc, logf)
	if r != nil {
		defer func() {
			if cfg.evidence != "" || res.err != nil || res.sum.outside+res.sumLogs.outside > 0 {
				save(r, sc, cfg.evidence, logf)
			}
			if err := r.Close(); err != nil {
				logf("cleanup: %v", err)
			}
		}()
	}
	if err == nil && len(r.Timeline.Pods) != 1 {
		err = fmt.Errorf("the timeline has %d pods, want 1", len(r.Timeline.Pods))
	}
	if err != nil {
		res.err = err
		res.report = fmt.Sprintf("%s: %s\n\nSCENARIO FAILED (no figures): %v\n\n", sc.Test, sc.Title, err)
		return res
	}
	var sb strings.Builder
	res.sum, res.sumLogs, res.err = report(&sb, sc, r)
	if res.err == nil {
		res.figs = figuresOf(sc, r)
	}
	res.report = sb.String()
	return res
}

// save keeps a run's evidence in dir, or in harness.FailureDir/truth, and says where.
func save(r *harness.Run, sc harness.Scenario, dir string, logf func(string, ...any)) {
	if dir == "" {
		dir = filepath.Join(harness.FailureDir, "truth")
	}
	saved, err := r.Save(filepath.Join(dir, sc.Test))
	if err != nil {
		logf("saving the evidence: %v", err)
	}
	logf("evidence saved in %s", saved)
}

func serverVersion(ctx context.Context, env *harness.Env) string {
	out, err := env.Kubectl(ctx, "get", "--raw", "/version")
	var v struct{ GitVersion string }
	if err != nil || json.Unmarshal([]byte(out), &v) != nil || v.GitVersion == "" {
		return "(version unknown)"
	}
	return v.GitVersion
}
