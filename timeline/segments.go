package timeline

import (
	"slices"
	"strconv"
	"time"
)

// newRun makes attempt a's Run from its milestones, placed (placeMilestones), and the lane's
// state changes they (and waits, the waits before the run) make.
func newRun(a int32, ms []Milestone, waits []waitChange) *Run {
	return &Run{Attempt: a, Milestones: ms, Changes: appendChanges(make([]StateChange, 0, len(waits)+len(ms)), a, ms, waits)}
}

// placeMilestones puts a run's milestones in order and sets their offsets from the pod's creation.
func placeMilestones(ms []Milestone, created time.Time) {
	sortMilestones(ms)
	for i := range ms {
		ms[i].Offset = offsetFrom(created, &ms[i])
	}
}

// appendChanges appends where the run's milestones (and its waits) move the lane into another
// state, in time order; at one instant, in the order the states follow each other.
func appendChanges(out []StateChange, a int32, ms []Milestone, waits []waitChange) []StateChange {
	n := len(out)
	for _, w := range waits {
		out = append(out, StateChange{w.at, StateWaiting, w.reason})
	}
	started := false
	for i := range ms {
		m := &ms[i]
		switch m.Kind {
		case MStart, MRestart:
			out = append(out, StateChange{m.At, StateRunning, ""})
		case MStarted:
			started = true
			out = append(out, StateChange{m.At, StateStarted, ""})
		case MReady:
			out = append(out, StateChange{m.At, StateReady, ""})
		case MNotReady:
			st := StateRunning
			if started {
				st = StateStarted
			}
			out = append(out, StateChange{m.At, st, "not ready"})
		case MSigterm:
			out = append(out, StateChange{m.At, StateTerminating, ""})
		case MExit:
			out = append(out, StateChange{m.At, StateTerminated, exitReason(deref(m.ExitCode), m.Signal)})
		}
	}
	slices.SortStableFunc(out[n:], func(a, b StateChange) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return changeRank(a) - changeRank(b)
	})
	return out
}

// changeRank orders state changes at one instant as they follow each other.
func changeRank(c StateChange) int {
	switch c.State {
	case StatePending:
		return 0
	case StateWaiting:
		return 1
	case StateRunning, StateStarted:
		if c.Reason == "not ready" {
			return 5
		}
		if c.State == StateStarted {
			return 3
		}
		return 2
	case StateReady:
		return 4
	case StateTerminating:
		return 6
	}
	return 7
}

func deref(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// exitReason is a terminated state change's reason: "exit 0", "exit 143 SIGTERM". A run's state
// changes are made whenever it is derived, twice when the final pass changes it: the common
// reasons are constants rather than put together each time.
func exitReason(code int32, signal string) string {
	switch {
	case signal == "" && code == 0:
		return "exit 0"
	case signal == "" && code == 1:
		return "exit 1"
	case signal == "SIGKILL" && code == 137:
		return "exit 137 SIGKILL"
	case signal == "SIGTERM" && code == 143:
		return "exit 143 SIGTERM"
	}
	reason := "exit " + strconv.Itoa(int(code))
	if signal != "" {
		reason += " " + signal
	}
	return reason
}
