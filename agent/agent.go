package agent

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// Config says what an Agent publishes and how.
type Config struct {
	OwnerNames bool // false: every owner label is ""
	MaxOwners  int  // distinct owner names per namespace; beyond them the label is "other"
	// TraceAfter is how long after its creation a pod that is not final has its trace cut and
	// sent; zero never cuts.
	TraceAfter time.Duration
	// KeepFinished is how long a final pod's timeline is kept (for its late Events, and so that
	// a relist does not bring it back as new); then only its UID is kept, until it is deleted.
	KeepFinished time.Duration
	// Tick is how often the agent looks at what changed; zero means a second.
	Tick time.Duration
	// Now is the clock for --trace-after and --keep-finished; nil means time.Now.
	Now func() time.Time
	// Traces sends pods' traces; nil sends none.
	Traces *Traces
	Log    *slog.Logger // nil: slog.Default()
}

// Agent watches a scope's pods with one play.Engine and publishes what their timelines say.
// Run owns the engine; the other methods may be called from any goroutine.
type Agent struct {
	cfg    Config
	m      *Metrics
	owners *owners
	leader atomic.Bool // this replica observes and sends
	ready  atomic.Bool // the first list is in

	// Owned by Run's goroutine.
	e      *play.Engine         // keeps the final pods for KeepFinished (Engine.Retain)
	pods   map[string]*podTrack // by UID, the pods the engine keeps
	feed   *source.Feed
	last   timeline.Snapshot // the snapshot the last sweep looked at
	listed bool              // the first list is in: pods becoming final from now on are new
	health *health
}

// podTrack is what the agent keeps of a pod beside its timeline: only what it needs to
// count the pod once.
type podTrack struct {
	pod     *timeline.Pod // as the last sweep saw it (the snapshot holds it anyway)
	cut     bool          // its trace was sent before it was final (TraceAfter)
	traceID string        // the trace sent for it, if any
}

// New is an Agent publishing to m. It starts as standby unless SetLeader says otherwise.
func New(cfg Config, m *Metrics) *Agent {
	if cfg.Tick <= 0 {
		cfg.Tick = time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	a := &Agent{cfg: cfg, m: m, owners: newOwners(cfg.OwnerNames, cfg.MaxOwners), e: play.NewEngine(),
		pods: map[string]*podTrack{}}
	a.e.Brief(a.keep)
	a.e.Retain(cfg.KeepFinished)
	return a
}

// SetLeader says whether this replica leads (observes and sends) or stands by.
func (a *Agent) SetLeader(on bool) {
	a.leader.Store(on)
	if on {
		a.m.Leader.Set(1)
	} else {
		a.m.Leader.Set(0)
	}
}

// Leader reports whether this replica leads.
func (a *Agent) Leader() bool { return a.leader.Load() }

// Ready reports whether the first list is in.
func (a *Agent) Ready() bool { return a.ready.Load() }

// Run plays src (a live watch, or a recording in tests) until it ends (io.EOF), fails, or ctx
// ends; only a source's non-transient error is returned.
func (a *Agent) Run(ctx context.Context, src watch.Source) error {
	a.health = newHealth(src, a.m)
	feed := source.Of(a.health)
	a.feed = feed
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type read struct {
		in  play.Input
		err error
	}
	reads := make(chan read, 256)
	go func() {
		for {
			in, err := feed.Next(ctx)
			select {
			case reads <- read{in, err}:
			case <-ctx.Done():
				return
			}
			if err != nil && !transient(err) {
				return
			}
		}
	}()
	tick := time.NewTicker(a.cfg.Tick)
	defer tick.Stop()
	for {
		select {
		case r := <-reads:
			switch {
			case transient(r.err):
				a.cfg.Log.Warn("watch error; it retries", "error", r.err.Error())
			case r.err == io.EOF:
				a.sweep()
				return nil
			case r.err != nil && ctx.Err() != nil:
				return nil
			case r.err != nil:
				return r.err
			default:
				a.add(r.in)
			}
		case <-tick.C:
			a.sweep()
			a.health.update(feed.Stale())
		case <-ctx.Done():
			return nil
		}
	}
}

// add applies one input. A watch's note is logged, not kept: the engine would keep its text
// for the agent's life. The first list's end is swept at once, so that the pods final in it,
// and only they, are skipped.
func (a *Agent) add(in play.Input) {
	switch {
	case in.Note != "":
		a.cfg.Log.Info("watch", "note", in.Note)
	case in.Listed:
		a.e.Add(a.feed, in)
		if !a.listed {
			a.sweep()
			a.listed = true
			a.ready.Store(true)
			a.cfg.Log.Info("first list in", "pods", len(a.pods), "leader", a.Leader())
		}
	default:
		a.e.Add(a.feed, in)
	}
}
