package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/watch"
)

// fleetFlags are the flags of a scope (a namespace with no target, -A).
type fleetFlags struct {
	output       string // -o: json, jsonl or yaml; "" for the table
	onlySidecars bool
	keepFinished time.Duration
	flags        *pflag.FlagSet // to tell --sidecars-only given from its default
}

func (f *fleetFlags) addFlags(fs *pflag.FlagSet) {
	f.flags = fs
	fs.StringVarP(&f.output, "output", "o", "", "a scope's output: json or yaml (one document once the pods are listed), or jsonl (a line per milestone or finding as it is learnt)")
	fs.BoolVar(&f.onlySidecars, "sidecars-only", false, "a scope's table hides pods without a sidecar (default: on with -A)")
	fs.DurationVar(&f.keepFinished, "keep-finished", time.Hour, "a scope's table keeps a pod this long after it saw it finished or deleted; then it only counts it")
}

// check refuses an output the target cannot have, before anything connects.
func (f *fleetFlags) check(t watch.Target) error {
	switch {
	case f.output != "" && f.output != "json" && f.output != "jsonl" && f.output != "yaml":
		return fmt.Errorf("-o %q: want json, jsonl or yaml", f.output)
	case f.output != "" && t.Kind != watch.TargetScope:
		return fmt.Errorf("-o %s is for a scope (-n NAMESPACE with no target, or -A); for %s use record --%s FILE -o %s, or replay -o %s", f.output, t, recordFileFlag, f.output, f.output)
	case f.given("sidecars-only") && t.Kind != watch.TargetScope:
		return fmt.Errorf("--sidecars-only is for a scope (-n NAMESPACE with no target, or -A), not %s", t)
	case f.given("keep-finished") && t.Kind != watch.TargetScope:
		return fmt.Errorf("--keep-finished is for a scope (-n NAMESPACE with no target, or -A), not %s", t)
	case f.keepFinished < 0:
		return fmt.Errorf("--keep-finished %s: want 0 or more", f.keepFinished)
	}
	return nil
}

// keep is --keep-finished for a live watch of t: nil (every pod kept) but for a scope, and for
// a command without the flag (record keeps every pod, as its file does).
func (f *fleetFlags) keep(t watch.Target) *time.Duration {
	if f.flags == nil || t.Kind != watch.TargetScope {
		return nil
	}
	d := f.keepFinished
	return &d
}

// given reports whether the flag was given on the command line.
func (f *fleetFlags) given(name string) bool {
	if f.flags == nil {
		return false
	}
	fl := f.flags.Lookup(name)
	return fl != nil && fl.Changed
}

// sidecarsOnly is --sidecars-only as given, else on for all namespaces.
func (f *fleetFlags) sidecarsOnly(t watch.Target) bool {
	if f.given("sidecars-only") {
		return f.onlySidecars
	}
	return t.AllNamespaces()
}

// where is what a watch of t watches, in words: "pod/x in namespace shop", "all namespaces".
func where(t watch.Target) string {
	if t.Kind == watch.TargetScope {
		return t.String()
	}
	return t.String() + " in namespace " + t.Namespace
}

// runFleetOut watches a scope without the view: its table as plain lines, or JSON.
func runFleetOut(ctx context.Context, s streams, kube *kubeOptions, src play.Source, opts play.Options, t watch.Target) (play.Result, error) {
	format := kube.fleet.output
	if format == "" {
		format = "plain"
		say(s.ErrOut, "watching %s (Ctrl-C to stop)", where(t))
	}
	out := newFleetOut(s.Out, format, t.String(), kube.fleet.sidecarsOnly(t))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	warn := warnTo(s)
	res, err := play.RunLive(ctx, src, opts, func(f play.Frame) {
		out.frame(f)
		warn(f)
		if out.Done() {
			cancel() // -o json or yaml has printed its document
		}
	})
	if err == nil {
		err = out.err
	}
	return res, err
}
