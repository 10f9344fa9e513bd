package timeline

import (
	"fmt"
	"slices"
	"time"
)

// sortMilestones puts ms in the order of Before, stably. A milestone is a few hundred bytes, so
// the order is found on indices (by insertion for a run's handful, by a stable sort for a long
// pod row), then each milestone is moved once, along the permutation's cycles.
func sortMilestones(ms []Milestone) {
	sorted := true
	for i := 1; i < len(ms) && sorted; i++ {
		sorted = !Before(&ms[i], &ms[i-1])
	}
	if sorted {
		return
	}
	var small [16]int
	var smallMoved [16]bool
	idx, moved := small[:0], smallMoved[:]
	if len(ms) > len(small) {
		idx, moved = make([]int, 0, len(ms)), make([]bool, len(ms))
	}
	for i := range ms {
		idx = append(idx, i)
	}
	if len(ms) <= len(small) {
		insertionOrder(ms, idx)
	} else {
		slices.SortStableFunc(idx, func(a, b int) int {
			switch {
			case Before(&ms[a], &ms[b]):
				return -1
			case Before(&ms[b], &ms[a]):
				return 1
			}
			return 0
		})
	}
	permute(ms, idx, moved)
}

// insertionOrder sorts idx, indices into ms, by Before of what they index, stably.
func insertionOrder(ms []Milestone, idx []int) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && Before(&ms[idx[j]], &ms[idx[j-1]]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}

// permute puts at each position k of ms the milestone at idx[k]: along each cycle of the
// permutation, every one moves once. moved, as long as ms and all false, marks those that did.
func permute(ms []Milestone, idx []int, moved []bool) {
	for k := range ms {
		if moved[k] || idx[k] == k {
			continue
		}
		tmp := ms[k]
		for j := k; ; {
			moved[j] = true
			src := idx[j]
			if src == k {
				ms[j] = tmp
				break
			}
			ms[j] = ms[src]
			j = src
		}
	}
}

// Before orders milestones by time; at the same time an inferred one goes after the facts it
// was inferred from, and then kinds go in the order they happen. Each milestone's Gap is from
// the one before it in this order, so views list them in it.
func Before(a, b *Milestone) bool {
	if !a.At.Equal(b.At) {
		return a.At.Before(b.At)
	}
	if ai, bi := a.Source == SourceInferred, b.Source == SourceInferred; ai != bi {
		return bi
	}
	if a.Container == b.Container && a.Attempt != b.Attempt {
		return a.Attempt < b.Attempt // a run's milestones before the next run's
	}
	return kindRank[a.Kind] < kindRank[b.Kind]
}

func statusField(k ContainerKind) string {
	switch k {
	case KindInit, KindSidecar:
		return "initContainerStatuses"
	case KindEphemeral:
		return "ephemeralContainerStatuses"
	}
	return "containerStatuses"
}

// signalName names the signal that ended a container: the status's signal field if set, else the
// shell convention 128+n of the exit code.
func signalName(signal, exitCode int32) string {
	n := signal
	if n == 0 && exitCode > 128 && exitCode < 160 {
		n = exitCode - 128
	}
	switch n {
	case 0:
		return ""
	case 1:
		return "SIGHUP"
	case 2:
		return "SIGINT"
	case 3:
		return "SIGQUIT"
	case 6:
		return "SIGABRT"
	case 9:
		return "SIGKILL"
	case 11:
		return "SIGSEGV"
	case 15:
		return "SIGTERM"
	}
	return fmt.Sprintf("signal %d", n)
}

// stateText is a container's latest state as a short phrase.
func stateText(cs *ContainerStatus) string {
	switch {
	case cs == nil:
		return "no status yet"
	case cs.Waiting != nil:
		return "waiting: " + cs.Waiting.Reason
	case cs.Running != nil && cs.Ready:
		return "running, ready"
	case cs.Running != nil && cs.Started != nil && *cs.Started:
		return "running, started, not ready"
	case cs.Running != nil:
		return "running, not ready"
	case cs.Terminated != nil:
		s := fmt.Sprintf("terminated: exit %d", cs.Terminated.ExitCode)
		if sig := signalName(cs.Terminated.Signal, cs.Terminated.ExitCode); sig != "" {
			s += " (" + sig + ")"
		} else if cs.Terminated.Reason != "" {
			s += " (" + cs.Terminated.Reason + ")"
		}
		return s
	}
	return "unknown"
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// exitAfter moves an exit's estimate into the part of its interval after the SIGTERM that
// caused it, so that the two read in the order they happened.
func exitAfter(exit, sigterm *Milestone) {
	if exit == nil {
		return
	}
	if sigterm.At.After(exit.Earliest) && !sigterm.At.After(exit.Latest) {
		exit.At = interval{sigterm.At, exit.Latest}.mid()
	}
	inOrder(sigterm, exit)
}

// inOrderAfter places the estimates of ms, each within its interval, to read in that order after
// floor (the estimate of what the kubelet did before them), when they do not: evenly in the
// stretch after floor that the intervals of the first of them share (as many as share one), the
// rest no sooner than the one before.
func inOrderAfter(floor time.Time, ms ...*Milestone) {
	if len(ms) == 0 {
		return
	}
	lo, hi, n := floor, ms[0].Latest, 0
	for ; n < len(ms); n++ {
		l, h := later(lo, ms[n].Earliest), earlier(hi, ms[n].Latest)
		if !h.After(l) {
			break
		}
		lo, hi = l, h
	}
	ordered, prev := true, floor
	for _, m := range ms[:n] {
		ordered, prev = ordered && m.At.After(prev), m.At
	}
	if !ordered {
		step := hi.Sub(lo) / time.Duration(n+1)
		for i, m := range ms[:n] {
			m.At = lo.Add(step * time.Duration(i+1))
		}
	}
	// The others (and a first whose interval ends at floor) read no sooner than the one before,
	// as far as their intervals let them.
	prev = floor
	for _, m := range ms {
		if m.At.Before(prev) {
			m.At = interval{m.Earliest, m.Latest}.clamp(prev)
		}
		prev = m.At
	}
}

// inOrder moves the estimates of a and b, each within its interval, so that a reads before b,
// when the stretch their intervals share allows it: what the kubelet orders reads in its order
// even when the evidence cannot separate the two.
func inOrder(a, b *Milestone) {
	if a.At.Before(b.At) {
		return
	}
	lo, hi := later(a.Earliest, b.Earliest), earlier(a.Latest, b.Latest)
	if !hi.After(lo) || a.Earliest.After(hi) || b.Latest.Before(lo) {
		return
	}
	a.At, b.At = lo.Add(hi.Sub(lo)/3), lo.Add(hi.Sub(lo)*2/3)
}

// backOffsBetween has a run's back-offs read after the run before's exit and before the run's
// Created (or its start): the kubelet backs off between the two. A whole-second Event is placed
// when it arrived, which can read after the Created or the start it came before.
func backOffsBetween(ms []Milestone, a int32, prevExit *Milestone) {
	next := findMilestone(ms, MCreated, a)
	if next == nil {
		next = findMilestone(ms, startKind(a), a)
	}
	for i := range ms {
		m := &ms[i]
		if m.Kind != MBackOff || m.Attempt != a {
			continue
		}
		iv := interval{m.Earliest, m.Latest}
		if next != nil && m.At.After(next.At) {
			m.At = iv.clamp(next.At)
		}
		if prevExit != nil && m.At.Before(prevExit.At) {
			m.At = iv.clamp(prevExit.At)
		}
	}
}
