package timeline

import (
	"encoding/json"
	"slices"
	"sort"
	"time"
)

// podJSON is a Pod as JSON output writes it: every milestone with its gap from the one before
// in the pod's time order, each lane's milestones and segments as flat lists, and the findings.
type podJSON struct {
	Namespace  string            `json:"namespace"`
	Name       string            `json:"name"`
	UID        string            `json:"uid"`
	Node       string            `json:"node,omitempty"`
	Owner      *OwnerRef         `json:"owner,omitempty"`
	Created    time.Time         `json:"created"`
	Phase      string            `json:"phase"`
	Status     string            `json:"status"`
	Deleted    bool              `json:"deleted,omitempty"`
	LastSeen   time.Time         `json:"lastSeen"`
	Statuses   []StatusChange    `json:"statuses"`
	Milestones []placedMilestone `json:"milestones"`
	Containers []containerJSON   `json:"containers"`
	Gaps       []Gap             `json:"gaps,omitempty"`
	Unknown    []UnknownGap      `json:"unknownGaps,omitempty"`
	Findings   []Finding         `json:"findings,omitempty"`
}

type containerJSON struct {
	Name         string            `json:"name"`
	Kind         ContainerKind     `json:"kind"`
	RestartCount int32             `json:"restartCount"`
	State        string            `json:"state"`
	Milestones   []placedMilestone `json:"milestones"`
	Segments     []Segment         `json:"segments"`
	Logs         []runLogJSON      `json:"logs,omitempty"` // what each run's log said, when it was read
}

// placedMilestone is a milestone as JSON output writes it: its own members, then its gap from
// the one before in the pod's time order. This Gap hides the Milestone's own, which a snapshot
// leaves unset; the milestone itself is not copied (264 bytes, twice for every milestone of
// every pod: 7% of what replay -o json of a 2,200-pod Job allocated).
type placedMilestone struct {
	*Milestone
	Gap *Span `json:"gap,omitempty"`
}

// milestone is the milestone as read back, its gap in it.
func (m placedMilestone) milestone() Milestone {
	var c Milestone
	if m.Milestone != nil {
		c = *m.Milestone
	}
	c.Gap = m.Gap
	return c
}

type runLogJSON struct {
	Attempt int32 `json:"attempt"`
	RunLog
}

// MarshalJSON writes the pod as JSON output shows it (see podJSON).
func (p *Pod) MarshalJSON() ([]byte, error) { return new(PodWriter).AppendJSON(nil, p) }

// AppendJSON appends to b what MarshalJSON writes: into a buffer used again, where MarshalJSON
// makes a new one each time.
func (p *Pod) AppendJSON(b []byte) ([]byte, error) { return new(PodWriter).AppendJSON(b, p) }

// PodWriter writes pods' JSON one after another, and keeps what it works with from one pod to
// the next (the rows that give each milestone its gap, the lists of the view, the lanes'
// segments): made anew for each pod, these were a third of what writing a 2,200-pod Job's
// timeline allocated, the rows kept in each pod until the end. Its zero value is ready; it is
// for one goroutine.
type PodWriter struct {
	rows       []Row
	gaps       []Span
	starts     []int
	gapOf      map[*Milestone]*Span
	placed     []placedMilestone
	containers []containerJSON
	segments   []Segment
}

// AppendJSON appends p's JSON, as p.MarshalJSON writes it, to b.
func (w *PodWriter) AppendJSON(b []byte, p *Pod) ([]byte, error) {
	v := w.view(p)
	return appendPodJSON(b, &v)
}

// view is the pod as JSON output shows it, in w's lists: good until the next pod.
func (w *PodWriter) view(p *Pod) podJSON {
	w.rows, w.gaps, w.starts = p.appendRows(w.rows[:0], w.gaps[:0], w.starts[:0])
	if w.gapOf == nil {
		w.gapOf = make(map[*Milestone]*Span, len(w.rows))
	}
	clear(w.gapOf)
	for _, r := range w.rows {
		w.gapOf[r.Milestone] = r.Gap
	}
	// Every list is a part of one the writer keeps, never nil: encoding/json writes [] for an
	// empty list and null for none, and a pod's view has no missing list.
	placed := w.placed[:0]
	if placed == nil {
		placed = make([]placedMilestone, 0, 64)
	}
	place := func(m *Milestone) { placed = append(placed, placedMilestone{m, w.gapOf[m]}) }
	segments := w.segments[:0]
	if segments == nil {
		segments = make([]Segment, 0, 16)
	}
	containers := w.containers[:0]
	if containers == nil {
		containers = make([]containerJSON, 0, 4)
	}
	out := podJSON{Namespace: p.Namespace, Name: p.Name, UID: p.UID, Node: p.Node, Owner: p.Owner,
		Created: p.Created, Phase: p.Phase, Status: p.Status, Deleted: p.Deleted,
		LastSeen: p.LastSeen, Statuses: p.Statuses, Gaps: p.Gaps, Unknown: p.UnknownGaps, Findings: p.Findings()}
	for _, m := range p.Milestones.All() {
		place(m)
	}
	out.Milestones = placed[:len(placed):len(placed)]
	for i := range p.Containers {
		c := &p.Containers[i]
		cj := containerJSON{Name: c.Name, Kind: c.Kind, RestartCount: c.RestartCount, State: c.State}
		from := len(placed)
		for _, r := range c.Runs.Items() {
			for j := range r.Milestones {
				place(&r.Milestones[j])
			}
			if r.Log != nil {
				cj.Logs = append(cj.Logs, runLogJSON{r.Attempt, *r.Log})
			}
		}
		cj.Milestones = placed[from:len(placed):len(placed)]
		sort.SliceStable(cj.Milestones, func(i, j int) bool { return Before(cj.Milestones[i].Milestone, cj.Milestones[j].Milestone) })
		from = len(segments)
		segments = c.appendSegments(segments, 0, c.Since)
		cj.Segments = segments[from:len(segments):len(segments)]
		containers = append(containers, cj)
	}
	out.Containers = containers
	w.placed, w.segments, w.containers = placed, segments, containers
	return out
}

// UnmarshalJSON reads a pod as MarshalJSON writes it: each lane's milestones go into runs by
// attempt, its segments become the first run's state changes.
func (p *Pod) UnmarshalJSON(b []byte) error {
	var in podJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*p = Pod{Namespace: in.Namespace, Name: in.Name, UID: in.UID, Node: in.Node, Owner: in.Owner,
		Created: in.Created, Phase: in.Phase, Status: in.Status, Deleted: in.Deleted,
		LastSeen: in.LastSeen, Statuses: in.Statuses, Gaps: in.Gaps, UnknownGaps: in.Unknown,
		memo: &podMemo{findings: in.Findings}}
	p.memo.findingsOnce.Do(func() {})
	ms := make([]Milestone, len(in.Milestones))
	for i, m := range in.Milestones {
		ms[i] = m.milestone()
	}
	p.Milestones = SeqOf(ms...)
	for _, cj := range in.Containers {
		c := Container{Name: cj.Name, Kind: cj.Kind, RestartCount: cj.RestartCount, State: cj.State, Since: p.Created}
		var runs []*Run
		run := func(a int32) *Run {
			i := sort.Search(len(runs), func(i int) bool { return runs[i].Attempt >= a })
			if i == len(runs) || runs[i].Attempt != a {
				runs = slices.Insert(runs, i, &Run{Attempt: a})
			}
			return runs[i]
		}
		for _, pm := range cj.Milestones {
			m := pm.milestone()
			r := run(m.Attempt)
			r.Milestones = append(r.Milestones, m)
		}
		for _, l := range cj.Logs {
			rl := l.RunLog
			run(l.Attempt).Log = &rl
		}
		for i, s := range cj.Segments {
			if len(runs) == 0 {
				runs = []*Run{{}}
			}
			if i == 0 && s.State == StatePending {
				continue // the lane's beginning: Since
			}
			runs[0].Changes = append(runs[0].Changes, StateChange{At: s.From, State: s.State, Reason: s.Reason})
			if i == len(cj.Segments)-1 && !s.To.IsZero() {
				c.End = s.To
			}
		}
		c.Runs = SeqOf(runs...)
		p.Containers = append(p.Containers, c)
	}
	return nil
}

// Document is what -o json prints: a final timeline and what it is of. Making one costs a pass
// over everything (rows, findings, the events merged): it is for the end, not for every frame.
type Document struct {
	Kind      string        `json:"kind"`
	Version   int           `json:"version"`
	Namespace string        `json:"namespace,omitempty"`
	Target    string        `json:"target,omitempty"`
	Pods      []*Pod        `json:"pods"`
	Jobs      []JobDocument `json:"jobs,omitempty"`
	Events    []Event       `json:"events,omitempty"`
	Notes     []string      `json:"notes,omitempty"`
	Summary   *Summary      `json:"summary,omitempty"` // the workload's, when asked for (--summary)
}

// JobDocument is a Job with the warnings of its pods.
type JobDocument struct {
	*Job
	Findings []Finding `json:"findings,omitempty"`
}

// The kind and version of a Document.
const (
	DocumentKind    = "SidecarTopTimeline"
	DocumentVersion = 1
)

// NewDocument is the Document of s.
func NewDocument(namespace, target string, s Snapshot) Document {
	d := Document{Kind: DocumentKind, Version: DocumentVersion, Namespace: namespace, Target: target,
		Pods: s.Pods.Slice(), Events: s.Events(), Notes: s.Notes}
	for _, j := range s.Jobs {
		d.Jobs = append(d.Jobs, JobDocument{Job: j, Findings: s.JobFindings(j)})
	}
	return d
}
