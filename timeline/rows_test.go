package timeline

import (
	"math/rand"
	"sort"
	"strconv"
	"testing"
	"time"
)

// TestMergeRows: merging lists each put in order on its own gives what the stable sort of all
// the rows as one list gave, ties (the same time and rank, in different lists) and all.
func TestMergeRows(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	kinds := []MilestoneKind{MStart, MExit, MReady, MCreated, MSigterm, MCondition}
	for range 5000 {
		var rows []Row
		starts := []int{0}
		for l := range r.Intn(6) + 1 {
			for range r.Intn(12) {
				// Few times: many ties. Rows of one time share an attempt, where Before is a
				// strict weak order (it orders a lane's attempts before their kinds).
				at := r.Intn(6)
				m := &Milestone{At: time.Unix(int64(at), 0), Kind: kinds[r.Intn(len(kinds))], Attempt: int32(at),
					Container: "c" + strconv.Itoa(l), Message: strconv.Itoa(len(rows))}
				if r.Intn(5) == 0 {
					m.Source = SourceInferred
				}
				rows = append(rows, Row{Milestone: m, Lane: m.Container})
			}
			starts = append(starts, len(rows))
		}
		want := append([]Row(nil), rows...)
		sort.SliceStable(want, func(i, j int) bool { return Before(want[i].Milestone, want[j].Milestone) })
		got := mergeRows(append([]Row(nil), rows...), starts)
		if len(got) != len(want) {
			t.Fatalf("%d rows, want %d", len(got), len(want))
		}
		for i := range want {
			if got[i].Milestone != want[i].Milestone {
				t.Fatalf("row %d is milestone %s, want %s (lists at %v)", i, got[i].Milestone.Message, want[i].Milestone.Message, starts)
			}
		}
	}
}
