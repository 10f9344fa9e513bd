package main

import (
	"fmt"
	"slices"

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

// met reports whether the snapshot satisfies the condition for the target. For a Job target,
// complete and deleted are the Job's own; otherwise every pod must be so, and there must be one.
func (c untilCondition) met(t watch.Target, s timeline.Snapshot) bool {
	switch {
	case c == untilNone:
		return false
	case t.Kind == watch.TargetJob && c != untilReady:
		return slices.ContainsFunc(s.Jobs, c.jobMet)
	case s.Pods.Len() == 0:
		return false
	}
	for _, p := range s.Pods.Items() {
		if !c.podMet(p) {
			return false
		}
	}
	return true
}

// jobMet reports whether Job j is as c waits for: deleted, or Complete or Failed.
func (c untilCondition) jobMet(j *timeline.Job) bool {
	switch c {
	case untilDeleted:
		return j.Deleted
	case untilComplete:
		return j.Status == "Complete" || j.Status == "Failed"
	}
	return false
}

// podMet reports whether pod p is as c waits for. A deleted pod is as complete and as ready as it
// will ever be.
func (c untilCondition) podMet(p *timeline.Pod) bool {
	switch c {
	case untilComplete:
		return p.Deleted || p.Phase == "Succeeded" || p.Phase == "Failed"
	case untilDeleted:
		return p.Deleted
	case untilReady:
		return p.Deleted || podReady(p)
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
