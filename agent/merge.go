package agent

import (
	"context"
	"time"

	"github.com/sidecar-top/sidecar-top/watch"
)

// Merge is one source of several watches (a watch per namespace of -n): their items as each
// delivers them, one Listed note once every watch's first list is in, and the longest silence
// of their servers. One source is itself.
func Merge(srcs ...watch.Source) watch.Source {
	if len(srcs) == 1 {
		return srcs[0]
	}
	m := &merged{srcs: srcs, items: make(chan read, 256), waiting: len(srcs)}
	return m
}

type read struct {
	it  watch.Item
	err error
}

type merged struct {
	srcs    []watch.Source
	items   chan read
	started bool
	waiting int // watches whose Listed note has not come
}

// Next is the next item of any of the watches. An error that is not transient ends the merge.
func (m *merged) Next(ctx context.Context) (watch.Item, error) {
	if !m.started {
		m.started = true
		for _, s := range m.srcs {
			go m.pump(ctx, s)
		}
	}
	for {
		var r read
		select {
		case r = <-m.items:
		case <-ctx.Done():
			return watch.Item{}, ctx.Err()
		}
		if n, ok := r.it.Object.(*watch.Note); ok && r.err == nil && n.Reason == watch.Listed {
			if m.waiting--; m.waiting > 0 {
				continue
			}
		}
		return r.it, r.err
	}
}

// pump reads one watch until it ends.
func (m *merged) pump(ctx context.Context, s watch.Source) {
	for {
		it, err := s.Next(ctx)
		select {
		case m.items <- read{it, err}:
		case <-ctx.Done():
			return
		}
		if err != nil && !transient(err) {
			return
		}
	}
}

// Silent is the longest silence of the watches' servers.
func (m *merged) Silent() time.Duration {
	var d time.Duration
	for _, s := range m.srcs {
		if q, ok := s.(interface{ Silent() time.Duration }); ok {
			d = max(d, q.Silent())
		}
	}
	return d
}
