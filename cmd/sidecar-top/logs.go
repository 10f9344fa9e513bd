package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"
	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/watch"
)

// DefaultLogStreams is how many logs --logs reads at once unless --logs-max-streams says.
const DefaultLogStreams = 20

// logFlags are the flags that make logs evidence: the containers' logs (--logs, --mark,
// --marks, --logs-max-streams, and record's --record-log-text) and the kubelet's (--node-logs).
type logFlags struct {
	logs       bool
	logsFlag   *pflag.Flag // to tell --logs given from its default
	maxStreams int
	marks      []string
	marksFile  string
	keepText   bool
	nodeLogs   bool
}

func (l *logFlags) addFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&l.logs, "logs", false, "use the containers' logs as evidence: each line's stamp (default: on for a pod you may read the logs of; --logs for job, deploy and -l; --logs=false: off)")
	l.logsFlag = fs.Lookup("logs")
	fs.IntVar(&l.maxStreams, "logs-max-streams", DefaultLogStreams, "read at most this many logs at once (0: no limit)")
	fs.StringArrayVar(&l.marks, "mark", nil, "a milestone the app defines: CONTAINER:NAME=REGEX, a line of CONTAINER (* for any) that matches REGEX (repeatable; turns --logs on)")
	fs.StringVar(&l.marksFile, "marks", "", "read marks from a YAML FILE: a list of {container, name, pattern} (turns --logs on)")
	fs.BoolVar(&l.nodeLogs, "node-logs", false, "read the kubelet's log (node log query, get nodes/proxy) for the instant it stops each container")
}

// addRecordFlags adds what only record has: whether the recording keeps every line's text.
func (l *logFlags) addRecordFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&l.keepText, "record-log-text", false, "keep every log line's text in the recording, not only that of lines that matched a mark (turns --logs on)")
}

// logPlan is what the flags ask for, read before anything connects: whether to read the logs
// ("auto": if the user may), with which marks, and whether the kubelet's log too.
type logPlan struct {
	logs     logChoice
	opts     watch.LogOptions
	specs    []string // the marks, as given, for the recording's header
	nodeLogs bool

	// Set by setup, once the server has answered.
	logsOn, nodeLogsOn bool
}

// logChoice says whether logs are read.
type logChoice int

const (
	logsOff  logChoice = iota
	logsAuto           // when the user may read pods/log (a pod target, by default)
	logsOn
)

// plan reads the log flags for target t: a pod's logs are read by default when the user may;
// a Job's, a Deployment's or a selector's only when asked, as they may be many. Marks and
// --record-log-text ask for logs.
func (l *logFlags) plan(t watch.Target) (logPlan, error) {
	p := logPlan{nodeLogs: l.nodeLogs, opts: watch.LogOptions{KeepText: l.keepText, MaxStreams: l.maxStreams}}
	if l.maxStreams < 0 {
		return p, errors.New("--logs-max-streams cannot be negative (0: no limit)")
	}
	rules, specs, err := l.markRules()
	if err != nil {
		return p, err
	}
	p.specs = specs
	p.opts.Marks = watch.NewMarks(rules...)
	p.logs, err = l.choice(t, len(rules) > 0 || l.keepText)
	return p, err
}

// markRules are the marks of --mark and then of the --marks file, with each as the recording's
// header names it (CONTAINER:NAME=PATTERN).
func (l *logFlags) markRules() (rules []watch.MarkRule, specs []string, err error) {
	for _, s := range l.marks {
		r, err := watch.ParseMark(s)
		if err != nil {
			return nil, nil, fmt.Errorf("--mark: %w", err)
		}
		rules = append(rules, r)
		specs = append(specs, s)
	}
	if l.marksFile == "" {
		return rules, specs, nil
	}
	data, err := os.ReadFile(l.marksFile)
	if err != nil {
		return nil, nil, fmt.Errorf("--marks: %w", err)
	}
	fromFile, err := watch.ParseMarksFile(data, l.marksFile)
	if err != nil {
		return nil, nil, fmt.Errorf("--marks: %w", err)
	}
	for _, r := range fromFile {
		rules = append(rules, r)
		specs = append(specs, r.Container+":"+r.Name+"="+r.Pattern.String())
	}
	return rules, specs, nil
}

// choice is whether logs are read for target t, where wants says that marks or
// --record-log-text need them: --logs as given, else on when wanted, else auto for a pod.
func (l *logFlags) choice(t watch.Target, wants bool) (logChoice, error) {
	given := l.logsFlag != nil && l.logsFlag.Changed
	switch {
	case given && !l.logs && wants:
		return logsOff, errors.New("--logs=false, yet --mark, --marks or --record-log-text need the logs: drop one or the other")
	case given && !l.logs:
		return logsOff, nil
	case given, wants:
		return logsOn, nil
	case t.Kind == watch.TargetPod:
		return logsAuto, nil
	}
	return logsOff, nil
}

// setup checks, once the server answers, that the user may read what the plan reads, says in
// one line on w what it will not read and why, and sets the Live's options.
func (p *logPlan) setup(ctx context.Context, client kubernetes.Interface, ns string, w io.Writer, opts *watch.LiveOptions) {
	if p.logs != logsOff {
		if a := watch.CanReadLogs(ctx, client, ns); a.Allowed {
			o := p.opts
			opts.Logs, p.logsOn = &o, true
		} else {
			say(w, "%s: the containers' logs are not used as evidence", a.Why)
		}
	}
	if p.nodeLogs {
		if a := watch.CanReadNodeLogs(ctx, client); a.Allowed {
			opts.NodeLogs, p.nodeLogsOn = &watch.NodeLogOptions{}, true
		} else {
			say(w, "%s: --node-logs is off", a.Why)
		}
	}
}

// describe says in a recording's header what the recording holds of the logs.
func (p *logPlan) describe(h *recfile.Header) {
	h.Logs, h.NodeLogs = p.logsOn, p.nodeLogsOn
	if p.logsOn {
		h.LogText, h.Marks = p.opts.KeepText, p.specs
	}
}
