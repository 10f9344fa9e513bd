package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/watch"
)

// recordOptions are record's own flags, and the file it writes.
type recordOptions struct {
	outputs  []string
	path     string
	json     bool
	untilArg string
	until    untilCondition
	timeout  time.Duration
	linger   time.Duration
	recorder *watch.Recorder
	file     *os.File
}

func newRecordCommand(s streams, view *viewOptions) *cobra.Command {
	rec := &recordOptions{}
	kube := &kubeOptions{config: newConfigFlags()}
	cmd := &cobra.Command{
		Use:   "record [flags] POD | TYPE/NAME | -l SELECTOR -o FILE",
		Short: "Watch a target and write what the API server sends to a recording",
		Long: `record watches a target as sidecar-top does and writes every Pod, Event and Job the API
server sends, with the local time it arrived, to FILE (JSON Lines; see README). Secrets stay
out: managedFields, the last-applied annotation and environment values are removed.

It stops on Ctrl-C, or once --until is met (and --linger has passed), or at --timeout.
With -o json as well, it prints the final timeline as JSON on standard output at the end.`,
		Example: `  sidecar-top record -n shop pod/checkout -o checkout.jsonl --until deleted
  sidecar-top record -n batch job/export -o export.jsonl --until complete --timeout 10m -o json`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWatch(cmd.Context(), s, view, kube, args, rec)
		},
		ValidArgsFunction: kube.completeTarget,
	}
	kube.addFlags(cmd.Flags())
	cmd.Flags().StringArrayVarP(&rec.outputs, "output", "o", nil, "the recording FILE to write (required); -o json also prints the final timeline as JSON")
	cmd.Flags().StringVar(&rec.untilArg, "until", "", "stop once the pods are complete, deleted or ready (a Job: Complete/Failed, deleted)")
	cmd.Flags().DurationVar(&rec.timeout, "timeout", 0, "stop after this long; with --until unmet, exit 2 (the recording is kept)")
	cmd.Flags().DurationVar(&rec.linger, "linger", 2*time.Second, "go on this long after --until is met, for the Events that trail it")
	_ = cmd.MarkFlagFilename("output", "jsonl")
	return cmd
}

// validate reads -o (a file, and json) and --until.
func (r *recordOptions) validate() error {
	for _, o := range r.outputs {
		switch {
		case o == "json":
			r.json = true
		case r.path != "":
			return fmt.Errorf("-o: one recording file at a time (%s and %s)", r.path, o)
		default:
			r.path = o
		}
	}
	if r.path == "" {
		return errors.New("record needs -o FILE: where to write the recording")
	}
	var err error
	r.until, err = parseUntil(r.untilArg)
	if err != nil {
		return err
	}
	if r.timeout < 0 || r.linger < 0 {
		return errors.New("--timeout and --linger cannot be negative")
	}
	return nil
}

// create opens the recording, refusing to overwrite one, and writes its header.
func (r *recordOptions) create(ns string, t watch.Target, serverVersion string) (*os.File, error) {
	f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("%s exists: record will not overwrite it; choose another name", r.path)
	}
	if err != nil {
		return nil, err
	}
	r.recorder, err = watch.NewRecorder(f, watch.Header{
		Tool: "sidecar-top " + version, ServerVersion: serverVersion,
		Namespace: ns, Target: t.String(), StartTime: time.Now().UTC(),
	})
	if err != nil {
		f.Close()
		return nil, err
	}
	r.file = f
	return f, nil
}

// finish closes the recording, says what was written, prints JSON if asked, and turns an
// unmet --until at --timeout into exit status 2.
func (r *recordOptions) finish(ctx context.Context, s streams, t watch.Target, res play.Result) error {
	if err := r.file.Close(); err != nil {
		return fmt.Errorf("close %s: %w", r.path, err)
	}
	fmt.Fprintf(s.ErrOut, "sidecar-top: recorded %d watch events to %s\n", res.Items, r.path)
	if r.json {
		if err := writeJSON(s.Out, t.Namespace, t.String(), res.Final, false); err != nil {
			return err
		}
	}
	if r.until != untilNone && !res.Met && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return exitCode{2, fmt.Sprintf("--timeout %s passed before --until %s was met; the recording is kept in %s", r.timeout, r.until, r.path)}
	}
	return nil
}
