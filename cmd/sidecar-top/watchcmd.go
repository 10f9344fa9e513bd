package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
	"github.com/sidecar-top/sidecar-top/watch"
)

// runWatch watches the target live: the view on a terminal, plain lines elsewhere. With rec it
// also writes a recording and stops as record's flags say.
func runWatch(ctx context.Context, s streams, view *viewOptions, kube *kubeOptions, args []string, rec *recordOptions) error {
	mode, err := view.colorMode()
	if err != nil {
		return err
	}
	t, ns, err := kube.target(args)
	if err != nil {
		return err
	}
	if rec != nil {
		if err := rec.validate(); err != nil {
			return err
		}
	}
	client, host, err := kube.client()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	serverVersion, err := watch.Preflight(ctx, client, t, host)
	if err != nil {
		return err
	}
	live := watch.NewLive(client, t)
	f := newFeed(live, t)
	if rec != nil {
		file, err := rec.create(ns, t, serverVersion)
		if err != nil {
			return err
		}
		defer file.Close()
		f.rec, f.until, f.linger = rec.recorder, rec.until, rec.linger
		if rec.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, rec.timeout)
			defer cancel()
		}
	}
	if err := live.Start(ctx); err != nil {
		return watch.Explain(err, host)
	}
	var met bool
	switch {
	case s.terminal && !view.plain:
		met, err = runLiveView(ctx, s, mode, f, t)
	case rec != nil && rec.json:
		met, err = f.run(ctx, func(timeline.Observation) {}, warnTo(s))
	default:
		fmt.Fprintf(s.ErrOut, "sidecar-top: watching %s in namespace %s (Ctrl-C to stop)\n", t, ns)
		met, err = runPlain(ctx, s, f)
	}
	if err != nil {
		return err
	}
	if rec != nil {
		return rec.finish(ctx, s, f, met)
	}
	return nil
}

// runPlain prints one line per new milestone as it happens, then the summary.
func runPlain(ctx context.Context, s streams, f *feed) (bool, error) {
	plain := ui.NewPlain(s.Out)
	met, err := f.run(ctx, func(timeline.Observation) { plain.Update(f.builder.Snapshot()) }, warnTo(s))
	plain.Summary(f.builder.Snapshot())
	return met, err
}

func warnTo(s streams) func(error) {
	return func(err error) { fmt.Fprintln(s.ErrOut, "sidecar-top: warning: "+oneLine(err.Error())) }
}

// runLiveView runs the Bubble Tea view while the feed runs in its own goroutine and sends it
// messages; the view quits when the user asks, or when the feed ends (record's --until).
func runLiveView(ctx context.Context, s streams, mode ui.ColorMode, f *feed, t watch.Target) (bool, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	msgs := make(chan tea.Msg)
	send := func(m tea.Msg) {
		select {
		case msgs <- m:
		case <-ctx.Done():
		}
	}
	m := ui.NewModel(ui.Config{
		Target:    t.String(),
		Namespace: t.Namespace,
		Mode:      ui.Live,
		Feed:      msgs,
		Styles:    ui.NewStyles(ui.NewRenderer(s.Out, mode, os.Getenv("NO_COLOR"))),
	})
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithInput(s.In), tea.WithOutput(s.Out), tea.WithContext(ctx))
	type result struct {
		met bool
		err error
	}
	done := make(chan result, 1)
	go func() {
		met, err := f.run(ctx, func(o timeline.Observation) { send(ui.ObservationsMsg{o}) },
			func(err error) { send(ui.WatchErrorMsg{Err: err}) })
		done <- result{met, err}
		p.Quit()
	}()
	_, err := p.Run()
	cancel()
	r := <-done
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
		return r.met, err
	}
	return r.met, r.err
}
