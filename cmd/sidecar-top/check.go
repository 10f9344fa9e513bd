package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sidecar-top/sidecar-top/assert"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// checkOptions are check's flags.
type checkOptions struct {
	asserts        []string
	junit          string
	allowUncertain bool
	untilArg       string
	timeout        time.Duration
	linger         time.Duration
}

func newCheckCommand(s streams) *cobra.Command {
	opts := &checkOptions{}
	kube := &kubeOptions{config: newConfigFlags()}
	cmd := &cobra.Command{
		Use:   "check FILE | TARGET --assert EXPR [--assert EXPR ...]",
		Short: "Check assertions about a recording's timeline, or a live target's: a gate for CI",
		Long: `check evaluates each --assert against the final timeline of a recording (FILE, or - for
standard input), or of a live target (POD, pod/NAME, job/NAME, deploy/NAME or -l SELECTOR, with
the kubectl flags) watched until --until is met, --timeout passes or Ctrl-C. An argument that
names an existing file, or ends in .jsonl, is a recording.

An assertion compares milestone times, durations, named gaps and counts of each pod:
  app.start - proxy.started < 3s          app.restart[2] - app.exit[1] > 10s
  gap("app SIGTERM -> app exit") < 5s     gap(app.exit, proxy.sigterm) < 1s
  proxy.restarts == 0                     count(findings, warning) == 0
  pod.ready - pod.created < 30s && !(app.exit - app.sigterm >= 25s)
Every time lies in an interval; a comparison is true only if it holds for the whole interval,
false if for none of it, and uncertain otherwise, which fails unless --allow-uncertain. With
several pods, an assertion holds only if it holds for each. An assertion that reads what a pod
lacks (a milestone that never happened) fails. See README, "Check and diff", for the grammar.

Exit status: 0 when every assertion holds; 1 when one fails (or --until was not met);
2 on a bad assertion, argument or input.`,
		Example: `  sidecar-top check run.jsonl --assert 'app.start - proxy.started < 3s' --assert 'proxy.restarts == 0'
  sidecar-top check -n batch job/export --until complete --timeout 10m \
      --assert 'gap("main exit -> proxy SIGTERM") < 2s' --junit check.xml`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return checkStatus(runCheck(cmd.Context(), s, kube, opts, args))
		},
		ValidArgsFunction: kube.completeTarget,
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return exitCode{2, err.Error()} })
	kube.addTargetFlags(cmd.Flags()) // not --export, --mark, --node-logs, ...: check does not use them
	f := cmd.Flags()
	f.StringArrayVarP(&opts.asserts, "assert", "a", nil, "an assertion to check (repeat for several)")
	f.StringVar(&opts.junit, "junit", "", "also write a JUnit XML report to this file, a testcase per assertion")
	f.BoolVar(&opts.allowUncertain, "allow-uncertain", false, "pass an assertion that the bounds can neither prove nor refute")
	f.StringVar(&opts.untilArg, "until", "", "live: stop once the pods are complete, deleted or ready (a Job: Complete/Failed, deleted)")
	f.DurationVar(&opts.timeout, "timeout", 0, "live: stop after this long; with --until unmet, the check fails")
	f.DurationVar(&opts.linger, "linger", 2*time.Second, "live: go on this long after --until is met, for the Events that trail it")
	_ = cmd.MarkFlagFilename("junit", "xml")
	return cmd
}

// checkStatus gives every error but a failed check exit status 2: the check could not be made.
func checkStatus(err error) error {
	var code exitCode
	if err == nil || errors.As(err, &code) {
		return err
	}
	return exitCode{2, err.Error()}
}

// checked is one assertion and its outcome over the pods.
type checked struct {
	a *assert.Assertion
	o assert.Outcome
}

// timelineSource is what was checked, for the report: a recording or a live target.
type timelineSource struct {
	name string // the file, or the target (job/x)
	live bool
	// missed says that --until was given and not met: the live timeline is not what was waited
	// for; empty when met or not asked.
	missed string
}

// runCheck evaluates every --assert over the final timeline of a recording or of a live target,
// prints the report (and the JUnit file of --junit), and exits as the verdict says.
func runCheck(ctx context.Context, s streams, kube *kubeOptions, opts *checkOptions, args []string) error {
	list, err := parseAsserts(ctx, s, kube, opts.asserts, args)
	if err != nil {
		return err
	}
	recording := isRecordingArg(args, kube)
	inputs, err := checkInputs(s, kube, opts, args, recording)
	if err != nil {
		return err
	}
	snap, src, err := checkTimeline(ctx, s, kube, opts, args, recording)
	if err != nil {
		return err
	}
	results, err := evaluate(list, snap)
	if err != nil {
		return err
	}
	if err := writeCheckReport(s.Out, results, snap.Pods.Len(), src); err != nil {
		return err
	}
	if opts.junit != "" {
		if err := writeJUnitFile(opts.junit, results, opts.allowUncertain, src, inputs); err != nil {
			return err
		}
	}
	return checkVerdict(results, opts.allowUncertain, src)
}

// parseAsserts parses the assertions, at least one: one that does not parse over a recording
// says first a container it names that the recording's pods lack.
func parseAsserts(ctx context.Context, s streams, kube *kubeOptions, asserts, args []string) ([]*assert.Assertion, error) {
	if len(asserts) == 0 {
		return nil, errors.New("check needs at least one --assert EXPR, e.g. --assert 'app.start - proxy.started < 3s'")
	}
	list := make([]*assert.Assertion, len(asserts))
	for i, src := range asserts {
		a, err := assert.Parse(src)
		if err != nil && isRecordingArg(args, kube) {
			err = nameUnknown(ctx, s, args[0], src, err)
		}
		if err != nil {
			return nil, assertError(src, err)
		}
		list[i] = a
	}
	return list, nil
}

// checkInputs are the files check reads (the recording, or those of the kube flags), refusing
// before anything is read or watched a --junit file that is one of them.
func checkInputs(s streams, kube *kubeOptions, opts *checkOptions, args []string, recording bool) (inputFiles, error) {
	inputs := kube.inputs()
	if recording {
		if err := kube.refuseWithRecording(args[0]); err != nil {
			return nil, err
		}
		inputs = inputFiles{}
		inputs.add(args[0], s.In)
	}
	if opts.junit != "" {
		if err := inputs.refuse("--junit", opts.junit); err != nil {
			return nil, err
		}
	}
	return inputs, nil
}

// checkTimeline is the final timeline to check: the recording's, or the live target's as
// --until and --timeout end its watch.
func checkTimeline(ctx context.Context, s streams, kube *kubeOptions, opts *checkOptions, args []string, recording bool) (timeline.Snapshot, timelineSource, error) {
	if !recording {
		return checkLive(ctx, s, kube, opts, args)
	}
	if opts.untilArg != "" || opts.timeout != 0 {
		return timeline.Snapshot{}, timelineSource{}, fmt.Errorf("--until and --timeout are for a live target; %s is a recording", args[0])
	}
	snap, _, err := readFinal(ctx, s, args[0])
	return snap, timelineSource{name: args[0]}, err
}

// evaluate checks that each assertion applies to snap, and evaluates it over snap's pods.
func evaluate(list []*assert.Assertion, snap timeline.Snapshot) ([]checked, error) {
	results := make([]checked, len(list))
	for i, a := range list {
		if err := a.Check(snap); err != nil {
			return nil, assertError(a.String(), err)
		}
		results[i] = checked{a, a.EvalPods(snap.Pods.Slice())}
	}
	return results, nil
}

// nameUnknown is err, the error of an assertion src that did not parse, with a container it
// names that the recording's pods lack said first (assert.NameUnknown): proxy.start < 3s is a
// type error, but with no proxy that is not the first thing to fix. A recording is read for it
// (a live target is not watched); err is kept as it is when the recording cannot be read.
func nameUnknown(ctx context.Context, s streams, name, src string, err error) error {
	snap, _, rerr := readFinal(ctx, s, name)
	if rerr != nil {
		return err
	}
	return assert.NameUnknown(src, err, snap)
}

// isRecordingArg reports whether the arguments name a recording rather than a live target: a
// single argument, with no -l, that is -, an existing file, or a name ending in .jsonl.
func isRecordingArg(args []string, kube *kubeOptions) bool {
	if len(args) != 1 || kube.selector != "" {
		return false
	}
	if a := args[0]; a == "-" || strings.HasSuffix(a, ".jsonl") {
		return true
	}
	st, err := os.Stat(args[0])
	return err == nil && !st.IsDir()
}

// readFinal plays a recording (- for standard input) to its final timeline, which must hold
// at least one pod. It says on standard error when the last line was cut short.
func readFinal(ctx context.Context, s streams, name string) (timeline.Snapshot, *recfile.Header, error) {
	r, done, err := s.open(name)
	if err != nil {
		return timeline.Snapshot{}, nil, err
	}
	defer done()
	// Its records are applied, one by one, nothing more.
	rd, err := recfile.NewReader(r, name, recfile.Options{Objects: recfile.NoObjects})
	if err != nil {
		return timeline.Snapshot{}, nil, err
	}
	defer rd.Close()
	res, err := play.RunFile(ctx, source.OfRecording(rd), 0, play.Options{}, nil)
	if err != nil {
		return timeline.Snapshot{}, nil, err
	}
	if rd.Truncated {
		say(s.ErrOut, "%s: the last line was cut short (the recorder stopped mid-write); using the lines before it", name)
	}
	if res.Final.Pods.Len() == 0 {
		return timeline.Snapshot{}, nil, fmt.Errorf("%s: no pod in the recording", name)
	}
	return res.Final, rd.Header(), nil
}

// checkLive watches a live target as the root command does (the same target parsing, kubectl
// flags and connection) until --until is met and --linger has passed, --timeout passes (from
// the start, connecting included) or Ctrl-C, and returns the final timeline. An unmet --until
// does not stop the check: the assertions are evaluated on what was seen, and the check fails.
func checkLive(ctx context.Context, s streams, kube *kubeOptions, opts *checkOptions, args []string) (timeline.Snapshot, timelineSource, error) {
	var src timelineSource
	until, err := parseUntil(opts.untilArg)
	if err != nil {
		return timeline.Snapshot{}, src, err
	}
	if opts.timeout < 0 || opts.linger < 0 {
		return timeline.Snapshot{}, src, errors.New("--timeout and --linger cannot be negative")
	}
	t, _, err := kube.target(args)
	if err != nil {
		return timeline.Snapshot{}, src, err
	}
	src = timelineSource{name: t.String(), live: true}
	client, host, err := kube.client()
	if err != nil {
		return timeline.Snapshot{}, src, err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if opts.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.timeout)
		defer cancel()
	}
	_, live, err := connect(ctx, client, t, host, false)
	if err != nil {
		return timeline.Snapshot{}, src, err
	}
	liveHeap()
	popts := play.Options{Linger: opts.linger}
	waiting := "Ctrl-C"
	if until != untilNone {
		popts.Until = func(snap timeline.Snapshot) bool { return until.met(t, snap) }
		waiting = string(until)
	}
	say(s.ErrOut, "watching %s until %s, then checking", where(t), waiting)
	res, err := play.RunLive(ctx, source.Of(live), popts, warnTo(s))
	if err != nil {
		return timeline.Snapshot{}, src, err
	}
	if until != untilNone && !res.Met {
		why := "the watch was interrupted"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			why = "--timeout " + opts.timeout.String() + " passed"
		}
		src.missed = fmt.Sprintf("%s before --until %s was met: the assertions were checked on the timeline so far", why, until)
	}
	return res.Final, src, nil
}

// passes reports whether an outcome passes the gate.
func passes(t assert.Truth, allowUncertain bool) bool {
	return t == assert.True || t == assert.Uncertain && allowUncertain
}

// verdictWord is how the report names a truth.
func verdictWord(t assert.Truth) string {
	switch t {
	case assert.True:
		return "pass"
	case assert.False:
		return "FAIL"
	}
	return "uncertain"
}

// outcomeText is an outcome's value in words: the deciding pod's values, and with several pods
// which pod it is and how many shared its truth.
func outcomeText(o assert.Outcome, src timelineSource) string {
	d, ok := o.Decider()
	if !ok {
		if src.live {
			return "no pod of " + src.name + " was seen"
		}
		return "no pod"
	}
	if len(o.Pods) == 1 {
		return d.Detail
	}
	if o.Truth == assert.True {
		return fmt.Sprintf("pod %s: %s (all %d pods)", d.Pod, d.Detail, len(o.Pods))
	}
	n := 0
	for _, r := range o.Pods {
		if r.Truth == o.Truth {
			n++
		}
	}
	return fmt.Sprintf("pod %s: %s (%d of %d pods %s)", d.Pod, d.Detail, n, len(o.Pods), strings.ToLower(verdictWord(o.Truth)))
}

// writeCheckReport prints a line per assertion: its verdict, the assertion, and its value.
// What came from the recording or the cluster is escaped for the terminal.
func writeCheckReport(w io.Writer, results []checked, pods int, src timelineSource) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", verdictWord(r.o.Truth), present.Safe(r.a.String()), present.Safe(outcomeText(r.o, src)))
	}
	return tw.Flush()
}

// checkVerdict is nil when the gate passes, else the exit status 1 with what failed.
func checkVerdict(results []checked, allowUncertain bool, src timelineSource) error {
	failed, uncertain := 0, 0
	for _, r := range results {
		if !passes(r.o.Truth, allowUncertain) {
			failed++
			if r.o.Truth == assert.Uncertain {
				uncertain++
			}
		}
	}
	var msgs []string
	if failed > 0 {
		msg := fmt.Sprintf("%d of %d assertions failed", failed, len(results))
		if uncertain > 0 {
			msg += fmt.Sprintf(" (%d uncertain: the bounds allow both; --allow-uncertain passes them)", uncertain)
		}
		msgs = append(msgs, msg)
	}
	if src.missed != "" {
		msgs = append(msgs, src.missed)
	}
	if len(msgs) == 0 {
		return nil
	}
	return exitCode{1, strings.Join(msgs, "; ")}
}
