package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
	"github.com/sidecar-top/sidecar-top/watch"
)

// runWatch watches the target live: the view on a terminal, plain lines elsewhere. With rec it
// also writes a recording and stops as record's flags say. Every flag is read before anything is
// opened, and the recording's file is created before anything connects.
func runWatch(ctx context.Context, s streams, view *viewOptions, kube *kubeOptions, args []string, rec *recordOptions) (err error) {
	if rec != nil {
		if err := rec.validate(); err != nil {
			return err
		}
		if rec.format != "" && view.plain {
			return fmt.Errorf("--plain: with -o %s, standard output is for the document at the end; the plain lines are left out", rec.format)
		}
	}
	t, ns, err := kube.target(args)
	if err != nil {
		return err
	}
	if err := kube.fleet.check(t); err != nil {
		return err
	}
	if err := view.readLanes(); err != nil {
		return err
	}
	out := outputOf(s, view, rec)
	fleetOut := t.Kind == watch.TargetScope && rec == nil && (kube.fleet.output != "" || !out.view)
	mode, err := view.colorMode(out.view && !fleetOut)
	if err != nil {
		return err
	}
	if out.view && s.errTerminal && view.verbose != nil && view.verbose.on() {
		return fmt.Errorf("-v %s: client-go's log goes to standard error, the terminal the view draws on: send it elsewhere (2>FILE) or add --plain", view.verbose.level())
	}
	if fleetOut && (view.report.summary || view.report.explain || view.lanes != nil) {
		return errors.New("--summary, --explain and -c are for the view and for one target's plain lines, not a scope's table as lines or JSON")
	}
	logs, err := kube.logs.plan(t)
	if err != nil {
		return err
	}
	client, host, err := kube.client()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	liveHeap()
	opts := play.Options{}
	var res play.Result
	inputs := kube.inputs()
	if rec != nil {
		if err := rec.open(s.Out, inputs); err != nil {
			return err
		}
		defer func() {
			if err != nil {
				rec.abandon(res.Items)
			}
		}()
		if !rec.toStdout() {
			inputs.add(rec.path, nil) // an --export over the recording would replace it
		}
		opts.Linger = rec.linger
		if rec.until != untilNone {
			opts.Until = func(s timeline.Snapshot) bool { return rec.until.met(t, s) }
		}
		if rec.timeout > 0 { // from the start: connecting is bounded too
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, rec.timeout)
			defer cancel()
		}
	}
	if err := kube.exports.refuse(inputs); err != nil {
		return err
	}
	serverVersion, live, err := connectWith(ctx, client, t, host, watch.LiveOptions{Recording: rec != nil},
		func(ctx context.Context, o *watch.LiveOptions) { logs.setup(ctx, client, ns, s.ErrOut, o) })
	if err != nil {
		return err
	}
	note := oldServerNote(serverVersion) // said once here, and kept in the final timeline's notes
	sayNote(s.ErrOut, note)
	var recorder *watch.Recorder
	if rec != nil {
		rec.logs = &logs
		if err := rec.start(ns, t, serverVersion); err != nil {
			return err
		}
		recorder = rec.recorder
	}
	src := source.Recorded(live, recorder) // each item recorded before it is applied
	opts.Brief = briefFocus(t, rec, kube)
	if t.Kind == watch.TargetScope {
		opts.Frame = scopeFrame
	}
	switch {
	case fleetOut:
		res, err = runFleetOut(ctx, s, kube, src, opts, t)
	case out.view:
		res, err = runLiveView(ctx, s, mode, src, opts, t, view, kube.fleet.sidecarsOnly(t))
	case out.plain == nil:
		res, err = play.RunLive(ctx, src, opts, warnTo(s))
	default:
		say(s.ErrOut, "watching %s (Ctrl-C to stop)", where(t))
		feed := newPlainFeed(out.plain, 1, view.report, view.lanes) // lines held come out by this machine's clock
		feed.rests = true
		stop := feed.start(ctx)
		warn := warnTo(s)
		res, err = play.RunLive(ctx, src, opts, func(f play.Frame) {
			feed.frame(f)
			warn(f)
		})
		stop()
		_ = feed.finish(withNote(res.Final, note)) // as before: a broken pipe is not the watch's error
	}
	if err != nil {
		return err
	}
	res.Final = withNote(res.Final, note)
	if err := kube.exports.write(ctx, s, t, serverVersion, res.Final, inputs); err != nil {
		return err
	}
	if rec != nil {
		return rec.finish(ctx, s, t, res, view.lanes)
	}
	return nil
}

// watchOutput is how a watch shows itself: the view, or plain lines written to plain, or (record
// -o json or yaml, whose standard output is for the document) nothing but warnings.
type watchOutput struct {
	view  bool
	plain io.Writer
}

// outputOf chooses: the view on a terminal unless --plain; plain lines elsewhere, on standard
// error when the recording goes to standard output.
func outputOf(s streams, view *viewOptions, rec *recordOptions) watchOutput {
	switch {
	case rec != nil && rec.toStdout():
		return watchOutput{plain: s.ErrOut}
	case s.terminal && !view.plain:
		return watchOutput{view: true}
	case rec != nil && rec.format != "":
		return watchOutput{}
	}
	return watchOutput{plain: s.Out}
}

// warnTo prints each new watch error of the frames on standard error: they are not fatal. It
// also says when the API server stopped answering, and again as the silence doubles, and when it
// answers again.
func warnTo(s streams) func(play.Frame) {
	last := ""
	var said time.Duration // the silence said last, zero once the server answers again
	return func(f play.Frame) {
		switch {
		case f.Silent > 0 && f.Silent >= 2*said: // at 5 s, 10 s, 20 s, ...: no flood
			said = f.Silent
			say(s.ErrOut, "warning: no answer from the API server for %s: what is shown is stale", f.Silent)
		case f.Silent == 0 && said > 0:
			said = 0
			say(s.ErrOut, "the API server answers again")
		}
		if f.WatchErr == nil {
			last = ""
			return
		}
		if msg := oneLine(f.WatchErr.Error()); msg != last {
			last = msg
			say(s.ErrOut, "warning: %s", msg)
		}
	}
}

// runLiveView runs the Bubble Tea view while the player runs in its own goroutine and hands it
// frames; the view quits when the user asks, or when the player ends (record's --until).
func runLiveView(ctx context.Context, s streams, mode ui.ColorMode, src play.Source, opts play.Options, t watch.Target,
	view *viewOptions, sidecarsOnly bool) (play.Result, error) {
	report := view.report
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	frames := make(chan play.Frame, 1)
	m := ui.NewModel(ui.Config{
		Target:    t.String(),
		Namespace: t.Namespace,
		Mode:      ui.Live,
		Frames:    frames,
		Styles:    viewStyles(s, mode),
		Explain:   report.explain,
		Summary:   report.summary,
		Fleet:     t.Kind == watch.TargetScope,
		// A scope's pods without a sidecar are hidden by default across all namespaces.
		SidecarsOnly: sidecarsOnly,
		Focus:        focusSetter(opts.Brief),
	})
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithInput(s.In), tea.WithOutput(s.Out), tea.WithContext(ctx))
	type result struct {
		res play.Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := play.RunLive(ctx, src, opts, func(f play.Frame) { latest(frames, view.lanes.frame(f)) })
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

// scopeFrame is how often a scope's table takes a new snapshot, at most: each frame sorts and
// filters every row of the namespace or cluster again, and at 30 a second that was most of what a
// table of thousands of pods cost while they changed (top redraws every 3 s, k9s every 2). Keys
// are answered at once, from the last snapshot.
const scopeFrame = time.Second / 4

// briefFocus is the focus of a live scope's brief mode (play.Focus: a pod kept whole only while
// it is opened), or nil where every pod must be whole at the end or at every frame:
// a recording (its --until, its exports), --export, and -o jsonl (every milestone as learnt).
func briefFocus(t watch.Target, rec *recordOptions, kube *kubeOptions) *play.Focus {
	if t.Kind != watch.TargetScope || rec != nil || len(kube.exports.specs) > 0 || kube.fleet.output == "jsonl" {
		return nil
	}
	return play.NewFocus()
}

// focusSetter is what the view tells of the pod it opens: f's Set, or nothing without brief mode.
func focusSetter(f *play.Focus) func(string) {
	if f == nil {
		return nil
	}
	return f.Set
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
