package timeline

// The readiness-held-by-sidecar rule: when a Pod's Ready waited for a native sidecar's
// readiness, and when a running Pod is not Ready only because a sidecar is not. Its ready index
// finds, for a Pod's Ready, the lane whose readiness came last before it.

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// readinessHeldBySidecar: a native sidecar's readiness counts toward the Pod's Ready condition.
func readinessHeldBySidecar(p *Pod, f *podFacts) []Finding {
	out := readyWaitedForSidecars(p)
	if f.readyNow == "False" && p.Phase == "Running" && f.gatesHeld == "" {
		if m, ok := notReadyForSidecars(f); ok {
			out = append(out, m)
		}
	}
	return out
}

// readyWaitedForSidecars are the sidecars whose readiness the Pod's Ready waited for, a finding
// each, with when.
func readyWaitedForSidecars(p *Pod) []Finding {
	var out []Finding
	var waitedFor []string // sidecars the Pod's Ready waited for, once each
	times := map[string][]string{}
	idx := newReadyIndex(p)
	gated := false // the last Ready change was the readiness gates holding the pod
	for _, m := range p.Milestones.All() {
		if m.Kind == MNotReady {
			gated = m.Reason == reasonGatesNotReady
		}
		if m.Kind != MReady {
			continue
		}
		if gated {
			gated = false
			continue // it waited for the gates, every container ready
		}
		last := idx.waitedFor(p, m)
		if last == nil {
			continue
		}
		if times[last.Container] == nil {
			waitedFor = append(waitedFor, last.Container)
		}
		times[last.Container] = append(times[last.Container], p.offset(last.At))
	}
	for _, c := range waitedFor {
		when := "at " + times[c][0]
		if n := len(times[c]); n > 1 {
			when = fmt.Sprintf("%d times, last at %s", n, times[c][n-1])
		}
		out = append(out, Finding{Severity: SeverityInfo, Container: c, Text: fmt.Sprintf(
			"Pod Ready waited for sidecar %s to become ready (%s): a native sidecar's readiness counts toward the Pod's.",
			quote(c), when)})
	}
	return out
}

// notReadyForSidecars is the finding of a running Pod that is not Ready only because sidecars
// are not: every app container running is ready; ok is false otherwise.
func notReadyForSidecars(f *podFacts) (Finding, bool) {
	var notReady []string
	for _, l := range f.lanes {
		if !l.hasStatus || !l.running || l.ready {
			continue
		}
		switch l.spec.Kind {
		case KindApp:
			return Finding{}, false
		case KindSidecar:
			notReady = append(notReady, l.spec.Name)
		}
	}
	if len(notReady) == 0 {
		return Finding{}, false
	}
	return Finding{ID: FindingSidecarNotReady, Severity: SeverityWarning, Container: notReady[0], Text: fmt.Sprintf(
		"the Pod is not Ready only because sidecar %s is not ready; the app containers are ready.",
		strings.Join(quoteAll(notReady), ", "))}, true
}

// readyIndex finds, for a time t, the container ready milestone closest before it: per lane, the
// ready milestones by earliest, each with the latest estimate among those up to it.
type readyIndex [][]readyEntry

type readyEntry struct {
	earliest time.Time
	best     *Milestone // the one with the latest estimate among the entries up to this one
	latest   time.Time  // the latest bound among the entries up to this one
}

func newReadyIndex(p *Pod) readyIndex {
	idx := make(readyIndex, len(p.Containers))
	for ci := range p.Containers {
		var ms []*Milestone
		for _, r := range p.Containers[ci].Runs.Items() {
			for i := range r.Milestones {
				if r.Milestones[i].Kind == MReady {
					ms = append(ms, &r.Milestones[i])
				}
			}
		}
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].Earliest.Before(ms[j].Earliest) })
		entries := make([]readyEntry, len(ms))
		for i, m := range ms {
			entries[i] = readyEntry{m.Earliest, m, m.Latest}
			if i > 0 && !m.At.After(entries[i-1].best.At) {
				entries[i].best = entries[i-1].best
			}
			if i > 0 && entries[i-1].latest.After(m.Latest) {
				entries[i].latest = entries[i-1].latest
			}
		}
		idx[ci] = entries
	}
	return idx
}

// lastBefore is the ready milestone of any lane that may be at or before t with the latest
// estimate; of equal ones, the first lane's.
func (idx readyIndex) lastBefore(t time.Time) *Milestone {
	var best *Milestone
	for _, entries := range idx {
		k := sort.Search(len(entries), func(i int) bool { return entries[i].earliest.After(t) })
		if k == 0 {
			continue
		}
		if m := entries[k-1].best; best == nil || m.At.After(best.At) {
			best = m
		}
	}
	return best
}

// waitedFor is the sidecar's ready milestone the Pod's Ready (podReady) waited for, or nil: the
// lane ready last by it is a sidecar's, ready within a second of it (the kubelet sets the Pod's
// Ready in the status that says the container is ready, and notices that up to a second late),
// and every other lane was ready before. A Pod's Ready that came again while every lane had been
// ready for minutes waited for none of them, though the one ready last was a sidecar.
func (idx readyIndex) waitedFor(p *Pod, podReady *Milestone) *Milestone {
	last := idx.lastBefore(podReady.Latest.Add(second))
	if last == nil || kindOf(p, last.Container) != KindSidecar || last.Latest.Add(second).Before(podReady.Earliest) {
		return nil
	}
	if !idx.othersReadyBefore(p, last.Container, podReady) {
		return nil
	}
	return last
}

// othersReadyBefore reports whether every lane but sidecar's that was ready by the Pod's Ready
// (podReady) certainly was a second before it (the kubelet may notice a readiness change that
// late), so that the Pod's Ready waited for the sidecar. Of a pod listed after it became ready,
// every lane's ready is bounded by the list, and which came last is not known: no finding.
func (idx readyIndex) othersReadyBefore(p *Pod, sidecar string, podReady *Milestone) bool {
	t := podReady.Latest.Add(second)
	for ci, entries := range idx {
		if p.Containers[ci].Name == sidecar {
			continue
		}
		k := sort.Search(len(entries), func(i int) bool { return entries[i].earliest.After(t) })
		if k > 0 && !entries[k-1].latest.Add(second).Before(podReady.Earliest) {
			return false
		}
	}
	return true
}
