package main

import (
	"flag"
	"io"
	"sync"
	"sync/atomic"

	"github.com/go-logr/logr"
	"github.com/spf13/pflag"
	"k8s.io/klog/v2"
)

// verbosity is kubectl's -v/--v and --vmodule: klog's levels for what client-go logs (-v=6 each
// request and its status, -v=8 the bodies too, ...), written to standard error with klog's
// header, as kubectl writes them. At 0, the default, nothing is logged: client-go's warnings reach
// the user through the watch's errors instead, and a log line would tear the view.
//
// klog's state is the process's: the flags set it, apply is called once a command line is
// parsed, and run resets it at the end.
type verbosity struct {
	klog *flag.FlagSet // klog's own flags; -v and --vmodule are added to the command line
}

// addVerbosityFlags adds -v/--v and --vmodule to fs, bound to klog as kubectl binds them
// (klog.InitFlags); klog's other flags (files, headers) are not offered.
func addVerbosityFlags(fs *pflag.FlagSet) *verbosity {
	v := &verbosity{klog: flag.NewFlagSet("klog", flag.ContinueOnError)}
	klog.InitFlags(v.klog)
	level := pflag.PFlagFromGoFlag(v.klog.Lookup("v"))
	level.Shorthand = "v"
	level.Usage = "number for the log level verbosity: what client-go logs, on standard error (6: each request; 8: with its body)"
	fs.AddFlag(level)
	vmodule := pflag.PFlagFromGoFlag(v.klog.Lookup("vmodule"))
	vmodule.Usage = "comma-separated list of pattern=N settings for file-filtered logging"
	fs.AddFlag(vmodule)
	return v
}

// on reports whether -v or --vmodule asks for any log.
func (v *verbosity) on() bool {
	return v.klog.Lookup("v").Value.String() != "0" || v.klog.Lookup("vmodule").Value.String() != ""
}

// level is -v as given.
func (v *verbosity) level() string { return v.klog.Lookup("v").Value.String() }

// klogOn is set while a run has klog's lines written (apply), for resetKlog to undo.
var klogOn atomic.Bool

// apply sends klog's lines to w when -v or --vmodule asks for them; otherwise klog keeps
// discarding them, as main and resetKlog left it. klog's logger is the process's and is read by
// every client-go goroutine without a lock (klog.SetLogger is for a program's start): a run
// without -v leaves it alone, so that runs side by side (the tests) do not race on it.
func (v *verbosity) apply(w io.Writer) {
	if !v.on() {
		return
	}
	klogOn.Store(true)
	lw := &lockedWriter{w: w}
	// klog formats each line (header, verbosity and --vmodule checked) and hands it whole.
	klog.SetLoggerWithOptions(logr.Discard(), klog.WriteKlogBuffer(func(b []byte) { lw.Write(b) }))
}

// resetKlog discards klog's lines again and sets -v and --vmodule back to 0 after a run that
// turned them on: a run's verbosity does not outlive it (the tests run many in one process).
func resetKlog() {
	if !klogOn.Swap(false) {
		return
	}
	klog.Flush()
	klog.SetLogger(logr.Discard())
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("v", "0")
	_ = fs.Set("vmodule", "")
}

// lockedWriter writes each line whole: client-go logs from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
