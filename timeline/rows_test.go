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
	for range 5000 {
		rows, starts := randomRowLists(r, 6, 12, func(l int) *Milestone {
			// Few times: many ties. Rows of one time share an attempt, where Before is a strict
			// weak order (it orders a lane's attempts before their kinds).
			at := r.Intn(6)
			m := &Milestone{At: time.Unix(int64(at), 0), Kind: mergeKinds[r.Intn(len(mergeKinds))], Attempt: int32(at),
				Container: "c" + strconv.Itoa(l)}
			if r.Intn(5) == 0 {
				m.Source = SourceInferred
			}
			return m
		})
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

// TestMergeRowsAnyOrder: where Before is not a strict weak order (a lane's attempts come before
// their kinds, other lanes' kinds do not), the merge still gives every row once, and each list's
// rows in the order that list was sorted to.
func TestMergeRowsAnyOrder(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for range 5000 {
		rows, starts := randomRowLists(r, 5, 10, func(l int) *Milestone {
			return &Milestone{At: time.Unix(int64(r.Intn(3)), 0), Kind: mergeKinds[r.Intn(len(mergeKinds))],
				Attempt: int32(r.Intn(3)), Container: "c" + strconv.Itoa(l)}
		})
		in := append([]Row(nil), rows...)
		got := mergeRows(in, starts)
		// The lists as mergeRows sorted them, in place.
		listOf, posIn := map[*Milestone]int{}, map[*Milestone]int{}
		for i := 0; i+1 < len(starts); i++ {
			for j := starts[i]; j < starts[i+1]; j++ {
				listOf[in[j].Milestone], posIn[in[j].Milestone] = i, j
			}
		}
		if len(got) != len(rows) {
			t.Fatalf("%d rows, want %d", len(got), len(rows))
		}
		last := map[int]int{}
		for _, row := range got {
			l, ok := listOf[row.Milestone]
			if !ok {
				t.Fatalf("row %s twice or not given", row.Milestone.Message)
			}
			delete(listOf, row.Milestone)
			if p, seen := last[l]; seen && posIn[row.Milestone] < p {
				t.Fatalf("list %d's rows out of their order", l)
			}
			last[l] = posIn[row.Milestone]
		}
	}
}

var mergeKinds = []MilestoneKind{MStart, MExit, MReady, MCreated, MSigterm, MCondition}

// randomRowLists makes up to lists lists of up to perList rows each, the milestones from
// milestone (given the list's index), each named by its row's index in its Message.
func randomRowLists(r *rand.Rand, lists, perList int, milestone func(list int) *Milestone) ([]Row, []int) {
	var rows []Row
	starts := []int{0}
	for l := range r.Intn(lists) + 1 {
		for range r.Intn(perList) {
			m := milestone(l)
			m.Message = strconv.Itoa(len(rows))
			rows = append(rows, Row{Milestone: m, Lane: m.Container})
		}
		starts = append(starts, len(rows))
	}
	return rows, starts
}
