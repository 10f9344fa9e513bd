//go:build e2e

// Truth prints, for scenarios 1 (start order), 3 (termination order) and 6 (two sidecars), each
// named gap as sidecar-top shows it beside the ground truth from the container runtime's log
// files: the tool's value ± its uncertainty and [min, max], the truth, the error (tool − truth),
// and whether the truth lies in [min, max]. It needs the e2e cluster: run it with
// `e2e/run.sh --truth` (make truth). It exits 1 if a truth lies outside the tool's bounds, after
// saving the evidence in /tmp/e2e-failures/truth/.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

func main() {
	if err := run(context.Background(), os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "truth:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out, errOut io.Writer) error {
	dir, err := os.MkdirTemp("", "sidecar-top-truth-bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	env, err := harness.Setup(ctx, dir)
	if err != nil {
		return fmt.Errorf("no cluster to run on: %w", err)
	}
	fmt.Fprintf(out, "sidecar-top: named gaps beside the ground truth (container runtime log times)\n")
	fmt.Fprintf(out, "%s, Kubernetes %s, one node, containerd\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), serverVersion(ctx, env))
	var bad []string
	for i, sc := range []harness.PodScenario{harness.StartOrder, harness.TerminationOrder, harness.TwoSidecars} {
		n := []int{1, 3, 6}[i]
		logf := func(format string, args ...any) {
			fmt.Fprintf(errOut, "truth: %s: "+format+"\n", append([]any{sc.Name}, args...)...)
		}
		r, err := env.RunPodScenario(ctx, sc, logf)
		if err != nil {
			if r != nil {
				saved(r, errOut)
				r.Close()
			}
			return fmt.Errorf("scenario %d (%s): %w", n, sc.Name, err)
		}
		outside, err := report(out, n, sc, r)
		if err != nil {
			saved(r, errOut)
			r.Close()
			return err
		}
		if outside > 0 {
			bad = append(bad, fmt.Sprintf("scenario %d: %d outside", n, outside))
			saved(r, errOut)
		}
		r.Close()
	}
	fmt.Fprint(out, legend)
	if len(bad) > 0 {
		return fmt.Errorf("ground truth outside the tool's bounds (%s)", strings.Join(bad, "; "))
	}
	return nil
}

// report prints one scenario's table and returns how many truths lie outside the tool's bounds,
// counting the witnessed instants too.
func report(out io.Writer, n int, sc harness.PodScenario, r *harness.Run) (int, error) {
	if len(r.Timeline.Pods) != 1 {
		return 0, fmt.Errorf("scenario %d: the timeline has %d pods, want 1", n, len(r.Timeline.Pods))
	}
	p := r.Timeline.Pods[0]
	fmt.Fprintf(out, "Scenario %d: %s\n", n, sc.Title)
	fmt.Fprintf(out, "pod %s/%s\n\n", r.Namespace, p.Name)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "gap\ttool\t[min, max]\ttruth\terror\ttruth in [min, max]")
	outside := 0
	for _, g := range p.Gaps {
		tool := fmt.Sprintf("%s ±%s", secs(g.Span.Value), secs(g.Span.Plus()))
		bounds := fmt.Sprintf("[%s, %s]", secs(g.Span.Min), secs(g.Span.Max))
		truth, ok := r.TruthOfGap(g, sc.Points)
		if !ok {
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t-\tno truth: %s\n", g.Name, tool, bounds, whyNoTruth(g.From.Kind, g.To.Kind))
			continue
		}
		t := secs(truth.Value)
		if truth.Plus > 0 {
			t += " ±" + secs(truth.Plus)
		}
		in := "yes"
		switch {
		case truth.Value >= g.Span.Min && truth.Value <= g.Span.Max:
		case truth.Hi >= g.Span.Min && truth.Lo <= g.Span.Max:
			in = "yes, within the slack"
		default:
			in = "NO"
			outside++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", g.Name, tool, bounds, t, signed(g.Span.Value-truth.Value), in)
	}
	if err := tw.Flush(); err != nil {
		return 0, err
	}
	checked := harness.CheckPoints(p, r.Truth, sc.Points)
	ok := 0
	for _, c := range checked {
		if c.Err == nil {
			ok++
		}
	}
	fmt.Fprintf(out, "\nwitnessed instants inside the tool's [earliest, latest]: %d of %d\n", ok, len(checked))
	for _, c := range checked {
		if c.Err != nil {
			fmt.Fprintf(out, "  %v\n", c.Err)
			outside++
		}
	}
	fmt.Fprintln(out)
	return outside, nil
}

func whyNoTruth(from, to timeline.MilestoneKind) string {
	if from == timeline.MStarted || to == timeline.MStarted {
		return "started is not in the logs"
	}
	return "not witnessed by a log line"
}

// saved keeps a run's evidence and says where.
func saved(r *harness.Run, errOut io.Writer) {
	dir, err := r.Save(filepath.Join(harness.FailureDir, "truth"))
	if err != nil {
		fmt.Fprintf(errOut, "truth: saving the evidence: %v\n", err)
	}
	fmt.Fprintf(errOut, "truth: evidence saved in %s\n", dir)
}

func serverVersion(ctx context.Context, env *harness.Env) string {
	out, err := env.Kubectl(ctx, "get", "--raw", "/version")
	var v struct{ GitVersion string }
	if err != nil || json.Unmarshal([]byte(out), &v) != nil || v.GitVersion == "" {
		return "(version unknown)"
	}
	return v.GitVersion
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3fs", d.Seconds()) }

func signed(d time.Duration) string { return fmt.Sprintf("%+.3fs", d.Seconds()) }

const legend = `Legend. tool: the gap as sidecar-top shows it (value ± the larger distance to a bound), from
the replayed recording (sidecar-top replay FILE -o json, pods[0].gaps). truth: the same gap between
the runtime's timestamps of the lines the containers print at each step (CRI log files, ns). A line
is stamped a few ms after what it reports (a start, a SIGTERM caught), or just before the exit when
it is the last thing printed; "within the slack" means the truth lies in [min, max] only with
100 ms allowed on that one side. The deletion's truth is the kubectl delete call (± half its
duration). "started" (the startup probe passed, or the container runs when there is none) is the
kubelet's view and prints no line, so gaps that start or end there have no truth here.
`
