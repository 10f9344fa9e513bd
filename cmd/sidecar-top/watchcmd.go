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
	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/fleet"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
	"github.com/sidecar-top/sidecar-top/watch"
)

// runWatch watches the target live: the view on a terminal, plain lines elsewhere. With rec it
// also writes a recording and stops as record's flags say. Every flag is read before anything is
// opened, and the recording's file is created before anything connects.
func runWatch(ctx context.Context, s streams, view *viewOptions, kube *kubeOptions, args []string, rec *recordOptions) (err error) {
	w, err := planWatch(s, view, kube, args, rec)
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
		if rec.timeout > 0 { // from the start: connecting is bounded too
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, rec.timeout)
			defer cancel()
		}
	}
	if err := kube.exports.refuse(inputs); err != nil {
		return err
	}
	c, err := w.connect(ctx, s, client, host, rec)
	if err != nil {
		return err
	}
	res, err = w.show(ctx, s, view, kube, c.src, w.playOptions(rec, kube), c.note)
	if err != nil {
		return err
	}
	res.Final = withNote(res.Final, c.note)
	if err := kube.exports.write(ctx, s, w.t, c.serverVersion, res.Final, inputs); err != nil {
		return err
	}
	if rec != nil {
		return rec.finish(ctx, s, w.t, res, view.lanes)
	}
	return nil
}

// watchPlan is what a watch's flags decide, all read before anything is opened.
type watchPlan struct {
	t        watch.Target
	ns       string
	out      watchOutput
	fleetOut bool // a scope's table as lines or JSON, not the view
	mode     ui.ColorMode
	logs     logPlan
}

// planWatch reads every flag of a watch (and of record's, with rec), refusing the combinations
// that cannot be honoured.
func planWatch(s streams, view *viewOptions, kube *kubeOptions, args []string, rec *recordOptions) (*watchPlan, error) {
	if err := validateRecord(rec, view); err != nil {
		return nil, err
	}
	t, ns, err := kube.target(args)
	if err != nil {
		return nil, err
	}
	if err := kube.fleet.check(t); err != nil {
		return nil, err
	}
	if err := view.readLanes(); err != nil {
		return nil, err
	}
	w := &watchPlan{t: t, ns: ns, out: outputOf(s, view, rec)}
	w.fleetOut = t.Kind == watch.TargetScope && rec == nil && (kube.fleet.output != "" || !w.out.view)
	if w.mode, err = view.colorMode(w.out.view && !w.fleetOut); err != nil {
		return nil, err
	}
	if err := w.refuseViewFlags(s, view); err != nil {
		return nil, err
	}
	if w.logs, err = kube.logs.plan(t); err != nil {
		return nil, err
	}
	return w, nil
}

// validateRecord reads record's flags, if rec is not nil: with -o json or yaml, standard output
// is for the document, so --plain has nowhere to go.
func validateRecord(rec *recordOptions, view *viewOptions) error {
	if rec == nil {
		return nil
	}
	if err := rec.validate(); err != nil {
		return err
	}
	if rec.format != "" && view.plain {
		return fmt.Errorf("--plain: with -o %s, standard output is for the document at the end; the plain lines are left out", rec.format)
	}
	return nil
}

// refuseViewFlags refuses what the chosen output cannot honour: client-go's log on the terminal
// the view draws on, and the view's report flags on a scope's table as lines or JSON.
func (w *watchPlan) refuseViewFlags(s streams, view *viewOptions) error {
	if w.out.view && s.errTerminal && view.verbose != nil && view.verbose.on() {
		return fmt.Errorf("-v %s: client-go's log goes to standard error, the terminal the view draws on: send it elsewhere (2>FILE) or add --plain", view.verbose.level())
	}
	if w.fleetOut && (view.report.summary || view.report.explain || view.lanes != nil) {
		return errors.New("--summary, --explain and -c are for the view and for one target's plain lines, not a scope's table as lines or JSON")
	}
	return nil
}

// liveSource is a connected watch: the server's version, the note said on an old one, and the
// source of its items.
type liveSource struct {
	serverVersion, note string
	src                 play.Source
}

// connect connects to the server (checking once it answers what the log plan may read), says a
// note on an old server, and with rec writes the recording's header: each item is then recorded
// before it is applied.
func (w *watchPlan) connect(ctx context.Context, s streams, client kubernetes.Interface, host string, rec *recordOptions) (liveSource, error) {
	serverVersion, live, err := connectWith(ctx, client, w.t, host, watch.LiveOptions{Recording: rec != nil},
		func(ctx context.Context, o *watch.LiveOptions) { w.logs.setup(ctx, client, w.ns, s.ErrOut, o) })
	if err != nil {
		return liveSource{}, err
	}
	note := oldServerNote(serverVersion) // said once here, and kept in the final timeline's notes
	sayNote(s.ErrOut, note)
	var recorder *recfile.Recorder
	if rec != nil {
		rec.logs = &w.logs
		if err := rec.start(w.ns, w.t, serverVersion); err != nil {
			return liveSource{}, err
		}
		recorder = rec.recorder
	}
	return liveSource{serverVersion: serverVersion, note: note, src: source.Recorded(live, recorder)}, nil
}

// playOptions are how the player runs this watch: a recording's --linger and --until, a live
// scope's brief mode and its frame rate.
func (w *watchPlan) playOptions(rec *recordOptions, kube *kubeOptions) play.Options {
	opts := play.Options{Brief: briefFocus(w.t, rec, kube), KeepFinished: kube.fleet.keep(w.t)}
	if opts.Brief != nil && kube.fleet.sidecarsOnly(w.t) {
		// The table and its plain and JSON forms show only pods with a sidecar: of the others,
		// most of a cluster's pods, a count is all they need.
		opts.Hide = fleet.WithoutSidecar
	}
	if rec != nil {
		opts.Linger = rec.linger
		if rec.until != untilNone {
			t := w.t
			opts.Until = func(s timeline.Snapshot) bool { return rec.until.met(t, s) }
		}
	}
	if w.t.Kind == watch.TargetScope {
		opts.Frame = scopeFrame
	}
	return opts
}

// show plays src to its end in the chosen output: a scope's table as lines or JSON, the view,
// nothing but warnings, or plain lines.
func (w *watchPlan) show(ctx context.Context, s streams, view *viewOptions, kube *kubeOptions, src play.Source, opts play.Options, note string) (play.Result, error) {
	switch {
	case w.fleetOut:
		return runFleetOut(ctx, s, kube, src, opts, w.t)
	case w.out.view:
		return runLiveView(ctx, s, w.mode, src, opts, w.t, view, kube.fleet.sidecarsOnly(w.t))
	case w.out.plain == nil:
		return play.RunLive(ctx, src, opts, warnTo(s))
	}
	return runPlainLines(ctx, s, w.out.plain, view, src, opts, w.t, note)
}

// runPlainLines plays src writing plain lines to out, held lines coming out by this machine's
// clock, and each new watch error to standard error.
func runPlainLines(ctx context.Context, s streams, out io.Writer, view *viewOptions, src play.Source, opts play.Options, t watch.Target, note string) (play.Result, error) {
	say(s.ErrOut, "watching %s (Ctrl-C to stop)", where(t))
	feed := newPlainFeed(out, 1, view.report, view.lanes)
	feed.rests = true
	stop := feed.start(ctx)
	warn := warnTo(s)
	res, err := play.RunLive(ctx, src, opts, func(f play.Frame) {
		feed.frame(f)
		warn(f)
	})
	stop()
	_ = feed.finish(withNote(res.Final, note)) // as before: a broken pipe is not the watch's error
	return res, err
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
	ctx, cancel := untilHangup(ctx)
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
