package timeline

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSeqBuilder inserts at random places, mostly near the end as the builder does, taking views
// now and then: every view holds the items as they were when it was taken, whatever came after.
func TestSeqBuilder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var sb seqBuilder[int]
	var want []int
	type taken struct {
		view Seq[int]
		want []int
	}
	var views []taken
	for i := range 3000 {
		j := len(want)
		switch r.IntN(10) {
		case 0:
			j = r.IntN(len(want) + 1) // anywhere
		case 1, 2:
			j = max(len(want)-r.IntN(40), 0) // a little before the end
		}
		sb.insert(j, i)
		want = slices.Insert(want, j, i)
		if *sb.at(j) != i {
			t.Fatalf("insert %d at %d: at(%d) = %d", i, j, j, *sb.at(j))
		}
		if r.IntN(7) == 0 {
			views = append(views, taken{sb.view(), slices.Clone(want)})
		}
	}
	views = append(views, taken{sb.view(), slices.Clone(want)})
	for k, v := range views {
		if got := v.view.Slice(); !slices.Equal(got, v.want) || v.view.Len() != len(v.want) {
			t.Fatalf("view %d changed after it was taken: %d items, want %d", k, len(got), len(v.want))
		}
	}
	last := views[len(views)-1].view
	var back []int
	for _, x := range last.Backward() {
		back = append(back, *x)
	}
	slices.Reverse(back)
	if !slices.Equal(back, want) {
		t.Error("Backward does not yield the items last first")
	}
	for k := 1; k < len(views); k++ {
		changed := 0
		for range views[k].view.ChangedSince(views[k-1].view) {
			changed++
		}
		if grew := len(views[k].want) - len(views[k-1].want); changed < grew {
			t.Errorf("view %d: ChangedSince the view before yields %d items for %d new", k, changed, grew)
		}
	}
	// Appended items change the tail only.
	before := sb.view()
	for i := range 5 {
		sb.insert(sb.len(), -i)
	}
	changed := 0
	for range sb.view().ChangedSince(before) {
		changed++
	}
	if changed < 5 || changed > 5+blockSize {
		t.Errorf("5 appended: ChangedSince yields %d items", changed)
	}
}
