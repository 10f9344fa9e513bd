package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sidecar-top/sidecar-top/assert"
	"github.com/sidecar-top/sidecar-top/compare"
)

// diffOptions are diff's flags.
type diffOptions struct {
	output   string
	by       string
	exitCode bool
	failOn   []string
}

func newDiffCommand(s streams) *cobra.Command {
	opts := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff A B",
		Short: "Compare two recordings' named gaps, and say which changed beyond their bounds",
		Long: `diff plays two recordings (- reads one from standard input) and sets their named gaps side by
side: A's, B's, and the change from A to B with its bounds. A change is real ("longer" or
"shorter") only when B's interval lies wholly outside A's, so that no reading of the evidence
makes them equal; otherwise it is "within bounds": noise, or too fine for the evidence to tell.
A pod or Job that ended (Succeeded, Failed, Complete) on one side and never did on the other is
said under "ended on one side only".

--by says which pods are compared: name pairs the pods of the same name; order pairs them in
the order they were created; gap compares each gap's distribution over all the pods of each
recording (count, median with its bounds, largest), the median's change deciding. auto, the
default, pairs by name when both recordings hold the same pod names, pairs the two pods when
each holds one, and compares distributions otherwise (a Job's or Deployment's pods).

--fail-on 'GAP OP CHANGE' (repeatable) is a threshold on a gap's change: the gap's name as diff
shows it (-> for →), >, >=, < or <=, and a change relative to A's gap (+20%) or a duration
(+500ms, -1s). It fails where the change is beyond it whichever way the bounds fall; where they
allow both it is "undecided" and does not fail, as a change within bounds is no change.

Exit status: 0; 1 when a --fail-on threshold fails, or with --exit-code when the recordings
differ (a gap longer, shorter or on one side only, a pod without a partner, or a pod or Job
that ended on one side only); 2 on a bad flag, threshold or recording.`,
		Example: `  sidecar-top diff before.jsonl after.jsonl
  sidecar-top diff --by gap -o yaml job-v1.jsonl job-v2.jsonl
  sidecar-top diff --fail-on 'sidecar started → app start > +20%' main.jsonl pr.jsonl`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := cobra.ExactArgs(2)(cmd, args); err != nil {
				return exitCode{2, err.Error()}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return checkStatus(runDiff(cmd, s, opts, args))
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return exitCode{2, err.Error()} })
	f := cmd.Flags()
	f.StringVarP(&opts.output, "output", "o", "", "json or yaml: print the comparison as that document")
	f.StringVar(&opts.by, "by", "auto", "what to compare: auto, name, order (pods paired) or gap (distributions over the pods)")
	f.BoolVar(&opts.exitCode, "exit-code", false, "exit 1 when the recordings differ, as git diff --exit-code")
	f.StringArrayVar(&opts.failOn, "fail-on", nil, "exit 1 when a gap's change is beyond this, e.g. 'sidecar started → app start > +20%' (repeat for several)")
	return cmd
}

// runDiff checks the flags before it reads anything, compares, prints, and says whether the
// gate passed: nil, or exit status 1 with what failed.
func runDiff(cmd *cobra.Command, s streams, opts *diffOptions, args []string) error {
	thresholds, err := opts.check(args)
	if err != nil {
		return err
	}
	d, err := diffRecordings(cmd.Context(), s, args, opts.by)
	if err != nil {
		return err
	}
	if err := d.Apply(thresholds); err != nil {
		return err
	}
	if err := writeDiff(s.Out, opts.output, d); err != nil {
		return err
	}
	return diffVerdict(d, opts.exitCode)
}

// check reads the flags and the arguments A and B, and returns the --fail-on thresholds.
func (opts *diffOptions) check(args []string) ([]compare.Threshold, error) {
	if o := opts.output; o != "" && o != "json" && o != "yaml" {
		return nil, fmt.Errorf("-o %q: want json or yaml", o)
	}
	if args[0] == "-" && args[1] == "-" {
		return nil, fmt.Errorf("only one of A and B can be standard input")
	}
	if by := opts.by; by != compare.ByAuto && by != compare.ByName && by != compare.ByOrder && by != compare.ByGap {
		return nil, fmt.Errorf("--by %q: want auto, name, order or gap", by)
	}
	thresholds := make([]compare.Threshold, len(opts.failOn))
	for i, src := range opts.failOn {
		t, err := compare.ParseThreshold(src)
		if err != nil {
			return nil, fmt.Errorf("--fail-on %q: %w", src, err)
		}
		thresholds[i] = t
	}
	return thresholds, nil
}

// diffRecordings plays recordings A and B (args) to their ends and compares them as by says,
// each side named by its recording's target when its header has one.
func diffRecordings(ctx context.Context, s streams, args []string, by string) (compare.Diff, error) {
	a, ha, err := readFinal(ctx, s, args[0])
	if err != nil {
		return compare.Diff{}, err
	}
	b, hb, err := readFinal(ctx, s, args[1])
	if err != nil {
		return compare.Diff{}, err
	}
	d, err := compare.Timelines(args[0], args[1], a, b, by)
	if err != nil {
		return compare.Diff{}, err
	}
	if ha != nil {
		d.TargetA = ha.Target
	}
	if hb != nil {
		d.TargetB = hb.Target
	}
	return d, nil
}

// writeDiff prints d on w as a JSON or YAML document, or (output "") as text.
func writeDiff(w io.Writer, output string, d compare.Diff) error {
	switch output {
	case "json":
		return compare.WriteJSON(w, d)
	case "yaml":
		return writeYAML(w, func(w io.Writer) error { return compare.WriteJSON(w, d) })
	}
	return compare.Write(w, d)
}

// diffVerdict is nil when the gate passes, else the exit status 1 with what failed, in one line.
func diffVerdict(d compare.Diff, exitOnDiff bool) error {
	if failed := d.Failed(); len(failed) > 0 {
		msgs := make([]string, len(failed))
		for i, r := range failed {
			msgs[i] = thresholdFailure(r)
		}
		return exitCode{1, fmt.Sprintf("%d of %d --fail-on checks failed: %s", len(failed), len(d.Thresholds), strings.Join(msgs, "; "))}
	}
	if exitOnDiff && d.Differs() {
		return exitCode{1, "the recordings differ (--exit-code)"}
	}
	return nil
}

// thresholdFailure says a failed threshold with the pods it failed on and the change.
func thresholdFailure(r compare.ThresholdResult) string {
	s := r.Threshold
	if r.PodA != "" {
		s += fmt.Sprintf(" (pods %s and %s", r.PodA, r.PodB)
	} else {
		s += " (all pods"
	}
	if r.Change != nil {
		s += ": " + assert.FormatSpan(*r.Change, true)
	}
	if r.Percent != nil {
		s += fmt.Sprintf(", %+.0f%%", *r.Percent)
	}
	return s + ")"
}
