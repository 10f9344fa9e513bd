// Package hostile puts hostile text into a timeline, for the tests of what shows it (the view,
// the exports): every text a pod or a Job carries becomes one of the strings a caller picks,
// so that a test of escaping covers each place text is written from.
package hostile

import (
	"fmt"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Pod is a copy of p with h(i) in every text it holds: its name ("pod-" and h(0)), namespace,
// node, status and phase, its status changes, its row's and its runs' milestones (reason,
// message, signal, evidence notes), its containers' names and states, its runs' state changes,
// its gaps' names and its Events. p's lists are not written to. Its owner and findings are the
// caller's to set.
func Pod(p timeline.Pod, h func(int) string) *timeline.Pod {
	p.Name, p.Namespace, p.Node, p.Status, p.Phase = "pod-"+h(0), h(1), h(2), h(3), h(4)
	p.Statuses = append([]timeline.StatusChange(nil), p.Statuses...)
	for i := range p.Statuses {
		p.Statuses[i].Status = h(i + 5)
	}
	ms := p.Milestones.Slice()
	for i := range ms {
		ms[i].Reason, ms[i].Message = h(i), h(i+1)
	}
	p.Milestones = timeline.SeqOf(ms...)
	p.Containers = append([]timeline.Container(nil), p.Containers...)
	for i := range p.Containers {
		c := &p.Containers[i]
		c.Name, c.State = fmt.Sprintf("%d-%s", i, h(i+3)), h(i+6)
		var runs []*timeline.Run
		for _, r := range c.Runs.Items() {
			nr := *r
			nr.Milestones = append([]timeline.Milestone(nil), r.Milestones...)
			for j := range nr.Milestones {
				m := &nr.Milestones[j]
				m.Container, m.Reason, m.Message, m.Signal = c.Name, h(j+i), h(j+i+2), h(j)
				m.Evidence = append([]timeline.Evidence(nil), m.Evidence...)
				for k := range m.Evidence {
					m.Evidence[k].Note = h(k + j)
				}
			}
			nr.Changes = append([]timeline.StateChange(nil), r.Changes...)
			for j := range nr.Changes {
				nr.Changes[j].Reason = h(j + 1)
			}
			runs = append(runs, &nr)
		}
		c.Runs = timeline.SeqOf(runs...)
	}
	p.Gaps = append([]timeline.Gap(nil), p.Gaps...)
	for i := range p.Gaps {
		p.Gaps[i].Name = h(i + 7)
	}
	var evs []timeline.Event
	for i, e := range p.Events.Slice() {
		e.Object, e.Container, e.Reason, e.Message, e.Type = "Pod/"+h(i), h(i+1), h(i+2), h(i+3), h(i+4)
		evs = append(evs, e)
	}
	p.Events = timeline.SeqOf(evs...)
	return &p
}

// Conditions is a copy of j whose conditions (its milestones) have h(i+from) for reason and
// h(i+from+1) for message: a condition's type, which any client that may write the Job's status
// picks, is its milestone's reason. j's list is not written to.
func Conditions(j timeline.Job, h func(int) string, from int) *timeline.Job {
	j.Milestones = append([]timeline.Milestone(nil), j.Milestones...)
	for i := range j.Milestones {
		j.Milestones[i].Reason, j.Milestones[i].Message = h(i+from), h(i+from+1)
	}
	return &j
}
