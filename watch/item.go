// Package watch is the only part of sidecar-top that talks to the API server and to the nodes'
// logs: it runs the watches of a target, checks access before them, follows the logs, and
// translates Pod, Event and Job objects (and its own log items and notes) into timeline
// observations. Recordings are written and read by package recfile, which uses this
// translation; watch knows nothing of recordings.
package watch

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Item is one watch event as kubectl prints it with --output-watch-events, plus the local time
// it was received: the unit that is recorded, replayed and translated.
type Item struct {
	Time   time.Time
	Type   timeline.WatchType
	Object runtime.Object
}

// A Source delivers items in the order they were received. Next blocks until the next item; it
// returns io.EOF after the last one, or the context's error. Live informers, a recording and a
// test's slice are Sources, so all three feed the same translation and builder.
type Source interface {
	Next(ctx context.Context) (Item, error)
}
