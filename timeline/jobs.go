package timeline

import (
	"iter"
	"time"
)

// jobState is what the Builder keeps of one Job: its condition transitions.
type jobState struct {
	key        string
	last       *JobObservation
	firstSeen  time.Time
	lastSeen   time.Time
	conditions seqBuilder[conditionChange]
	deleted    *seen
	events     seqBuilder[Event] // the Job's own Event occurrences

	dirty bool
	out   *Job
}

func (js *jobState) observe(r time.Time, t WatchType, j *JobObservation) {
	js.dirty = true
	if js.last == nil {
		js.firstSeen = r
	}
	s := newSeen(r, js.lastSeen)
	js.last, js.lastSeen = j, r
	for _, c := range j.Conditions {
		if !hasConditionChange(&js.conditions, c) {
			js.conditions.insert(js.conditions.len(), conditionChange{c, s})
		}
	}
	if t == Deleted && js.deleted == nil {
		seen := s // copied only here, not at every update
		js.deleted = &seen
	}
}

// job derives a Job's lane: creation, each condition that became True, and deletion.
func (d *deriver) job(js *jobState) *Job {
	j := js.last
	out := &Job{Namespace: j.Namespace, Name: j.Name, UID: j.UID, Created: j.Created, Status: jobStatus(j),
		Active: j.Active, Succeeded: j.Succeeded, Failed: j.Failed, Deleted: js.deleted != nil, Events: js.events.view()}
	created := d.bound(wholeSecond(j.Created), time.Time{}, js.firstSeen)
	out.Milestones = append(out.Milestones, Milestone{Kind: MCreated, At: j.Created, Earliest: created.lo,
		Latest: created.hi, Source: SourceStatus,
		Evidence: []Evidence{{What: "metadata.creationTimestamp", API: j.Created, Precision: "1s"}}})
	for i := range js.conditions.len() {
		c := js.conditions.at(i)
		if c.Status != "True" {
			continue
		}
		m := d.conditionMilestone(MCondition, c)
		m.Reason, m.Message = c.Type, c.Reason
		out.Milestones = append(out.Milestones, m)
	}
	if js.deleted != nil {
		out.Milestones = append(out.Milestones, observedMilestone(MDeleted, *js.deleted, "watch event DELETED", js.firstSeen))
	}
	sortMilestones(out.Milestones)
	for i := range out.Milestones {
		m := &out.Milestones[i]
		m.Offset = offsetFrom(j.Created, m)
		if i > 0 {
			g := spanBetween(&out.Milestones[i-1], m, false)
			m.Gap = &g
		}
	}
	return out
}

// JobFindings are the warnings of the job's pods, for the job's lane.
func (s Snapshot) JobFindings(j *Job) []Finding {
	var out []Finding
	for f := range s.JobWarnings(j) {
		out = append(out, *f)
	}
	return out
}

// JobWarnings yields JobFindings one by one, pod by pod, without collecting them: a view that
// shows the first few of a big Job's stops there.
func (s Snapshot) JobWarnings(j *Job) iter.Seq[*Finding] {
	return func(yield func(*Finding) bool) {
		for _, p := range s.Pods.Items() {
			if !ownedBy(p, j) {
				continue
			}
			fs := p.Findings()
			for i := range fs {
				if fs[i].Severity == SeverityWarning && !yield(&fs[i]) {
					return
				}
			}
		}
	}
}

// ownedBy reports whether p is one of j's pods.
func ownedBy(p *Pod, j *Job) bool {
	return p.Owner != nil && p.Owner.Kind == "Job" && p.Owner.Name == j.Name && p.Namespace == j.Namespace
}

// jobStatus is a Job's state in a word, as its conditions say.
func jobStatus(j *JobObservation) string {
	status := "Running"
	if j.Active == 0 && j.Succeeded == 0 && j.Failed == 0 {
		status = "Pending"
	}
	for _, c := range j.Conditions {
		if c.Status != "True" {
			continue
		}
		switch c.Type {
		case "Complete", "Failed", "Suspended":
			return c.Type
		case "SuccessCriteriaMet":
			status = "Completing"
		case "FailureTarget":
			status = "Failing"
		}
	}
	return status
}
