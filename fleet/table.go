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
	Pods    int `json:"pods"`    // pods in the snapshot, shown or not, and those only counted (WithOnlyCounted)
	Native  int `json:"native"`  // with a native sidecar
	Classic int `json:"classic"` // with the classic shape
	Hidden  int `json:"hidden"`  // hidden by SidecarsOnly
	// Forgotten counts the pods a long run let go of once finished (--keep-finished) that the
	// API still has: they have no row.
	Forgotten int `json:"forgotten,omitempty"`
	Shown     int `json:"shown"` // rows after hiding and filtering
	// Findings counts the findings of every pod with a row (shown or not) by rule: a pod only
	// counted (WithOnlyCounted) has none derived.
	Findings map[timeline.FindingID]int `json:"findings"`
}

// WithOnlyCounted is c with the pods a snapshot keeps as a count only, which have no row:
// hidden, those a Builder hid (timeline.Builder.Hide, Snapshot.Hidden), and forgotten, those a
// run let go of once finished (Snapshot.Forgotten).
func (c Counts) WithOnlyCounted(hidden, forgotten int) Counts {
	c.Pods += hidden + forgotten
	c.Hidden += hidden
	c.Forgotten += forgotten
	return c
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
		t.Counts.count(r, v, 1)
		if v.shows(r, filter) {
			t.Rows = append(t.Rows, r)
		}
	}
	t.Counts.Shown = len(t.Rows)
	slices.SortFunc(t.Rows, v.order)
	return t
}

// count counts r in c's figures (sign 1) or takes it out of them (-1), as a row of view v.
func (c *Counts) count(r *Row, v View, sign int) {
	switch r.Shape {
	case Native:
		c.Native += sign
	case Classic:
		c.Classic += sign
	}
	for _, f := range r.Findings {
		c.Findings[f.ID] += sign
		if c.Findings[f.ID] == 0 {
			delete(c.Findings, f.ID)
		}
	}
	if v.SidecarsOnly && r.Shape == NoSidecar {
		c.Hidden += sign
	}
}

// shows reports whether v shows r, filter being v's filter in lower case.
func (v View) shows(r *Row, filter string) bool {
	return !(v.SidecarsOnly && r.Shape == NoSidecar) && (filter == "" || r.matches(filter))
}

// order is v's order of rows: by its key (a gap a pod does not have after every gap it has,
// either way), then by namespace, name and UID, so that no two rows are equal.
func (v View) order(a, b *Row) int {
	if k := v.Sort - KeyGap; k >= 0 && int(k) < len(Columns) && a.Gaps[k].Known != b.Gaps[k].Known {
		return cmp.Compare(boolInt(!a.Gaps[k].Known), boolInt(!b.Gaps[k].Known)) // either way, none last
	}
	c := compare(a, b, v.Sort)
	if c == 0 {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name), strings.Compare(a.UID, b.UID))
	}
	if v.Desc {
		return -c
	}
	return c
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
	last    []*Row
	order   []*timeline.Pod             // the pods of last, in its order
	from    timeline.Seq[*timeline.Pod] // the list they were made from
	made    bool
	changed []int // the places whose row the last Of made again; nil: all of them
}

// Last is what Of returned last.
func (rs *Rows) Last() []*Row { return rs.last }

// Changed is where the rows the last Of returned differ from those of the Of before: the same
// pods in the same places, and the rows at these places made again. Nil when the pods are not
// the same (Remake then sorts all again).
func (rs *Rows) Changed() []int { return rs.changed }

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
	rs.changed = []int{}
	for i, pp := range s.Pods.ChangedSince(rs.from) {
		if rs.order[i] == *pp {
			continue
		}
		if !copied {
			rs.last, rs.order, copied = slices.Clone(rs.last), slices.Clone(rs.order), true
		}
		row := RowOf(*pp, owners)
		rs.last[i], rs.order[i] = &row, *pp
		rs.changed = append(rs.changed, i)
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
	rs.last, rs.order, rs.changed = out, order, nil
}
