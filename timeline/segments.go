package timeline

import (
	"sort"
	"strconv"
	"time"
)

// segments cuts a lane into stretches of one state each, from the pod's creation on. The last
// segment stays open (To zero) unless the pod is gone from the API.
func segments(ps *podState, ls *laneState, ms []Milestone) []Segment {
	type change struct {
		at     time.Time
		state  LaneState
		reason string
		rank   int
	}
	changes := []change{{at: ps.last.Created, state: StatePending}}
	for _, w := range ls.waits {
		changes = append(changes, change{w.at, StateWaiting, w.reason, 1})
	}
	started := map[int32]bool{}
	for _, m := range ms {
		switch m.Kind {
		case MStart, MRestart:
			changes = append(changes, change{m.At, StateRunning, "", 2})
		case MStarted:
			started[m.Attempt] = true
			changes = append(changes, change{m.At, StateStarted, "", 3})
		case MReady:
			changes = append(changes, change{m.At, StateReady, "", 4})
		case MNotReady:
			st := StateRunning
			if started[m.Attempt] {
				st = StateStarted
			}
			changes = append(changes, change{m.At, st, "not ready", 5})
		case MSigterm:
			changes = append(changes, change{m.At, StateTerminating, "", 6})
		case MExit:
			reason := "exit " + strconv.Itoa(int(deref(m.ExitCode)))
			if m.Signal != "" {
				reason += " " + m.Signal
			}
			changes = append(changes, change{m.At, StateTerminated, reason, 7})
		}
	}
	sort.SliceStable(changes, func(i, j int) bool {
		if !changes[i].at.Equal(changes[j].at) {
			return changes[i].at.Before(changes[j].at)
		}
		return changes[i].rank < changes[j].rank
	})
	var out []Segment
	for _, c := range changes {
		if n := len(out); n > 0 {
			last := &out[n-1]
			if last.State == c.state && last.Reason == c.reason {
				continue
			}
			if !c.at.After(last.From) {
				// Same instant: the later change wins.
				last.State, last.Reason = c.state, c.reason
				continue
			}
			last.To = c.at
		}
		out = append(out, Segment{State: c.state, Reason: c.reason, From: c.at})
	}
	if ps.deleted != nil && len(out) > 0 {
		end := ps.deleted.at
		if end.After(out[len(out)-1].From) {
			out[len(out)-1].To = end
		}
	}
	return out
}

func deref(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}
