package main

import (
	"fmt"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// untilCondition is record's --until: when the recording has what it needs.
type untilCondition string

const (
	untilNone     untilCondition = ""
	untilComplete untilCondition = "complete" // the pods finished (a Job: Complete or Failed)
	untilDeleted  untilCondition = "deleted"  // the pods (a Job: the Job) are gone from the API
	untilReady    untilCondition = "ready"    // every pod is Ready
)

func parseUntil(s string) (untilCondition, error) {
	switch c := untilCondition(s); c {
	case untilNone, untilComplete, untilDeleted, untilReady:
		return c, nil
	}
	return untilNone, fmt.Errorf("--until %q: want complete, deleted or ready", s)
}

// met reports whether the snapshot satisfies the condition for the target.
func (c untilCondition) met(t watch.Target, s timeline.Snapshot) bool {
	if c == untilNone {
		return false
	}
	if t.Kind == watch.TargetJob && c != untilReady {
		for _, j := range s.Jobs {
			if c == untilDeleted && j.Deleted {
				return true
			}
			if c == untilComplete && (j.Status == "Complete" || j.Status == "Failed") {
				return true
			}
		}
		return false
	}
	if s.Pods.Len() == 0 {
		return false
	}
	for _, p := range s.Pods.Items() {
		switch c {
		case untilComplete:
			if !p.Deleted && p.Phase != "Succeeded" && p.Phase != "Failed" {
				return false
			}
		case untilDeleted:
			if !p.Deleted {
				return false
			}
		case untilReady:
			if !p.Deleted && !podReady(p) {
				return false
			}
		}
	}
	return true
}

// podReady reports whether the pod's Ready condition is True now: its last ready or not-ready
// milestone is ready.
func podReady(p *timeline.Pod) bool {
	ready := false
	for _, m := range p.Milestones.All() {
		switch m.Kind {
		case timeline.MReady:
			ready = true
		case timeline.MNotReady, timeline.MDeleted:
			ready = false
		}
	}
	return ready
}
