package ui

import (
	"sync"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// navMemo remembers what the navigation derives from a snapshot: the picker's list (per
// snapshot and filter), a pod's Events in one list, and the rows a search matches (per pod and
// query). Each is kept for the latest key only: the view shows one pod and one list at a time.
// Like viewCache it is memoization only, shared by a Model's copies, and locked so that a copy
// may be drawn on another goroutine.
type navMemo struct {
	mu     sync.Mutex
	picker pickerMemo
	events eventsMemo
	found  [2]matchesMemo // by tableFocus
	hints  map[hintsKey]string
	sums   summaryMemo // the workload's summary (summary.go)
}

// hintsKey names a status line's help: which one, and its width.
type hintsKey struct {
	what  uint8
	width int
}

// maxHints bounds the helps remembered: a handful of widths are in use at a time.
const maxHints = 32

// hintsFor is the help named k, made by make the first time.
func (n *navMemo) hintsFor(k hintsKey, make func() string) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if h, ok := n.hints[k]; ok {
		return h
	}
	if n.hints == nil || len(n.hints) >= maxHints {
		n.hints = map[hintsKey]string{}
	}
	h := make()
	n.hints[k] = h
	return h
}

func newNavMemo() *navMemo { return &navMemo{} }

// eventsMemo is eventList's last answer.
type eventsMemo struct {
	pod  *timeline.Pod
	job  *timeline.Job
	list []*timeline.Event
}

// matchesMemo is the last answer of matches for one table.
type matchesMemo struct {
	pod   *timeline.Pod
	job   *timeline.Job
	query string
	rows  []int
	valid bool
}

// eventList is pod p's Events and its job's in one list, oldest first; of two at one time the
// pod's comes first, as lastEvents orders them.
func (n *navMemo) eventList(p *timeline.Pod, job *timeline.Job) []*timeline.Event {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.eventListLocked(p, job)
}

func (n *navMemo) eventListLocked(p *timeline.Pod, job *timeline.Job) []*timeline.Event {
	e := &n.events
	if e.list != nil && e.pod == p && e.job == job {
		return e.list
	}
	*e = eventsMemo{pod: p, job: job, list: mergeEvents(p, job)}
	return e.list
}

// mergeEvents merges the pod's Events and its job's by time.
func mergeEvents(p *timeline.Pod, job *timeline.Job) []*timeline.Event {
	var own timeline.Seq[timeline.Event]
	if job != nil {
		own = job.Events
	}
	out := make([]*timeline.Event, 0, p.Events.Len()+own.Len())
	for _, e := range p.Events.All() {
		out = append(out, e)
	}
	podN := len(out)
	for _, e := range own.All() {
		out = append(out, e)
	}
	if podN == 0 || podN == len(out) {
		return out
	}
	merged := make([]*timeline.Event, 0, len(out))
	a, b := out[:podN], out[podN:]
	for len(a) > 0 || len(b) > 0 {
		if len(b) == 0 || (len(a) > 0 && !a[0].At.After(b[0].At)) {
			merged, a = append(merged, a[0]), a[1:]
		} else {
			merged, b = append(merged, b[0]), b[1:]
		}
	}
	return merged
}

// matches are the indices of the rows of table t (pod p's milestone rows, or its Events and its
// job's) that match query, in order.
func (n *navMemo) matches(t tableFocus, p *timeline.Pod, job *timeline.Job, query string) []int {
	n.mu.Lock()
	defer n.mu.Unlock()
	mm := &n.found[t]
	if mm.valid && mm.pod == p && mm.job == job && mm.query == query {
		return mm.rows
	}
	var rows []int
	q := newQuery(query)
	if t == focusEvents {
		for i, e := range n.eventListLocked(p, job) {
			if q.match(eventText(e)) {
				rows = append(rows, i)
			}
		}
	} else {
		for i := range p.Rows() {
			if q.match(rowText(&p.Rows()[i])) {
				rows = append(rows, i)
			}
		}
	}
	*mm = matchesMemo{pod: p, job: job, query: query, rows: rows, valid: true}
	return rows
}
