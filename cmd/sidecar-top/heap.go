package main

import (
	"io"

	"github.com/sidecar-top/sidecar-top/internal/memtune"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/watch"
)

// boundHeap keeps a replay's memory within the size of the recording r reads, when it is a file
// and the user has not set GOMEMLIMIT (memtune.Replay); it returns what the reader is to tell of
// its progress (recfile.Options.Progress), or nil.
func boundHeap(r io.Reader) (progress func(kept int64)) { return memtune.Replay(r) }

// liveHeap sets the collector's target for a live run (play.LiveGCPercent), unless the user has
// set GOGC.
func liveHeap() { memtune.Live(play.LiveGCPercent) }

// scopeHeap bounds the heap of a run that watches a scope (memtune.Scope): every pod of a
// namespace or a cluster is held, and the heap follows what is live rather than growing to three
// times it.
func scopeHeap(t watch.Target) {
	if t.Kind == watch.TargetScope {
		memtune.Scope()
	}
}
