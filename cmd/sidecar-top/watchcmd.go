package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/sidecar-top/sidecar-top/play"
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
	// Not recording, the informers keep only what translation reads.
	live := watch.NewLiveWithOptions(client, t, watch.LiveOptions{Recording: rec != nil})
	opts := play.Options{}
	if rec != nil {
		file, err := rec.create(ns, t, serverVersion)
		if err != nil {
			return err
		}
		defer file.Close()
		opts.Recorder, opts.Linger = rec.recorder, rec.linger
		if rec.until != untilNone {
			opts.Until = func(s timeline.Snapshot) bool { return rec.until.met(t, s) }
		}
		if rec.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, rec.timeout)
			defer cancel()
		}
	}
	if err := live.Start(ctx); err != nil {
		return watch.Explain(err, host)
	}
	var res play.Result
	switch {
	case s.terminal && !view.plain:
		res, err = runLiveView(ctx, s, mode, live, opts, t)
	case rec != nil && rec.json:
		res, err = play.RunLive(ctx, live, opts, warnTo(s))
	default:
		fmt.Fprintf(s.ErrOut, "sidecar-top: watching %s in namespace %s (Ctrl-C to stop)\n", t, ns)
		plain := ui.NewPlain(s.Out)
		warn := warnTo(s)
		res, err = play.RunLive(ctx, live, opts, func(f play.Frame) {
			plain.Update(f.Snapshot)
			warn(f)
		})
		plain.Summary(res.Final)
	}
	if err != nil {
		return err
	}
	if err := kube.exports.write(ctx, s, t, serverVersion, res.Final); err != nil {
		return err
	}
	if rec != nil {
		return rec.finish(ctx, s, t, res)
	}
	return nil
}

// warnTo prints each new watch error of the frames on standard error: they are not fatal.
func warnTo(s streams) func(play.Frame) {
	last := ""
	return func(f play.Frame) {
		if f.WatchErr == nil {
			last = ""
			return
		}
		if msg := oneLine(f.WatchErr.Error()); msg != last {
			last = msg
			fmt.Fprintln(s.ErrOut, "sidecar-top: warning: "+msg)
		}
	}
}

// runLiveView runs the Bubble Tea view while the player runs in its own goroutine and hands it
// frames; the view quits when the user asks, or when the player ends (record's --until).
func runLiveView(ctx context.Context, s streams, mode ui.ColorMode, src watch.Source, opts play.Options, t watch.Target) (play.Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	frames := make(chan play.Frame, 1)
	m := ui.NewModel(ui.Config{
		Target:    t.String(),
		Namespace: t.Namespace,
		Mode:      ui.Live,
		Frames:    frames,
		Styles:    ui.NewStyles(ui.NewRenderer(s.Out, mode, os.Getenv("NO_COLOR"))),
	})
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithInput(s.In), tea.WithOutput(s.Out), tea.WithContext(ctx))
	type result struct {
		res play.Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := play.RunLive(ctx, src, opts, func(f play.Frame) { latest(frames, f) })
		done <- result{res, err}
		p.Quit()
	}()
	_, err := p.Run()
	cancel()
	r := <-done
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
		return r.res, err
	}
	return r.res, r.err
}

// latest hands f to the view, replacing a frame it has not taken yet: the view draws at most
// the newest frame, never a backlog.
func latest(ch chan play.Frame, f play.Frame) {
	select {
	case <-ch:
	default:
	}
	ch <- f
}
