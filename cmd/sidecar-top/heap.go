package main

import (
	"io"

	"github.com/sidecar-top/sidecar-top/internal/memtune"
	"github.com/sidecar-top/sidecar-top/play"
)

// boundHeap keeps a replay's memory within the size of the recording r reads, when it is a file
// and the user has not set GOMEMLIMIT (memtune.Replay); it returns what the reader is to tell of
// its progress (watch.Reader.Progress), or nil.
func boundHeap(r io.Reader) (progress func(kept int64)) { return memtune.Replay(r) }

// liveHeap sets the collector's target for a live run (play.LiveGCPercent), unless the user has
// set GOGC.
func liveHeap() { memtune.Live(play.LiveGCPercent) }
