package watch

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// LogOptions say how a Live follows the logs of the target's container runs.
type LogOptions struct {
	// Marks are matched against each line as it arrives; only a marked line keeps its text.
	Marks Marks
	// KeepText keeps every line's text (up to MaxLogText), for --record-log-text.
	KeepText bool
	// MaxStreams is the most logs read at once (zero: no limit). A run beyond it waits for a
	// stream to end; that is said once.
	MaxStreams int
	// Flush is how long lines wait to go out together (zero: 100 ms); FlushLines is the most
	// that go out together (zero: 1,000).
	Flush      time.Duration
	FlushLines int
}

// Defaults of LogOptions.
const (
	DefaultLogFlush      = 100 * time.Millisecond
	DefaultLogFlushLines = 1000
	// podGoneGrace is how long the logs of a deleted pod are still read: its runs have exited
	// by then, and a stream that has not ended will not.
	podGoneGrace = 30 * time.Second
)

// logFollowers reads the log of each container run the watch sees: it follows a run's log from
// its start (pods/log?follow=true&timestamps=true), reads the run before it when a restart was
// seen late (previous=true), and sends the lines' stamps in ContainerLog items through put.
// Problems go to warn, each once; none stops the watch.
type logFollowers struct {
	client kubernetes.Interface
	opts   LogOptions
	put    func(*ContainerLog)
	warn   func(error)
	ctx    context.Context
	slots  chan struct{} // nil: no limit
	// goneGrace is how long a deleted pod's logs are still read; retryWait how long a broken
	// stream waits before it is asked for again (doubled each time). Tests shorten them.
	goneGrace, retryWait time.Duration

	mu      sync.Mutex
	taken   map[string]bool         // container IDs whose log was taken on
	runs    map[podContainer]runIDs // the latest status's runs of each container
	pods    map[types.UID]*podLogs  // the pods seen, and how to stop reading them
	said    map[string]bool         // warnings given
	waiting bool                    // a run waited for a free stream: said once
	off     bool                    // pods/log is forbidden: no more requests
}

// podContainer names a container of a pod.
type podContainer struct {
	uid       types.UID
	container string
}

// runIDs are a container's current run (the one the kubelet serves without previous) and the
// one before it, by container ID.
type runIDs struct{ current, last string }

// podLogs are a pod's streams: they end with ctx, some time after the pod is deleted.
type podLogs struct {
	ctx    context.Context
	cancel context.CancelFunc
	gone   bool
}

func newLogFollowers(ctx context.Context, client kubernetes.Interface, opts LogOptions, put func(*ContainerLog), warn func(error)) *logFollowers {
	if opts.Flush <= 0 {
		opts.Flush = DefaultLogFlush
	}
	if opts.FlushLines <= 0 {
		opts.FlushLines = DefaultLogFlushLines
	}
	f := &logFollowers{client: client, opts: opts, put: put, warn: warn, ctx: ctx,
		goneGrace: podGoneGrace, retryWait: time.Second,
		taken: map[string]bool{}, runs: map[podContainer]runIDs{}, pods: map[types.UID]*podLogs{}, said: map[string]bool{}}
	if opts.MaxStreams > 0 {
		f.slots = make(chan struct{}, opts.MaxStreams)
	}
	return f
}

// pod takes a pod's item, after it was queued: it starts reading the log of each run it shows
// that is not read yet. It never blocks.
func (f *logFollowers) pod(t timeline.WatchType, p *corev1.Pod) {
	f.mu.Lock()
	defer f.mu.Unlock()
	pl := f.pods[p.UID]
	if pl == nil {
		ctx, cancel := context.WithCancel(f.ctx)
		pl = &podLogs{ctx: ctx, cancel: cancel}
		f.pods[p.UID] = pl
	}
	if t == timeline.Deleted {
		if !pl.gone {
			pl.gone = true
			time.AfterFunc(f.goneGrace, pl.cancel)
		}
		return
	}
	if f.off || pl.gone {
		return
	}
	for _, list := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses, p.Status.EphemeralContainerStatuses} {
		for i := range list {
			f.container(pl, p, &list[i])
		}
	}
}

// container starts reading the runs of one container's status that are not read yet: the run
// before the current one (read whole: it is over), then the current one (followed).
func (f *logFollowers) container(pl *podLogs, p *corev1.Pod, cs *corev1.ContainerStatus) {
	ids := runIDs{}
	var cur, last *logRun
	base := logRun{ns: p.Namespace, pod: p.Name, uid: p.UID, container: cs.Name}
	if lt := cs.LastTerminationState.Terminated; lt != nil && lt.ContainerID != "" {
		ids.last = lt.ContainerID
		r := base
		r.id, r.attempt, r.previous, r.notAfter = lt.ContainerID, -1, true, finishedBound(lt)
		last = &r
	}
	switch s := cs.State; {
	case s.Running != nil && cs.ContainerID != "":
		ids.current = cs.ContainerID
	case s.Terminated != nil && s.Terminated.ContainerID != "":
		ids.current = s.Terminated.ContainerID
	}
	if ids.current != "" {
		r := base
		r.id, r.attempt, r.notAfter = ids.current, cs.RestartCount, finishedBound(cs.State.Terminated)
		cur = &r
		if last != nil {
			last.attempt = cs.RestartCount - 1
		}
	}
	f.runs[podContainer{p.UID, cs.Name}] = ids
	for _, r := range []*logRun{last, cur} {
		if r != nil && !f.taken[r.id] {
			f.taken[r.id] = true
			go f.read(pl.ctx, *r)
		}
	}
}

// finishedBound is the latest a run that terminated at t may have written a line: its
// whole-second finishedAt rounds down by up to a second, and a line may be stamped up to
// 100 ms after the exit; a second more is slack. Zero when the run has not finished.
func finishedBound(t *corev1.ContainerStateTerminated) time.Time {
	if t == nil || t.FinishedAt.IsZero() {
		return time.Time{}
	}
	return t.FinishedAt.Add(2*time.Second + 100*time.Millisecond)
}

// read reads one run's log when a stream is free.
func (f *logFollowers) read(ctx context.Context, r logRun) {
	if f.slots != nil {
		select {
		case f.slots <- struct{}{}:
		default:
			f.sayOnce("slots", fmt.Errorf("%d logs are being read, the most at once (--logs-max-streams): the logs of later runs wait until one ends", cap(f.slots)))
			select {
			case f.slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
		}
		defer func() { <-f.slots }()
	}
	(&logReader{f: f, run: r}).read(ctx)
}

// still says how the run's log can be read now: as the container's current run (followed), as
// the run before it (previous), or not at all (ok false: a newer run came, or the pod went).
func (f *logFollowers) still(r logRun) (previous, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if pl := f.pods[r.uid]; pl == nil || pl.gone || f.off {
		return false, false
	}
	ids := f.runs[podContainer{r.uid, r.container}]
	switch r.id {
	case ids.current:
		return false, true
	case ids.last:
		return true, true
	}
	return false, false
}

// forbid turns log reading off: the user may not read pods/log.
func (f *logFollowers) forbid(err error) {
	f.mu.Lock()
	f.off = true
	f.mu.Unlock()
	f.sayOnce("forbidden", fmt.Errorf("not allowed to read the containers' logs, so they are not used: %w", err))
}

// sayOnce warns once per key.
func (f *logFollowers) sayOnce(key string, err error) {
	f.mu.Lock()
	said := f.said[key]
	f.said[key] = true
	f.mu.Unlock()
	if !said {
		f.warn(err)
	}
}
