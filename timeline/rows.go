package timeline

import (
	"sort"
	"sync"
	"time"
)

// podMemo holds what a Pod derives on demand, once: reading a snapshot costs what is read.
type podMemo struct {
	rowsOnce sync.Once
	rows     []Row

	findingsOnce sync.Once
	findings     []Finding
	facts        *podFacts // what the finding rules read beyond the Pod; nil when decoded from JSON
}

// factsMemo is a derived pod's memo and the facts its findings read, in one allocation (a pod is
// derived at each frame that changes it), with room for the lanes of most pods.
type factsMemo struct {
	memo  podMemo
	facts podFacts
	lanes [4]laneNow
}

// newFactsMemo is the memo of a pod just derived from ps, holding ps's facts as they are now.
func newFactsMemo(ps *podState) *podMemo {
	fm := &factsMemo{}
	fm.memo.facts = &fm.facts
	lanes := fm.lanes[:0]
	if n := len(ps.laneOrder); n > len(fm.lanes) {
		lanes = make([]laneNow, 0, n)
	}
	newPodFacts(&fm.facts, ps, lanes[:len(ps.laneOrder)])
	return &fm.memo
}

func (p *Pod) memoized() *podMemo {
	if p.memo == nil {
		// A Pod made outside the builder (decoded, or a test's literal): it is not shared yet.
		p.memo = &podMemo{}
	}
	return p.memo
}

// WithFindings is p, with the findings given, for a Pod made outside the Builder (a test's, or
// one decoded from JSON): its findings cannot be worked out from facts it does not have.
func (p Pod) WithFindings(fs []Finding) *Pod {
	p.memo = &podMemo{findings: fs}
	p.memo.findingsOnce.Do(func() {})
	return &p
}

// Row is one milestone of a pod in the pod's time order across its lanes, with the gap from the
// row before it.
type Row struct {
	Milestone *Milestone    // read only
	Lane      string        // the container's name; empty for the pod row
	Kind      ContainerKind // the container's kind; empty for the pod row
	Gap       *Span         // from the previous row; nil for the first
}

// Rows lists every milestone of the pod, its own and its containers', in time order (Before),
// each with its gap from the one before. It is computed on the first call and kept.
func (p *Pod) Rows() []Row {
	m := p.memoized()
	m.rowsOnce.Do(func() { m.rows = p.rowsNow() })
	return m.rows
}

func (p *Pod) rowsNow() []Row {
	n := p.Milestones.Len()
	for _, c := range p.Containers {
		for _, r := range c.Runs.Items() {
			n += len(r.Milestones)
		}
	}
	rows := make([]Row, 0, n)
	for _, m := range p.Milestones.All() {
		rows = append(rows, Row{Milestone: m})
	}
	for ci := range p.Containers {
		c := &p.Containers[ci]
		for _, r := range c.Runs.Items() {
			for i := range r.Milestones {
				rows = append(rows, Row{Milestone: &r.Milestones[i], Lane: c.Name, Kind: c.Kind})
			}
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return Before(rows[i].Milestone, rows[j].Milestone) })
	gaps := make([]Span, len(rows))
	for i := 1; i < len(rows); i++ {
		gaps[i] = spanBetween(rows[i-1].Milestone, rows[i].Milestone, false)
		rows[i].Gap = &gaps[i]
	}
	return rows
}

// Milestones lists the container's milestones across its runs, in the order Before gives.
func (c *Container) Milestones() []Milestone {
	var out []Milestone
	for _, r := range c.Runs.Items() {
		out = append(out, r.Milestones...)
	}
	sort.SliceStable(out, func(i, j int) bool { return Before(&out[i], &out[j]) })
	return out
}

// Run is the container's run of that attempt, or nil.
func (c *Container) Run(attempt int32) *Run {
	i := sort.Search(c.Runs.Len(), func(i int) bool { return c.Runs.At(i).Attempt >= attempt })
	if i < c.Runs.Len() && c.Runs.At(i).Attempt == attempt {
		return c.Runs.At(i)
	}
	return nil
}

// Find is the container's first milestone of that kind and attempt, or nil.
func (c *Container) Find(kind MilestoneKind, attempt int32) *Milestone {
	if r := c.Run(attempt); r != nil {
		return r.find(kind)
	}
	return nil
}

func (r *Run) find(kind MilestoneKind) *Milestone {
	for i := range r.Milestones {
		if r.Milestones[i].Kind == kind {
			return &r.Milestones[i]
		}
	}
	return nil
}

// Container is the pod's lane of that name, or nil.
func (p *Pod) Container(name string) *Container {
	for i := range p.Containers {
		if p.Containers[i].Name == name {
			return &p.Containers[i]
		}
	}
	return nil
}

// Find is the milestone of that kind and attempt in the named lane, or in the pod row when
// container is empty; nil if there is none.
func (p *Pod) Find(container string, kind MilestoneKind, attempt int32) *Milestone {
	if container != "" {
		if c := p.Container(container); c != nil {
			return c.Find(kind, attempt)
		}
		return nil
	}
	return FindIn(p.Milestones, kind, attempt)
}

// Segments cuts the lane into stretches of one state each, from the pod's creation on: the
// runs' state changes in order, a change to the state already shown dropped, and of changes at
// the same instant the later one kept. The last segment is open (To zero) until End.
func (c *Container) Segments() []Segment { return c.segments(0, c.Since) }

// segments are the segments of the runs from index from on, pending from since if it is not zero.
func (c *Container) segments(from int, since time.Time) []Segment {
	var out []Segment
	if !since.IsZero() {
		out = append(out, Segment{State: StatePending, From: since})
	}
	for i := from; i < c.Runs.Len(); i++ {
		for _, ch := range c.Runs.At(i).Changes {
			out = addChange(out, ch)
		}
	}
	if n := len(out); n > 0 && !c.End.IsZero() && c.End.After(out[n-1].From) {
		out[n-1].To = c.End
	}
	return out
}

// SegmentsFrom is Segments from about t on, for a view that shows a window from t: it reads the
// runs from one before the last that began by t, so that the stretch t lies in is whole.
func (c *Container) SegmentsFrom(t time.Time) []Segment {
	i := c.Runs.Len() - 1
	for ; i > 0; i-- {
		if ch := c.Runs.At(i).Changes; len(ch) > 0 && !ch[0].At.After(t) {
			break
		}
	}
	if i = max(i-1, 0); i == 0 {
		return c.Segments()
	}
	return c.segments(i, time.Time{})
}

func addChange(out []Segment, c StateChange) []Segment {
	if n := len(out); n > 0 {
		last := &out[n-1]
		if last.State == c.State && last.Reason == c.Reason {
			return out
		}
		if !c.At.After(last.From) {
			// Same instant: the later change wins.
			last.State, last.Reason = c.State, c.Reason
			return out
		}
		last.To = c.At
	}
	return append(out, Segment{State: c.State, Reason: c.Reason, From: c.At})
}
