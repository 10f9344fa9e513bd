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

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
	"github.com/sidecar-top/sidecar-top/watch"
)

func newReplayCommand(s streams, view *viewOptions) *cobra.Command {
	opts := &replayOptions{}
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Play a recording in the same view, at its recorded pace",
		Long: `replay plays a recording made by sidecar-top record (or one without its header line) in
the same view as a live watch, through the same translation and timeline builder. Keys:
space pause, n/p next/previous milestone, s speed, G end, ? help. FILE - reads standard input.

A pause of the recording longer than --idle-limit plays for --idle-limit (divided by the speed),
as asciinema's idle time limit does, and the view or the plain output says so.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			mode, err := opts.validate(cmd.Flags(), view, s.terminal)
			if err != nil {
				return err
			}
			name := args[0]
			r, done, err := s.open(name)
			if err != nil {
				return err
			}
			defer done()
			return runReplay(cmd.Context(), s, view, opts, mode, name, r)
		},
	}
	opts.addFlags(cmd.Flags())
	addViewFlags(cmd.Flags(), view)
	view.report.addFlags(cmd.Flags())
	return cmd
}

func newDemoCommand(s streams, view *viewOptions) *cobra.Command {
	opts := &replayOptions{}
	list := false
	cmd := &cobra.Command{
		Use:   "demo [NAME]",
		Short: "Replay a real recording built into sidecar-top: no cluster needed",
		Long: `demo replays one of the real recordings built into sidecar-top, made on a real kubelet:
` + strings.Join(recordings.Names(), ", ") + `. The default is startup-probe: an init container,
a native sidecar gated by a startup probe, an app, then deletion.`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return recordings.Names(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if list {
				fmt.Fprintln(s.Out, strings.Join(recordings.Names(), "\n"))
				return nil
			}
			mode, err := opts.validate(cmd.Flags(), view, s.terminal)
			if err != nil {
				return err
			}
			name := "startup-probe"
			if len(args) == 1 {
				name = args[0]
			}
			f, err := recordings.Open(name)
			if err != nil {
				return fmt.Errorf("no demo recording %q: choose one of %s", name, strings.Join(recordings.Names(), ", "))
			}
			defer f.Close()
			return runReplay(cmd.Context(), s, view, opts, mode, "demo:"+name, f)
		},
	}
	opts.addFlags(cmd.Flags())
	addViewFlags(cmd.Flags(), view)
	view.report.addFlags(cmd.Flags())
	cmd.Flags().BoolVar(&list, "list", false, "list the built-in recordings")
	return cmd
}

// runReplay plays a recording: streamed through the player for JSON and plain output (read
// once, nothing held but the timeline), or translated whole for the view, which seeks back and
// forth in it.
func runReplay(ctx context.Context, s streams, view *viewOptions, opts *replayOptions, mode ui.ColorMode, name string, r io.Reader) error {
	rd, err := recfile.NewReader(r, name, readerOptions(opts, r))
	if err != nil {
		return err
	}
	in := replayed{name: name, r: r, rd: rd}
	if h := rd.Header(); h != nil {
		in.ns, in.target, in.note = h.Namespace, h.Target, oldServerNote(h.ServerVersion)
	}
	sayNote(s.ErrOut, in.note)
	switch {
	case opts.output != "":
		return replayDocument(ctx, s, view, opts, in)
	case s.terminal && !view.plain && growing(r):
		return replayGrowing(ctx, s, mode, rd, opts, name, in.target, in.ns, view)
	case s.terminal && !view.plain:
		return replayView(ctx, s, view, opts, mode, in)
	}
	return replayPlain(ctx, s, view, opts, name, rd, in.note)
}

// readerOptions are what a replay wants of its reader: the observations only, and for the
// document a heap bounded by the lines read (boundHeap).
func readerOptions(opts *replayOptions, r io.Reader) recfile.Options {
	o := recfile.Options{Objects: recfile.NoObjects}
	if opts.output != "" {
		o.Progress = boundHeap(r)
	}
	return o
}

// replayed is the recording a replay reads: its name, the reader under it, and what its header
// says (the namespace, the target, and the note on an old server).
type replayed struct {
	name, ns, target, note string
	r                      io.Reader
	rd                     *recfile.Reader
}

// replayDocument prints the recording's final timeline as a JSON or YAML document.
func replayDocument(ctx context.Context, s streams, view *viewOptions, opts *replayOptions, in replayed) error {
	// The pods are written as they are derived, unless the summary is asked for (it reads
	// them all at once) or -c narrows their lanes (filtered in the final snapshot).
	stream := !view.report.summary && view.lanes == nil
	res, err := play.RunFile(ctx, source.OfRecording(in.rd), 0, play.Options{Stream: stream}, nil)
	if err != nil {
		return err
	}
	sayTruncated(s, in.name, in.rd)
	if stream {
		if res.Stream.Empty() {
			return errNothing(in.name)
		}
		if opts.output == "yaml" {
			return writeYAML(s.Out, func(w io.Writer) error { return writeStream(w, in.ns, in.target, res.Stream, in.note, false) })
		}
		return writeStream(s.Out, in.ns, in.target, res.Stream, in.note, opts.pretty)
	}
	if noTimeline(res.Final) {
		return errNothing(in.name)
	}
	return writeDocumentAs(s.Out, opts.output, view.report.document(in.ns, in.target, view.lanes.snapshot(withNote(res.Final, in.note))), opts.pretty)
}

// replayView reads the whole recording and plays it in the view, which seeks back and forth in it.
func replayView(ctx context.Context, s streams, view *viewOptions, opts *replayOptions, mode ui.ColorMode, in replayed) error {
	obs, err := readObservations(ctx, in.rd)
	if err != nil {
		return err
	}
	sayTruncated(s, in.name, in.rd)
	if len(obs) == 0 {
		return errNothing(in.name)
	}
	r := play.NewReplay(obs, opts.speed, false, 0)
	r.SetIdleLimit(opts.idleLimit)
	return runReplayView(ctx, s, mode, r, in.target, in.ns, view)
}

// replayPlain plays a recording as plain lines, then their summary. Interrupted (Ctrl-C,
// SIGTERM), it prints the lines it holds and the summary of what it replayed, and says so.
func replayPlain(ctx context.Context, s streams, view *viewOptions, opts *replayOptions, name string, rd *recfile.Reader, note string) error {
	ctx, stopSignals := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	pace := play.Pace{IdleLimit: opts.idleLimit}
	if opts.paced {
		pace.Speed = opts.speed // else as fast as it can: a pipe wants the result
	}
	feed := newPlainFeed(s.Out, pace.Speed, view.report, view.lanes) // lines held in a paced replay come out as it waits
	pace.Idle = feed.idle
	stop := feed.start(ctx)
	res, err := play.RunFilePaced(ctx, source.OfRecording(feed.source(rd)), pace, play.Options{}, feed.frame)
	stop()
	interrupted := ctx.Err() != nil
	stopSignals() // a second Ctrl-C ends the program at once
	if err != nil {
		return err
	}
	switch {
	case interrupted && noTimeline(res.Final):
		return errInterrupted
	case interrupted:
		if err := feed.finish(withNote(res.Final, note)); err != nil {
			return err
		}
		return errInterrupted
	}
	sayTruncated(s, name, rd)
	if noTimeline(res.Final) {
		return errNothing(name) // as -o json and the view say: no output is not a timeline
	}
	return feed.finish(withNote(res.Final, note))
}

// errInterrupted ends a replay stopped by Ctrl-C (or SIGTERM) with exit status 130, as a shell
// reports a program that SIGINT ended.
var errInterrupted = exitCode{130, "interrupted: what is above is the recording as far as it was replayed"}

// sayTruncated says, once a replay has read its recording to the end, if the last line was cut.
func sayTruncated(s streams, name string, rd *recfile.Reader) {
	if rd.Truncated {
		say(s.ErrOut, "%s: the last line was cut short (the recorder stopped mid-write); replaying the lines before it", name)
	}
}

// noTimeline reports whether a replay's timeline holds nothing: no pod, job or Event.
func noTimeline(s timeline.Snapshot) bool {
	return s.Pods.Len() == 0 && len(s.Jobs) == 0 && len(s.Orphans) == 0
}

// errNothing is the error of a recording that holds nothing the timeline shows.
func errNothing(name string) error {
	return fmt.Errorf("%s: no Pod, Event or Job in the recording", name)
}

// readObservations reads every observation of a recording, as its reader's workers translated
// them.
func readObservations(ctx context.Context, rd *recfile.Reader) ([]timeline.Observation, error) {
	var obs []timeline.Observation
	for {
		r, err := rd.Next(ctx)
		if err == io.EOF {
			return obs, nil
		}
		if err != nil {
			return nil, err
		}
		if r.IsObs {
			obs = append(obs, r.Obs)
		}
	}
}

// runReplayView plays the replay in the view until the user quits.
func runReplayView(ctx context.Context, s streams, mode ui.ColorMode, r *play.Replay, target, ns string, view *viewOptions) error {
	ctx, cancel := untilHangup(ctx)
	defer cancel()
	go r.Run(ctx)
	cfg := replayConfig(r, target, ns, viewStyles(s, mode))
	cfg.Frames = view.lanes.frames(ctx, cfg.Frames)
	cfg.Explain, cfg.Summary = view.report.explain, view.report.summary
	m := ui.NewModel(cfg)
	_, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithInput(s.In), tea.WithOutput(s.Out), tea.WithContext(ctx)).Run()
	if errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// replayConfig is the view of replay r: README's capture is drawn from it too.
// A recording of a scope (record -A, record -n NS with no target) opens on the fleet table.
func replayConfig(r *play.Replay, target, ns string, styles ui.Styles) ui.Config {
	scope, all := watch.IsScope(target)
	return ui.Config{Target: target, Namespace: ns, Mode: ui.Replay, Frames: r.Frames(), Control: r, Styles: styles,
		Fleet: scope, SidecarsOnly: all}
}
