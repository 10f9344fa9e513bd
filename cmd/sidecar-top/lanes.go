package main

import (
	"context"
	"fmt"
	"regexp"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// laneFilter is -c/--container: the lanes shown (in the view, the plain lines and -o json) are
// those of the containers it names. A name matches that container alone; an argument with a
// character no name holds (watch.IsPattern: * + ? ^ $ [ ] ( ) { } | \) is a regular expression,
// unanchored as stern's -c. The timeline is derived whole, as without -c: a pod's gaps and
// findings are the pod's, whichever lanes are shown.
type laneFilter struct {
	keep func(name string) bool
	// last maps each pod of the last snapshot to its filtered copy: a pod that did not change
	// keeps the same copy, so what is drawn from it is not drawn again.
	last map[*timeline.Pod]*timeline.Pod
}

// newLaneFilter reads -c; nil (every lane) for "".
func newLaneFilter(spec string) (*laneFilter, error) {
	switch {
	case spec == "":
		return nil, nil
	case !watch.IsPattern(spec):
		return &laneFilter{keep: func(name string) bool { return name == spec }}, nil
	}
	re, err := regexp.Compile(spec)
	if err != nil {
		return nil, fmt.Errorf("-c %q: a container's name, or a regular expression: %w", spec, err)
	}
	return &laneFilter{keep: re.MatchString}, nil
}

// snapshot is s with each pod's lanes narrowed to the containers f keeps; s itself for a nil f.
func (f *laneFilter) snapshot(s timeline.Snapshot) timeline.Snapshot {
	if f == nil {
		return s
	}
	next := make(map[*timeline.Pod]*timeline.Pod, s.Pods.Len())
	pods := make([]*timeline.Pod, 0, s.Pods.Len())
	for _, p := range s.Pods.Items() {
		q, ok := f.last[p]
		if !ok {
			q = f.pod(p)
		}
		next[p] = q
		pods = append(pods, q)
	}
	f.last = next
	s.Pods = timeline.SeqOf(pods...)
	return s
}

// pod is a copy of p with the lanes f keeps: its rows are derived again from them, its
// findings are p's.
func (f *laneFilter) pod(p *timeline.Pod) *timeline.Pod {
	q := p.WithFindings(p.Findings())
	q.Containers = nil
	for _, c := range p.Containers {
		if f.keep(c.Name) {
			q.Containers = append(q.Containers, c)
		}
	}
	return q
}

// frame is fr with its snapshot filtered.
func (f *laneFilter) frame(fr play.Frame) play.Frame {
	fr.Snapshot = f.snapshot(fr.Snapshot)
	return fr
}

// frames relays in to the returned channel, each frame filtered, until ctx ends or in closes;
// in itself for a nil f.
func (f *laneFilter) frames(ctx context.Context, in <-chan play.Frame) <-chan play.Frame {
	if f == nil {
		return in
	}
	out := make(chan play.Frame, 1)
	go func() {
		defer close(out)
		for {
			select {
			case fr, ok := <-in:
				if !ok {
					return
				}
				latest(out, f.frame(fr))
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}
