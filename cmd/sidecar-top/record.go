package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/watch"
)

// stdoutPath is the --output-file that writes the recording to standard output.
const stdoutPath = "-"

// recordFileFlag names record's file. -o is the output format, as everywhere in kubectl and
// here; the file gets a flag of its own, named as kubectl names where a command writes files
// (cluster-info dump's --output-directory). Not -f: kubectl's -f is always a file it reads.
const recordFileFlag = "output-file"

// recordOptions are record's own flags, and the recording it writes.
type recordOptions struct {
	outputs  []string // -o, as given: a format (json, yaml), or the old form's file
	path     string   // --output-file: the recording's file, or stdoutPath
	untilArg string
	timeout  time.Duration
	linger   time.Duration

	// Set by validate.
	format string // -o json or yaml: print the final timeline so at the end; "" for none
	until  untilCondition

	// Set by open and start.
	w        io.Writer
	file     *os.File   // nil when writing to standard output
	z        compressor // the file's gzip or zstd stream (--output-file NAME.gz, NAME.zst); nil for a plain one
	recorder *recfile.Recorder
	logs     *logPlan // what the recording holds of the logs, for its header

	report *reportOptions // what -o json and -o yaml add (--summary)
}

func newRecordCommand(s streams, view *viewOptions) *cobra.Command {
	rec := &recordOptions{report: &view.report}
	kube := &kubeOptions{config: newConfigFlags()}
	cmd := &cobra.Command{
		Use:   "record [flags] POD | TYPE/NAME | -l SELECTOR --output-file FILE",
		Short: "Watch a target and write what the API server sends to a recording",
		Long: `record watches a target as sidecar-top does and writes every Pod, Event and Job the API
server sends, with the local time it arrived, to FILE (JSON Lines; see README). Secrets stay
out: managedFields, the last-applied annotation and environment values are removed.

FILE must not exist: record creates it before it connects, and refuses at once a name that
exists or cannot be created. --output-file - writes the recording to standard output; the live
view is then off, and the plain lines and messages go to standard error.

It stops on Ctrl-C, or once --until is met (and --linger has passed), or at --timeout, which
counts from the start, connecting included. With -o json (or -o yaml), it prints the final
timeline so on standard output at the end.`,
		Example: `  sidecar-top record -n shop pod/checkout --output-file checkout.jsonl --until deleted
  sidecar-top record -n batch job/export --output-file export.jsonl --until complete --timeout 10m -o json
  sidecar-top record -n shop pod/checkout --output-file - --until deleted | gzip > checkout.jsonl.gz`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWatch(cmd.Context(), s, view, kube, args, rec)
		},
		ValidArgsFunction: kube.completeTarget,
	}
	kube.addFlags(cmd.Flags())
	kube.logs.addRecordFlags(cmd.Flags())
	rec.addFlags(cmd.Flags())
	addViewFlags(cmd.Flags(), view)
	view.report.addFlags(cmd.Flags())
	_ = cmd.MarkFlagFilename(recordFileFlag, "jsonl", "gz", "zst")
	return cmd
}

func (r *recordOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&r.path, recordFileFlag, "", "the recording FILE to write (required; - for standard output; FILE.gz or FILE.zst compressed)")
	fs.StringArrayVarP(&r.outputs, "output", "o", nil, "json or yaml: also print the final timeline so at the end")
	fs.StringVar(&r.untilArg, "until", "", "stop once the pods are complete, deleted or ready (a Job: Complete/Failed, deleted)")
	fs.DurationVar(&r.timeout, "timeout", 0, "stop after this long from the start, connecting included; with --until unmet, exit 2 (the recording is kept)")
	fs.DurationVar(&r.linger, "linger", 2*time.Second, "go on this long after --until is met, for the Events that trail it")
}

// validate reads -o (a format), --output-file and --until, before anything is opened. -o FILE,
// record's old form, is refused with the flag that names the file now.
func (r *recordOptions) validate() error {
	for _, o := range r.outputs {
		switch {
		case o != "json" && o != "yaml":
			return fmt.Errorf("-o %q: -o is the output format (json or yaml); record's file is --%s %s", o, recordFileFlag, o)
		case r.format != "" && r.format != o:
			return fmt.Errorf("-o: one output format at a time (%s and %s)", r.format, o)
		}
		r.format = o
	}
	if r.path == "" {
		return fmt.Errorf("record needs --%s FILE: where to write the recording (- for standard output)", recordFileFlag)
	}
	if r.toStdout() && r.format != "" {
		return fmt.Errorf("--%s - writes the recording to standard output, so -o %s cannot print there too: record to a file, then replay it with -o %s", recordFileFlag, r.format, r.format)
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

// toStdout says whether the recording goes to standard output.
func (r *recordOptions) toStdout() bool { return r.path == stdoutPath }

// where names the recording's destination in messages.
func (r *recordOptions) where() string {
	if r.toStdout() {
		return "standard output"
	}
	return r.path
}

// open creates the recording's file before anything connects, refusing to overwrite one (an
// input least of all): a name that exists or cannot be created fails at once. -o - writes to
// stdout. The recording is written where it is named, not renamed there at the end: a recorder
// killed at any moment leaves what it had recorded, up to its last whole line.
func (r *recordOptions) open(stdout io.Writer, inputs inputFiles) error {
	if r.toStdout() {
		r.w = stdout
		return nil
	}
	if err := inputs.sameAsInput("--"+recordFileFlag, r.path); err != nil { // creating it below says the rest
		return err
	}
	f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s exists: record will not overwrite it; choose another name", r.path)
	}
	if err != nil {
		return fmt.Errorf("cannot create the recording: %w", err)
	}
	r.w, r.file = f, f
	if r.z, err = compressorFor(r.path, f); err != nil {
		f.Close()
		os.Remove(r.path)
		return fmt.Errorf("cannot create the recording: %w", err)
	}
	if r.z != nil {
		r.w = flushEach{r.z}
	}
	return nil
}

// closeFile ends the compressed stream, if any, and closes the file.
func (r *recordOptions) closeFile() error {
	var zerr error
	if r.z != nil {
		zerr = r.z.Close()
		r.z = nil
	}
	err := r.file.Close()
	r.file = nil
	if zerr != nil {
		return zerr
	}
	return err
}

// start writes the recording's header, once connected.
func (r *recordOptions) start(ns string, t watch.Target, serverVersion string) error {
	h := recfile.Header{
		Tool: "sidecar-top " + version, ServerVersion: serverVersion,
		Namespace: ns, Target: t.String(), StartTime: time.Now().UTC(),
		Redacted: watch.Redacted, // what the Live's Sanitize removed from every object
	}
	if r.logs != nil {
		r.logs.describe(&h)
	}
	var err error
	r.recorder, err = recfile.NewRecorder(r.w, h)
	return err
}

// abandon closes the file after an error and, if it holds no item, removes it: an error never
// leaves an empty recording behind. open created the file, so it is nobody else's.
func (r *recordOptions) abandon(items int) {
	if r.file == nil {
		return
	}
	r.closeFile()
	if items == 0 {
		os.Remove(r.path)
	}
}

// finish closes the recording, says what was written, prints JSON or YAML if asked, and turns an
// unmet --until at --timeout into exit status 2.
func (r *recordOptions) finish(ctx context.Context, s streams, t watch.Target, res play.Result, lanes *laneFilter) error {
	if r.file != nil {
		if err := r.closeFile(); err != nil {
			return fmt.Errorf("close %s: %w", r.path, err)
		}
	}
	say(s.ErrOut, "recorded %d watch events to %s", res.Items, r.where())
	if r.format != "" {
		if err := writeDocumentAs(s.Out, r.format, r.report.document(t.Namespace, t.String(), lanes.snapshot(res.Final)), false); err != nil {
			return err
		}
	}
	if r.until != untilNone && !res.Met && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		kept := "the recording is kept in " + r.path
		if r.toStdout() {
			kept = "the recording on standard output is whole"
		}
		return exitCode{2, fmt.Sprintf("--timeout %s passed before --until %s was met; %s", r.timeout, r.until, kept)}
	}
	return nil
}
