// Sidecar-top shows, live, how the containers of a Kubernetes Pod start, become ready, are
// signalled and exit, with native sidecars (init containers with restartPolicy: Always) drawn
// as what they are.
//
// Usage:
//
//	sidecar-top [flags] POD | pod/NAME | job/NAME | deploy/NAME | -l SELECTOR
//	sidecar-top record [flags] TARGET --output-file FILE|- [-o json|yaml] [--until complete|deleted|ready] [--timeout D]
//	sidecar-top replay FILE [-o json|yaml] [--plain] [--speed S] [--idle-limit D]
//	sidecar-top demo [NAME]
//	sidecar-top version
//
// The first form watches the target's pods and draws one lane per container, with every
// milestone (created, start, started, ready, SIGTERM, exit, restarts, waiting reasons), the gap
// between milestones with its uncertainty, and findings in words. The pod need not exist yet.
// record watches the same way and writes what the API server sent to a recording
// (--output-file -: to standard output, the lines and messages then going to standard error); replay plays a
// recording in the same view, a pause longer than --idle-limit (5 s) cut to it and said so; demo
// replays a real recording built into the binary. A pod named as a command is watched as
// pod/NAME.
//
// Flags are read before anything is opened, and record creates its file before it connects.
// record's --timeout counts from the start, connecting included; a server that does not answer
// is reported with the time really waited.
//
// Where standard output is not a terminal, or with --plain, sidecar-top prints one line per
// milestone as it happens and a summary of the gaps at the end. -o is the output format, as in
// kubectl: -o json prints the final timeline as JSON, -o yaml as YAML.
//
// The standard kubectl flags (--kubeconfig, --context, -n/--namespace, --as, ...) apply, and
// $KUBECONFIG is honoured. -v N is kubectl's verbosity: what client-go logs, on standard error.
//
// Exit status: 0 on success; 1 on an error, printed as one line; 2 when record's --timeout
// passed before its --until condition was met (the recording is kept); 130 when a plain replay
// was interrupted (Ctrl-C), after the lines and the summary of what it had replayed.
package main

import (
	"os"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/sidecar-top/sidecar-top/internal/quietterm"
)

func main() {
	quietterm.Restore() // TERM as the user set it, now that Bubble Tea's init has not asked
	// client-go logs through klog; under the alt screen that would tear the view. Watch errors
	// reach the user through the informers' error handlers instead.
	klog.SetLogger(logr.Discard())
	os.Exit(run(os.Args[1:], newStreams()))
}

// run executes the command line and returns the exit status.
func run(args []string, s streams) int {
	defer resetKlog()
	cmd := newRootCommand(s)
	cmd.SetArgs(args)
	err := cmd.Execute()
	if err == nil {
		return 0
	}
	say(s.ErrOut, "%s", err)
	if code, ok := err.(exitCode); ok {
		return code.code
	}
	return 1
}

// exitCode is an error that asks for a particular exit status.
type exitCode struct {
	code int
	msg  string
}

func (e exitCode) Error() string { return e.msg }
