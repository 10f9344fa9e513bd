package compare

import (
	"github.com/sidecar-top/sidecar-top/timeline"
)

// End is how a pod or Job ended in its recording, or that it never did.
type End struct {
	Ended bool `json:"ended"`
	// How is what it ended as: Succeeded or Failed (a pod's phase), Complete or Failed (a Job's
	// condition), deleted (a pod gone with no terminal phase seen). When it never ended, the
	// status the recording leaves it in: kubectl's STATUS of a pod, a Job's state.
	How string `json:"how"`
	// At is when it ended, from its creation.
	At *timeline.Span `json:"at,omitempty"`
	// Pods and EndedPods count a side's pods and those that ended, when all pods are compared
	// as one (by gap): the side ended when every pod did.
	Pods      int `json:"pods,omitempty"`
	EndedPods int `json:"endedPods,omitempty"`
	// Warnings are the IDs of its warnings (a Job's: its pods'), which may say why it never ended.
	Warnings []timeline.FindingID `json:"warnings,omitempty"`
}

// EndChange is a pod, a Job, or all the pods, that ended on one side and never did on the
// other: what a native sidecar's Job against a classic one's shows first.
type EndChange struct {
	Object string `json:"object"` // pod, job, or pods (all of each side's pods, by gap)
	A      string `json:"a,omitempty"`
	B      string `json:"b,omitempty"`
	EndA   End    `json:"endA"`
	EndB   End    `json:"endB"`
}

// podEnd is the change of a pair of pods' ends, if one ended and the other did not.
func podEnd(a, b *timeline.Pod) (EndChange, bool) {
	ea, eb := endOfPod(a), endOfPod(b)
	return EndChange{Object: "pod", A: a.Name, B: b.Name, EndA: ea, EndB: eb}, ea.Ended != eb.Ended
}

// podsEnd is the change of all the pods' ends, if every pod of one side ended and some pod of
// the other did not.
func podsEnd(a, b []*timeline.Pod) (EndChange, bool) {
	ea, eb := endOfPods(a), endOfPods(b)
	return EndChange{Object: "pods", EndA: ea, EndB: eb}, len(a) > 0 && len(b) > 0 && ea.Ended != eb.Ended
}

// jobEnds are the changes of the Jobs' ends: Jobs paired by name, or the two when each side
// has one.
func jobEnds(a, b timeline.Snapshot) []EndChange {
	var out []EndChange
	for _, ja := range a.Jobs {
		jb := jobNamed(b.Jobs, ja.Name)
		if jb == nil && len(a.Jobs) == 1 && len(b.Jobs) == 1 {
			jb = b.Jobs[0]
		}
		if jb == nil {
			continue
		}
		ea, eb := endOfJob(a, ja), endOfJob(b, jb)
		if ea.Ended != eb.Ended {
			out = append(out, EndChange{Object: "job", A: ja.Name, B: jb.Name, EndA: ea, EndB: eb})
		}
	}
	return out
}

func jobNamed(jobs []*timeline.Job, name string) *timeline.Job {
	for _, j := range jobs {
		if j.Name == name {
			return j
		}
	}
	return nil
}

// endOfPod is the pod's terminal phase, or its deletion, or the status it was left in.
func endOfPod(p *timeline.Pod) End {
	var deleted *timeline.Milestone
	for _, m := range p.Milestones.All() {
		switch m.Kind {
		case timeline.MPhase:
			at := m.Offset
			return End{Ended: true, How: m.Reason, At: &at}
		case timeline.MDeleted:
			deleted = m
		}
	}
	if deleted != nil {
		at := deleted.Offset
		return End{Ended: true, How: "deleted", At: &at}
	}
	return End{How: p.Status, Warnings: warnings(p.Findings())}
}

// endOfPods is whether every pod ended, with the counts.
func endOfPods(pods []*timeline.Pod) End {
	e := End{Pods: len(pods)}
	var ws []timeline.Finding
	for _, p := range pods {
		if endOfPod(p).Ended {
			e.EndedPods++
		} else {
			ws = append(ws, p.Findings()...)
		}
	}
	e.Ended = e.EndedPods == e.Pods
	e.Warnings = warnings(ws)
	return e
}

// endOfJob is the Job's Complete or Failed condition, or the state it was left in.
func endOfJob(s timeline.Snapshot, j *timeline.Job) End {
	for _, m := range j.Milestones {
		if m.Kind == timeline.MCondition && (m.Reason == "Complete" || m.Reason == "Failed") {
			at := m.Offset
			return End{Ended: true, How: m.Reason, At: &at}
		}
	}
	return End{How: j.Status, Warnings: warnings(s.JobFindings(j))}
}

// warnings are the IDs of the findings that are warnings, each once, in their order.
func warnings(fs []timeline.Finding) []timeline.FindingID {
	var out []timeline.FindingID
	seen := map[timeline.FindingID]bool{}
	for _, f := range fs {
		if f.Severity == timeline.SeverityWarning && !seen[f.ID] {
			seen[f.ID] = true
			out = append(out, f.ID)
		}
	}
	return out
}
