package timeline

import (
	"math/rand"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestSortMilestones: sortMilestones orders lists of every length (short ones by moving items
// along a permutation, long ones through a copy) exactly as a stable sort by Before does, ties
// and all.
func TestSortMilestones(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	kinds := []MilestoneKind{MStart, MExit, MReady, MCreated, MSigterm}
	for range 20000 {
		ms := make([]Milestone, r.Intn(24))
		for i := range ms {
			// Few distinct times and kinds: many ties, which must keep their order.
			ms[i] = Milestone{At: time.Unix(int64(r.Intn(4)), 0), Kind: kinds[r.Intn(len(kinds))], Message: strconv.Itoa(i)}
		}
		want := slices.Clone(ms)
		slices.SortStableFunc(want, func(a, b Milestone) int {
			switch {
			case Before(&a, &b):
				return -1
			case Before(&b, &a):
				return 1
			}
			return 0
		})
		sortMilestones(ms)
		for i := range ms {
			if ms[i].Message != want[i].Message {
				t.Fatalf("%d milestones: item %d is #%s, want #%s", len(ms), i, ms[i].Message, want[i].Message)
			}
		}
	}
}
