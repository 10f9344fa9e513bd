package agent

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/sidecar-top/sidecar-top/watch"
)

// health passes a watch's items on and keeps the watch-health metrics: when it last delivered
// anything, how often a watch expired or was lost and taken again (each ends in a relist or a
// resumed watch), and whether the API server is silent (stale).
type health struct {
	src  watch.Source
	m    *Metrics
	last atomic.Int64 // unix nanoseconds of the last item, by this machine's clock
}

func newHealth(src watch.Source, m *Metrics) *health {
	h := &health{src: src, m: m}
	h.last.Store(time.Now().UnixNano())
	return h
}

// Next is the source's next item, noted.
func (h *health) Next(ctx context.Context) (watch.Item, error) {
	it, err := h.src.Next(ctx)
	if err != nil {
		return it, err
	}
	h.last.Store(time.Now().UnixNano())
	if n, ok := it.Object.(*watch.Note); ok && (n.Reason == watch.WatchExpired || n.Reason == watch.WatchResumed) {
		h.m.Relists.Inc()
	}
	return it, nil
}

// Silent is the source's (a live watch's) silence, so that the feed can tell it is stale.
func (h *health) Silent() time.Duration {
	if s, ok := h.src.(interface{ Silent() time.Duration }); ok {
		return s.Silent()
	}
	return 0
}

// update sets the gauges; stale is how long the server has been silent, once it is stale.
func (h *health) update(stale time.Duration) {
	h.m.LastEventAge.Set(time.Since(time.Unix(0, h.last.Load())).Seconds())
	if stale > 0 {
		h.m.Stale.Set(1)
	} else {
		h.m.Stale.Set(0)
	}
}
