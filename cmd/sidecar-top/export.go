package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sidecar-top/sidecar-top/export"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// exportCommandOptions are the flags of sidecar-top export.
type exportCommandOptions struct {
	output string // -o: the format
	format string // --format: the same, its older name
	file   string // --output-file
	pod    string
	otlp   otlpFlags
}

// otlpFlags say where -o otlp sends.
type otlpFlags struct {
	endpoint string
	insecure bool
	headers  map[string]string
	service  string
	timeout  time.Duration
	shift    bool           // --shift-to-now
	flags    *pflag.FlagSet // to tell an --otlp-* flag given from its default
}

func (o *otlpFlags) options() export.OTLPOptions {
	return export.OTLPOptions{Endpoint: o.endpoint, Insecure: o.insecure, Headers: o.headers,
		ServiceName: o.service, Timeout: o.timeout}
}

func newExportCommand(s streams) *cobra.Command {
	opts := &exportCommandOptions{}
	cmd := &cobra.Command{
		Use:   "export FILE -o perfetto|markdown|svg|otlp [--output-file OUT]",
		Short: "Write a recording's timeline for Perfetto, a GitHub issue, a picture, or an OTLP backend",
		Long: `export plays a recording to its end, as replay does, and writes its final timeline in
another form (FILE - reads standard input):

  perfetto  Chrome trace-event JSON: open it in ui.perfetto.dev or chrome://tracing. A process
            per pod, a thread per container; a slice per state, an instant per milestone with
            its bounds, source and evidence in its args.
  markdown  a report to paste into a GitHub issue: the pod's header, its lanes as text, the
            milestone table with offsets, gaps, bounds and why, the named gaps and why,
            findings, Events, a Job's lane and conditions, and the environment (server and tool
            versions, node, container runtime).
  svg       the lanes as a picture in the view's colours, with a time axis (above as well
            when they are tall), and under them the named gaps and the findings.
  otlp      OpenTelemetry traces sent over OTLP/HTTP to --otlp-endpoint: a trace per pod (its
            ID is the pod's UID), a span per container run and per state, span events for the
            milestones. Exporting again sends the same IDs. HOST:PORT is sent over HTTPS
            unless --otlp-insecure; --shift-to-now moves every time by one amount so that the
            traces end now (each root span says by how much: sidecar_top.time_shift_s).

-o (--output, or --format) is the format, as -o is everywhere. Text formats go to standard
output unless --output-file OUT is given. --pod keeps one pod of a workload.
The OTEL_EXPORTER_OTLP_* environment variables apply where a flag is not given.`,
		Example: `  sidecar-top export checkout.jsonl -o perfetto --output-file checkout.trace.json
  sidecar-top export checkout.jsonl -o markdown | gh issue comment 42 -F -
  sidecar-top export checkout.jsonl -o svg --output-file checkout.svg
  sidecar-top export checkout.jsonl -o otlp --otlp-endpoint http://localhost:4318`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return opts.run(cmd.Context(), s, args[0])
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&opts.output, "output", "o", "", "the format (required): perfetto, markdown, svg or otlp")
	fs.StringVar(&opts.format, "format", "", "the same as -o")
	fs.StringVar(&opts.file, "output-file", "", "the file to write (text formats; default standard output)")
	fs.StringVar(&opts.pod, "pod", "", "export only the pod of this name or UID")
	opts.otlp.addFlags(fs)
	for _, name := range []string{"output", "format"} {
		_ = cmd.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return exportFormatNames(), cobra.ShellCompDirectiveNoFileComp
		})
	}
	return cmd
}

func exportFormatNames() []string {
	var names []string
	for _, f := range export.Formats() {
		names = append(names, string(f))
	}
	return names
}

// exportFormat is the format -o or --format gives. -o was once the file, as it is in no other
// command: a value that names no format is taken for that old form and refused with the flag
// that is the file now.
func (o *exportCommandOptions) exportFormat() (export.Format, error) {
	if o.output != "" {
		if _, err := export.ParseFormat(o.output); err != nil {
			return "", fmt.Errorf("-o %q: -o is the format (%s); export's file is --output-file %s", o.output, orList(exportFormatNames()), o.output)
		}
	}
	switch {
	case o.output == "" && o.format == "":
		return "", fmt.Errorf("give the format: -o %s", orList(exportFormatNames()))
	case o.output != "" && o.format != "" && o.output != o.format:
		return "", fmt.Errorf("--format %s and -o %s: give the format once", o.format, o.output)
	case o.output != "":
		return export.ParseFormat(o.output)
	}
	return export.ParseFormat(o.format)
}

// orList is "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func (o *otlpFlags) addFlags(fs *pflag.FlagSet) {
	o.flags = fs
	fs.StringVar(&o.endpoint, "otlp-endpoint", "", "OTLP/HTTP receiver: http://HOST:4318, https://HOST or HOST:PORT (HTTPS unless --otlp-insecure)")
	fs.BoolVar(&o.insecure, "otlp-insecure", false, "send to a HOST:PORT endpoint over plain HTTP")
	fs.StringToStringVar(&o.headers, "otlp-header", nil, "a header to send, KEY=VALUE (repeatable), e.g. Authorization=Bearer ...")
	fs.StringVar(&o.service, "otlp-service-name", "sidecar-top", "the traces' service.name")
	fs.DurationVar(&o.timeout, "otlp-timeout", 30*time.Second, "give up sending after this long")
	fs.BoolVar(&o.shift, "shift-to-now", false, "move every time of the traces by the same amount, so that they end now (an old recording in a backend's last hour)")
}

// given is the name of the first --otlp-* flag given on the command line, or "".
func (o *otlpFlags) given() string {
	for _, name := range []string{"otlp-endpoint", "otlp-insecure", "otlp-header", "otlp-service-name", "otlp-timeout", "shift-to-now"} {
		if f := o.flags.Lookup(name); f != nil && f.Changed {
			return name
		}
	}
	return ""
}

// run reads the recording and writes or sends its timeline. Every flag is checked before the
// recording is read.
func (o *exportCommandOptions) run(ctx context.Context, s streams, name string) error {
	f, err := o.exportFormat()
	if err != nil {
		return err
	}
	inputs, err := o.check(f, name, s.In)
	if err != nil {
		return err
	}
	r, done, err := s.open(name)
	if err != nil {
		return err
	}
	defer done()
	in, err := o.input(ctx, s, r, name)
	if err != nil {
		return err
	}
	if !f.Text() {
		return o.send(ctx, s, in)
	}
	return writeExport(s.Out, f, o.file, in, inputs)
}

// check refuses the flags that format f has no use for, an endpoint that cannot be one, and an
// --output-file that is the recording name. It returns what the run reads.
func (o *exportCommandOptions) check(f export.Format, name string, stdin io.Reader) (inputFiles, error) {
	if !f.Text() && o.file != "" {
		return nil, errors.New("--output-file: -o otlp sends to --otlp-endpoint; it writes no file")
	}
	if given := o.otlp.given(); f.Text() && given != "" {
		return nil, fmt.Errorf("--%s is for -o otlp, not %s", given, f)
	}
	if !f.Text() {
		if err := export.CheckEndpoint(o.otlp.endpoint); err != nil {
			return nil, fmt.Errorf("--otlp-endpoint %w", err)
		}
	}
	var inputs inputFiles
	inputs.add(name, stdin)
	if o.file != "" && o.file != "-" {
		if err := inputs.refuse("--output-file", o.file); err != nil {
			return nil, err
		}
	}
	return inputs, nil
}

// input plays recording r to its end (saying so when its last line was cut short), as --pod
// asks: that pod only.
func (o *exportCommandOptions) input(ctx context.Context, s streams, r io.Reader, name string) (export.Input, error) {
	in, truncated, err := exportInput(ctx, r, name)
	if err != nil {
		return export.Input{}, err
	}
	if truncated {
		say(s.ErrOut, "%s: the last line was cut short (the recorder stopped mid-write); exporting the lines before it", name)
	}
	in.About.ExportedBy = "sidecar-top " + version
	if o.pod != "" {
		return in.OnlyPod(o.pod)
	}
	return in, nil
}

// send sends in's traces to the OTLP endpoint, every time moved so that they end now with
// --shift-to-now, and says how many pods' it sent.
func (o *exportCommandOptions) send(ctx context.Context, s streams, in export.Input) error {
	opts, shifted := o.otlp.options(), ""
	if o.otlp.shift {
		opts.Shift = export.ShiftToNow(in, time.Now())
		shifted = fmt.Sprintf(", every time moved by %s so that they end now", opts.Shift.Round(time.Second))
	}
	if err := export.SendOTLP(ctx, in, opts); err != nil {
		return err
	}
	say(s.ErrOut, "sent %d pods' traces to %s%s", in.Snapshot.Pods.Len(), endpointName(o.otlp.endpoint), shifted)
	return nil
}

// writeExport writes in in format f to path, or to out when path is empty or -; never over one
// of inputs, and whole or not at all (writeOutput).
func writeExport(out io.Writer, f export.Format, path string, in export.Input, inputs inputFiles) error {
	if path == "" || path == "-" {
		return export.Write(out, f, in)
	}
	return writeOutput("export", path, inputs, func(w io.Writer) error { return export.Write(w, f, in) })
}

func endpointName(ep string) string {
	if ep == "" {
		return "the endpoint OTEL_EXPORTER_OTLP_ENDPOINT names (or localhost:4318)"
	}
	return ep
}

// exportSpec is one --export FORMAT=FILE of record and live mode; for otlp, FILE is the
// endpoint (http://HOST:4318).
type exportSpec struct {
	format export.Format
	target string
}

// exportFlag is --export, repeatable: what record and live mode write from the final timeline
// when they stop. It parses each value as it is given, so a bad one fails before anything
// connects.
type exportFlag struct{ specs []exportSpec }

var _ pflag.Value = (*exportFlag)(nil)

func (e *exportFlag) addFlags(fs *pflag.FlagSet) {
	fs.Var(e, "export", "at the end, write the timeline as FORMAT to FILE (repeatable): perfetto=FILE, markdown=FILE, svg=FILE, or otlp=ENDPOINT to send it")
}

func (e *exportFlag) String() string {
	var parts []string
	for _, s := range e.specs {
		parts = append(parts, string(s.format)+"="+s.target)
	}
	return strings.Join(parts, ",")
}

func (e *exportFlag) Type() string { return "FORMAT=FILE" }

func (e *exportFlag) Set(v string) error {
	name, target, ok := strings.Cut(v, "=")
	if !ok || target == "" {
		return fmt.Errorf("want FORMAT=FILE, e.g. markdown=pod.md or otlp=http://localhost:4318")
	}
	f, err := export.ParseFormat(name)
	if err != nil {
		return err
	}
	if !f.Text() {
		if err := export.CheckEndpoint(target); err != nil {
			return fmt.Errorf("otlp=ENDPOINT %w", err)
		}
	}
	e.specs = append(e.specs, exportSpec{format: f, target: target})
	return nil
}

// refuse is an error if a file of --export is one of inputs: said before anything connects.
func (e *exportFlag) refuse(inputs inputFiles) error {
	for _, spec := range e.specs {
		if spec.format.Text() {
			if err := inputs.refuse("--export "+string(spec.format), spec.target); err != nil {
				return err
			}
		}
	}
	return nil
}

// write writes every --export from the final timeline, never over one of inputs. It runs after
// the watch has stopped, often because ctx was cancelled (Ctrl-C, --timeout), so it sends on a
// context of its own. Each export is tried; the errors are joined.
func (e *exportFlag) write(ctx context.Context, s streams, t watch.Target, serverVersion string, final timeline.Snapshot, inputs inputFiles) error {
	if len(e.specs) == 0 {
		return nil
	}
	in := export.Input{Snapshot: final, About: export.About{Name: "live", Namespace: t.Namespace, Target: t.String(),
		ServerVersion: serverVersion, ExportedBy: "sidecar-top " + version}}
	ctx = context.WithoutCancel(ctx)
	var errs []error
	for _, spec := range e.specs {
		var err error
		if spec.format.Text() {
			err = writeExport(s.Out, spec.format, spec.target, in, inputs)
		} else {
			err = export.SendOTLP(ctx, in, export.OTLPOptions{Endpoint: spec.target})
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("--export %s=%s: %w", spec.format, spec.target, err))
			continue
		}
		say(s.ErrOut, "exported the timeline as %s to %s", spec.format, spec.target)
	}
	return errors.Join(errs...)
}
