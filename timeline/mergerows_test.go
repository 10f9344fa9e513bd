package timeline

import (
	"fmt"
	"math/bits"
	"slices"
	"testing"
	"time"
)

// TestMergeRowsWork: merging the rows of many lanes compares each row with the heads of about
// log2(lanes) others, not with all of them (a pod of 10,000 containers took seconds to write as
// JSON), and comes out as the stable sort of all the rows by Before.
func TestMergeRowsWork(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	const lanes = 2000
	kinds := []MilestoneKind{MStart, MReady, MExit}
	var rows []Row
	starts := []int{0}
	for l := range lanes {
		for k, kind := range kinds {
			// Lanes in batches at the same instants, as a Job's pods start: Before decides most.
			at := t0.Add(time.Duration(l%7+k) * time.Second)
			rows = append(rows, Row{Milestone: &Milestone{Kind: kind, Container: fmt.Sprint("c", l), At: at}})
		}
		starts = append(starts, len(rows))
	}
	want := slices.Clone(rows)
	slices.SortStableFunc(want, rowBefore)
	n := 0
	got := mergeRowsBy(slices.Clone(rows), starts, func(a, b *Milestone) bool { n++; return Before(a, b) })
	if !slices.Equal(got, want) {
		t.Errorf("merged rows are not the stable sort of them all")
	}
	if limit := 4 * len(rows) * bits.Len(lanes); n > limit {
		t.Errorf("%d rows of %d lanes: %d comparisons, more than %d", len(rows), lanes, n, limit)
	}
}
