package fleet

import (
	"cmp"
	"slices"
	"strings"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Key is a column the table can be sorted by.
type Key int

// The sort keys, in the table's column order; the gap columns follow KeyAge, one per Column.
const (
	KeyNamespace Key = iota
	KeyPod
	KeyOwner
	KeyStatus
	KeySidecarRestarts
	KeyAppRestarts
	KeyAge
	KeyGap     // KeyGap+i is Columns[i]
	KeyFinding = KeyGap + Key(len(Columns))
	numKeys    = KeyFinding + 1
)

// Keys is the number of sort keys.
const Keys = int(numKeys)

// Counts are what the table's header says.
type Counts struct {
	Pods    int `json:"pods"`    // pods in the snapshot, shown or not
	Native  int `json:"native"`  // with a native sidecar
	Classic int `json:"classic"` // with the classic shape
	Hidden  int `json:"hidden"`  // hidden by SidecarsOnly
	Shown   int `json:"shown"`   // rows after hiding and filtering
	// Findings counts the findings of every pod (shown or not) by rule.
	Findings map[timeline.FindingID]int `json:"findings"`
}

// View says which rows a table shows and in which order.
type View struct {
	SidecarsOnly bool   // hide pods with no sidecar of either shape
	Filter       string // keep rows whose name, namespace, owner, STATUS or a finding holds it (any case)
	Sort         Key
	Desc         bool
}

// Table is the rows a View shows, in its order, and the counts of all of them.
type Table struct {
	Rows   []*Row
	Counts Counts
}

// Make picks and orders rows as v says. Neither rows nor a row is changed.
func Make(rows []*Row, v View) Table {
	t := Table{Counts: Counts{Pods: len(rows), Findings: map[timeline.FindingID]int{}}}
	filter := strings.ToLower(v.Filter)
	for _, r := range rows {
		switch r.Shape {
		case Native:
			t.Counts.Native++
		case Classic:
			t.Counts.Classic++
		}
		for _, f := range r.Findings {
			t.Counts.Findings[f.ID]++
		}
		if v.SidecarsOnly && r.Shape == NoSidecar {
			t.Counts.Hidden++
			continue
		}
		if filter != "" && !r.matches(filter) {
			continue
		}
		t.Rows = append(t.Rows, r)
	}
	t.Counts.Shown = len(t.Rows)
	slices.SortStableFunc(t.Rows, func(a, b *Row) int {
		if k := v.Sort - KeyGap; k >= 0 && int(k) < len(Columns) && a.Gaps[k].Known != b.Gaps[k].Known {
			return cmp.Compare(boolInt(!a.Gaps[k].Known), boolInt(!b.Gaps[k].Known)) // either way, none last
		}
		c := compare(a, b, v.Sort)
		if c == 0 {
			c = cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name), strings.Compare(a.UID, b.UID))
			return c // ties always in name order
		}
		if v.Desc {
			return -c
		}
		return c
	})
	return t
}

// matches reports whether the row holds filter (lower case) in a field a user filters by.
func (r *Row) matches(filter string) bool {
	for _, s := range []string{r.Name, r.Namespace, r.Owner.String(), r.Status} {
		if strings.Contains(strings.ToLower(s), filter) {
			return true
		}
	}
	for _, f := range r.Findings {
		if strings.Contains(string(f.ID), filter) || strings.Contains(strings.ToLower(f.Text), filter) {
			return true
		}
	}
	return false
}

// compare orders two rows by key k (Make puts a gap a pod does not have after every gap it has).
func compare(a, b *Row, k Key) int {
	switch {
	case k == KeyNamespace:
		return strings.Compare(a.Namespace, b.Namespace)
	case k == KeyPod:
		return strings.Compare(a.Name, b.Name)
	case k == KeyOwner:
		return strings.Compare(a.Owner.String(), b.Owner.String())
	case k == KeyStatus:
		return strings.Compare(a.Status, b.Status)
	case k == KeySidecarRestarts:
		return cmp.Compare(a.SidecarRestarts, b.SidecarRestarts)
	case k == KeyAppRestarts:
		return cmp.Compare(a.AppRestarts, b.AppRestarts)
	case k == KeyAge:
		return b.Created.Compare(a.Created) // older is greater
	case k >= KeyGap && k < KeyFinding:
		return cmp.Compare(a.Gaps[k-KeyGap].Span.Value, b.Gaps[k-KeyGap].Span.Value)
	case k == KeyFinding:
		return cmp.Compare(findingWeight(a), findingWeight(b))
	}
	return 0
}

// findingWeight orders rows by their worst finding: none, info, warning; more of them weigh more.
func findingWeight(r *Row) int {
	w := r.Worst()
	switch {
	case w == nil:
		return 0
	case w.Severity == timeline.SeverityWarning:
		return 1000 + len(r.Findings)
	}
	return len(r.Findings)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Rows keeps the rows of a timeline's pods from one snapshot to the next: a pod a snapshot
// shares with the one before (the same *Pod) keeps its row, and of a snapshot with as many pods
// as the one before only the blocks of its list that changed are looked at, so a frame costs
// what changed, not the cluster. The zero Rows is ready; one goroutine owns it.
type Rows struct {
	last  []*Row
	order []*timeline.Pod             // the pods of last, in its order
	from  timeline.Seq[*timeline.Pod] // the list they were made from
	made  bool
}

// Last is what Of returned last.
func (rs *Rows) Last() []*Row { return rs.last }

// Of is the rows of s's pods, in the snapshot's order; a row is not changed once made, nor a
// list of rows once returned. owners says which workload owns a Job.
func (rs *Rows) Of(s timeline.Snapshot, owners func(job string) (Owner, bool)) []*Row {
	if rs.made && s.Pods.Len() == len(rs.order) {
		rs.update(s, owners)
	} else {
		rs.rebuild(s, owners)
	}
	rs.from, rs.made = s.Pods, true
	return rs.last
}

// update makes again the rows of the pods in the blocks of s's list that changed.
func (rs *Rows) update(s timeline.Snapshot, owners func(job string) (Owner, bool)) {
	copied := false
	for i, pp := range s.Pods.ChangedSince(rs.from) {
		if rs.order[i] == *pp {
			continue
		}
		if !copied {
			rs.last, rs.order, copied = slices.Clone(rs.last), slices.Clone(rs.order), true
		}
		row := RowOf(*pp, owners)
		rs.last[i], rs.order[i] = &row, *pp
	}
}

// rebuild makes the rows of s's pods, keeping those of the pods the last rows had.
func (rs *Rows) rebuild(s timeline.Snapshot, owners func(job string) (Owner, bool)) {
	prev := make(map[*timeline.Pod]*Row, len(rs.order))
	for i, p := range rs.order {
		prev[p] = rs.last[i]
	}
	out := make([]*Row, 0, s.Pods.Len())
	order := make([]*timeline.Pod, 0, s.Pods.Len())
	for _, p := range s.Pods.Items() {
		r, ok := prev[p]
		if !ok {
			row := RowOf(p, owners)
			r = &row
		}
		order, out = append(order, p), append(out, r)
	}
	rs.last, rs.order = out, order
}
