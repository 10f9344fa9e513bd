package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
	"github.com/sidecar-top/sidecar-top/watch"
)

// replayOptions are the flags of replay and demo.
type replayOptions struct {
	output string
	speed  string
}

func (o *replayOptions) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "json: print the final timeline as JSON instead of playing it")
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

// runReplay reads the whole recording first, so a malformed line fails before anything plays.
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
	hdr, items, rd, err := watch.ReadAll(r, name)
	if err != nil {
		return err
	}
	if rd.Truncated {
		fmt.Fprintf(s.ErrOut, "sidecar-top: %s: the last line was cut short (the recorder stopped mid-write); replaying the lines before it\n", name)
	}
	obs := watch.Observations(items)
	if len(obs) == 0 {
		return fmt.Errorf("%s: no Pod, Event or Job in the recording", name)
	}
	ns, target := "", ""
	if hdr != nil {
		ns, target = hdr.Namespace, hdr.Target
	}
	switch {
	case opts.output == "json":
		b := timeline.NewBuilder()
		for _, o := range obs {
			b.Apply(o)
		}
		return writeJSON(s.Out, ns, target, b.Snapshot())
	case s.terminal && !view.plain:
		m := ui.NewModel(ui.Config{
			Target: target, Namespace: ns, Mode: ui.Replay, Recording: obs, Speed: speed,
			Styles: ui.NewStyles(ui.NewRenderer(s.Out, mode, os.Getenv("NO_COLOR"))),
		})
		_, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithInput(s.In), tea.WithOutput(s.Out), tea.WithContext(cmd.Context())).Run()
		if errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	if !cmd.Flags().Changed("speed") {
		speed = 0
	}
	plain := ui.NewPlain(s.Out)
	b := timeline.NewBuilder()
	for i, o := range obs {
		if i > 0 && speed > 0 {
			time.Sleep(time.Duration(float64(o.Received.Sub(obs[i-1].Received)) / speed))
		}
		b.Apply(o)
		plain.Update(b.Snapshot())
	}
	plain.Summary(b.Snapshot())
	return nil
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
