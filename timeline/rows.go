package timeline

import (
	"math"
	"slices"
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
	m.rowsOnce.Do(func() { m.rows, _, _ = p.appendRows(nil, nil, nil) })
	return m.rows
}

// appendRows puts the rows into rows[:0], their gaps into gaps[:0] (each row's Gap points there),
// using starts[:0] to merge the lists: a writer of many pods' JSON passes the same ones each time.
func (p *Pod) appendRows(rows []Row, gaps []Span, starts []int) ([]Row, []Span, []int) {
	n := p.Milestones.Len()
	for _, c := range p.Containers {
		for _, r := range c.Runs.Items() {
			n += len(r.Milestones)
		}
	}
	// Each list (the pod's own milestones, then each lane's) is put in order on its own, then
	// the lists are merged: the stable sort of them all, as one list, would move every row about
	// n·log²n times where the lanes interleave (6,000 rows: 6 ms, paid at each frame that changes
	// the pod).
	rows = slices.Grow(rows[:0], n)
	starts = slices.Grow(starts[:0], len(p.Containers)+2)
	for _, m := range p.Milestones.All() {
		rows = append(rows, Row{Milestone: m})
	}
	starts = append(starts, 0)
	for ci := range p.Containers {
		c := &p.Containers[ci]
		starts = append(starts, len(rows))
		for _, r := range c.Runs.Items() {
			for i := range r.Milestones {
				rows = append(rows, Row{Milestone: &r.Milestones[i], Lane: c.Name, Kind: c.Kind})
			}
		}
	}
	starts = append(starts, len(rows))
	rows = mergeRows(rows, starts)
	gaps = slices.Grow(gaps[:0], len(rows))[:len(rows)]
	for i := 1; i < len(rows); i++ {
		gaps[i] = spanBetween(rows[i-1].Milestone, rows[i].Milestone, false)
		rows[i].Gap = &gaps[i]
	}
	return rows, gaps, starts
}

// rowBefore orders rows as Before orders their milestones, for slices' sorts (which only ask
// whether a result is below zero).
func rowBefore(a, b Row) int {
	if Before(a.Milestone, b.Milestone) {
		return -1
	}
	return 0
}

// mergeRows orders rows by Before, stably: each list rows[starts[i]:starts[i+1]] is sorted on its
// own, then the lists are merged, an earlier list's row first where neither is before the other.
// That is the stable sort of the whole (Before is a strict weak order wherever the rows' times
// differ, which is almost everywhere), at the cost of a merge. The lists' heads are kept in a
// binary heap: a pod of 10,000 lanes had its earliest head found by a scan of them all, for
// each of its rows.
func mergeRows(rows []Row, starts []int) []Row { return mergeRowsBy(rows, starts, Before) }

// mergeRowsBy is mergeRows with before for Before (a test counts the comparisons).
func mergeRowsBy(rows []Row, starts []int, before func(a, b *Milestone) bool) []Row {
	lists := make([]rowList, 0, len(starts))
	for i := 0; i+1 < len(starts); i++ {
		seg := rows[starts[i]:starts[i+1]]
		if len(seg) == 0 {
			continue
		}
		if !slices.IsSortedFunc(seg, rowBefore) {
			slices.SortStableFunc(seg, rowBefore)
		}
		lists = append(lists, rowList{next: starts[i], end: starts[i+1], order: len(lists)})
	}
	if len(lists) <= 1 {
		return rows
	}
	h := rowHeap{rows: rows, lists: lists, before: before}
	for i := range h.lists {
		h.key(&h.lists[i])
	}
	for i := len(h.lists)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	out := make([]Row, 0, len(rows))
	for len(h.lists) > 0 {
		l := &h.lists[0]
		out = append(out, rows[l.next])
		if l.next++; l.next == l.end {
			n := len(h.lists) - 1
			h.lists[0] = h.lists[n]
			h.lists = h.lists[:n]
		} else {
			h.key(l)
		}
		h.down(0)
	}
	return out
}

// rowList is one of mergeRows' lists: its next row, its end, and its place among the lists.
type rowList struct {
	next, end, order int
	at               int64 // the next row's time, in Unix nanoseconds, if exact
	exact            bool
}

// rowHeap is a binary min-heap of lists by their next rows (less).
type rowHeap struct {
	rows   []Row
	lists  []rowList
	before func(a, b *Milestone) bool // Before
}

// key notes the list's next row's time. Heads are compared by their times in Unix nanoseconds
// (Before's first test), and by Before where those are equal or out of int64's range.
func (h *rowHeap) key(l *rowList) {
	at := h.rows[l.next].Milestone.At
	l.at, l.exact = at.UnixNano(), at.After(minNano) && at.Before(maxNano)
}

func (h *rowHeap) headBefore(a, b *rowList) bool {
	if a.exact && b.exact && a.at != b.at {
		return a.at < b.at
	}
	return h.before(h.rows[a.next].Milestone, h.rows[b.next].Milestone)
}

// less orders the heads by Before, then the earlier list first.
func (h *rowHeap) less(i, j int) bool {
	a, b := &h.lists[i], &h.lists[j]
	if h.headBefore(a, b) {
		return true
	}
	return !h.headBefore(b, a) && a.order < b.order
}

// down moves list i down the heap to its place.
func (h *rowHeap) down(i int) {
	for n := len(h.lists); ; {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			return
		}
		h.lists[i], h.lists[c] = h.lists[c], h.lists[i]
		i = c
	}
}

// minNano and maxNano bound the times whose Unix nanoseconds int64 holds.
var minNano, maxNano = time.Unix(0, math.MinInt64), time.Unix(0, math.MaxInt64)

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
	return c.appendSegments(nil, from, since)
}

// appendSegments appends to out what segments returns.
func (c *Container) appendSegments(out []Segment, from int, since time.Time) []Segment {
	// Sized first (at most one a change): a lane of a long crash loop has thousands, cut again
	// at each frame that changes its pod.
	n := 0
	for i := from; i < c.Runs.Len(); i++ {
		n += len(c.Runs.At(i).Changes)
	}
	if !since.IsZero() {
		n++
	}
	if n > 0 {
		out = slices.Grow(out, n)
	}
	start := len(out)
	if !since.IsZero() {
		out = append(out, Segment{State: StatePending, From: since})
	}
	for i := from; i < c.Runs.Len(); i++ {
		for _, ch := range c.Runs.At(i).Changes {
			out = addChange(out, start, ch)
		}
	}
	if n := len(out); n > start && !c.End.IsZero() && c.End.After(out[n-1].From) {
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

// addChange adds c to the lane's segments, out[start:].
func addChange(out []Segment, start int, c StateChange) []Segment {
	if n := len(out); n > start {
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
