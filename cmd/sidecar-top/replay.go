package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
	"github.com/sidecar-top/sidecar-top/watch"
)

// replayOptions are the flags of replay and demo.
type replayOptions struct {
	output string
	speed  string
	pretty bool // -o json indented
}

func (o *replayOptions) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "json: print the final timeline as JSON instead of playing it")
	cmd.Flags().BoolVar(&o.pretty, "pretty", false, "with -o json: indent the JSON (it is compact otherwise)")
	cmd.Flags().StringVar(&o.speed, "speed", "1", "playing speed: 1, 2, 10 or max (plain output defaults to max)")
}

func newReplayCommand(s streams, view *viewOptions) *cobra.Command {
	opts := &replayOptions{}
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Play a recording in the same view, at its recorded pace",
		Long: `replay plays a recording made by sidecar-top record (or one without its header line) in
the same view as a live watch, through the same translation and timeline builder. Keys:
space pause, n/p next/previous milestone, s speed, G end, ? help. FILE - reads standard input.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			var r io.Reader = s.In
			if name != "-" {
				f, err := os.Open(name)
				if err != nil {
					return err
				}
				defer f.Close()
				r = f
			}
			return runReplay(cmd, s, view, opts, name, r)
		},
	}
	opts.addFlags(cmd)
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
			name := "startup-probe"
			if len(args) == 1 {
				name = args[0]
			}
			f, err := recordings.Open(name)
			if err != nil {
				return fmt.Errorf("no demo recording %q: choose one of %s", name, strings.Join(recordings.Names(), ", "))
			}
			defer f.Close()
			return runReplay(cmd, s, view, opts, "demo:"+name, f)
		},
	}
	opts.addFlags(cmd)
	cmd.Flags().BoolVar(&list, "list", false, "list the built-in recordings")
	return cmd
}

// runReplay plays a recording: streamed through the player for JSON and plain output (read
// once, nothing held but the timeline), or translated whole for the view, which seeks back and
// forth in it.
func runReplay(cmd *cobra.Command, s streams, view *viewOptions, opts *replayOptions, name string, r io.Reader) error {
	if opts.output != "" && opts.output != "json" {
		return fmt.Errorf("-o %q: the only output format is json", opts.output)
	}
	speed, err := parseSpeed(opts.speed)
	if err != nil {
		return err
	}
	mode, err := view.colorMode()
	if err != nil {
		return err
	}
	rd, err := watch.NewReader(r, name)
	if err != nil {
		return err
	}
	ns, target := "", ""
	if h := rd.Header(); h != nil {
		ns, target = h.Namespace, h.Target
	}
	ctx := cmd.Context()
	truncated := func() {
		if rd.Truncated {
			fmt.Fprintf(s.ErrOut, "sidecar-top: %s: the last line was cut short (the recorder stopped mid-write); replaying the lines before it\n", name)
		}
	}
	switch {
	case opts.output == "json":
		res, err := play.RunFile(ctx, rd, 0, play.Options{}, nil)
		if err != nil {
			return err
		}
		truncated()
		if len(res.Final.Pods) == 0 && len(res.Final.Jobs) == 0 && len(res.Final.Orphans) == 0 {
			return fmt.Errorf("%s: no Pod, Event or Job in the recording", name)
		}
		return writeJSON(s.Out, ns, target, res.Final, opts.pretty)
	case s.terminal && !view.plain:
		obs, err := readObservations(ctx, rd)
		if err != nil {
			return err
		}
		truncated()
		if len(obs) == 0 {
			return fmt.Errorf("%s: no Pod, Event or Job in the recording", name)
		}
		return runReplayView(ctx, s, mode, play.NewReplay(obs, speed, false, 0), target, ns)
	}
	if !cmd.Flags().Changed("speed") {
		speed = 0
	}
	plain := ui.NewPlain(s.Out)
	res, err := play.RunFile(ctx, rd, speed, play.Options{}, func(f play.Frame) { plain.Update(f.Snapshot) })
	if err != nil {
		return err
	}
	truncated()
	plain.Summary(res.Final)
	return plain.Err()
}

// readObservations translates every item of a recording, keeping the observations only.
func readObservations(ctx context.Context, src watch.Source) ([]timeline.Observation, error) {
	var obs []timeline.Observation
	for {
		it, err := src.Next(ctx)
		if err == io.EOF {
			return obs, nil
		}
		if err != nil {
			return nil, err
		}
		if o, ok := watch.Observe(it); ok {
			obs = append(obs, o)
		}
	}
}

// runReplayView plays the replay in the view until the user quits.
func runReplayView(ctx context.Context, s streams, mode ui.ColorMode, r *play.Replay, target, ns string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go r.Run(ctx)
	m := ui.NewModel(ui.Config{
		Target: target, Namespace: ns, Mode: ui.Replay, Frames: r.Frames(), Control: r,
		Styles: ui.NewStyles(ui.NewRenderer(s.Out, mode, os.Getenv("NO_COLOR"))),
	})
	_, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithInput(s.In), tea.WithOutput(s.Out), tea.WithContext(ctx)).Run()
	if errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// parseSpeed reads a playing speed: a positive factor (1, 2.5, 10x, 10×) or max (0).
func parseSpeed(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "max" {
		return 0, nil
	}
	t = strings.TrimSuffix(strings.TrimSuffix(t, "x"), "×")
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f <= 0 || f > 1000 {
		return 0, fmt.Errorf("--speed %q: want a factor such as 1, 2 or 10, or max", s)
	}
	return f, nil
}
