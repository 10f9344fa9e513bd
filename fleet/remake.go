package fleet

import (
	"maps"
	"slices"
	"strings"
)

// remakeShare: Remake sorts all again (Make) when more than one row in remakeShare changed,
// where finding each changed row's place costs more than a sort.
const remakeShare = 16

// Remake is Make(rows, v), from prev = Make(old, v), where rows are old with the rows at
// changed (distinct places) made again (Rows.Changed). It takes the old rows at changed out of
// prev's and puts the new ones in where v's order says, and counts them again: a frame of a
// cluster's table costs what changed, not a sort of every row. With changed nil
// (the pods are not the same) or many of them, it is Make. prev is not changed.
func Remake(prev Table, old, rows []*Row, changed []int, v View) Table {
	if changed == nil || len(old) != len(rows) || prev.Counts.Pods != len(old) || len(changed)*remakeShare > len(rows) {
		return Make(rows, v)
	}
	if len(changed) == 0 {
		return prev
	}
	t := Table{Rows: slices.Clone(prev.Rows), Counts: prev.Counts}
	t.Counts.Findings = maps.Clone(prev.Counts.Findings)
	filter := strings.ToLower(v.Filter)
	for _, i := range changed {
		if !t.take(old[i], v, filter) {
			return Make(rows, v) // not where the order puts it: prev was not Make(old, v)
		}
		t.put(rows[i], v, filter)
	}
	t.Counts.Shown = len(t.Rows)
	return t
}

// take takes r, a row of the table's pods, out of its counts and, if shown, its rows; false if
// r is not where v's order puts it.
func (t *Table) take(r *Row, v View, filter string) bool {
	t.Counts.count(r, v, -1)
	if !v.shows(r, filter) {
		return true
	}
	i, found := slices.BinarySearchFunc(t.Rows, r, v.order)
	if !found || t.Rows[i] != r {
		return false
	}
	t.Rows = slices.Delete(t.Rows, i, i+1)
	return true
}

// put counts r and, if v shows it, puts it in the rows where v's order says.
func (t *Table) put(r *Row, v View, filter string) {
	t.Counts.count(r, v, 1)
	if v.shows(r, filter) {
		i, _ := slices.BinarySearchFunc(t.Rows, r, v.order)
		t.Rows = slices.Insert(t.Rows, i, r)
	}
}
