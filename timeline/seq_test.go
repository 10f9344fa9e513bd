package timeline

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSeqBuilder inserts at random places, mostly near the end as the builder does, now and then
// replaces every item, taking views now and then: every view holds the items as they were when
// it was taken, whatever came after.
func TestSeqBuilder(t *testing.T) {
	t.Run("int", func(t *testing.T) { testSeqBuilder(t, func(i int) int { return i }) })
	t.Run("big", func(t *testing.T) { testSeqBuilder(t, newBigItem) })
}

// bigItem is an item of more than 128 bytes, which blocks hold fewer of (blockSizeOf).
type bigItem struct {
	n   int
	pad [20]int64
}

func newBigItem(i int) bigItem { return bigItem{n: i, pad: [20]int64{19: int64(i)}} }

func testSeqBuilder[T comparable](t *testing.T, mk func(int) T) {
	if blockSizeOf[bigItem]() != 16 || blockSizeOf[int]() != 32 {
		t.Fatal("bigItem and int should be kept in blocks of 16 and 32")
	}
	r := rand.New(rand.NewPCG(1, 2))
	var sb seqBuilder[T]
	var want []T
	type taken struct {
		view Seq[T]
		want []T
	}
	var views []taken
	for i := range 3000 {
		if r.IntN(150) == 0 {
			// Now and then every item replaced (as a pod row derived again), by up to three
			// blocks' worth: the views before keep theirs.
			items := make([]T, r.IntN(3*blockSizeOf[T]()))
			for k := range items {
				items[k] = mk(100_000 + 100*i + k)
			}
			sb.reset(items)
			want = slices.Clone(items)
			for k := range items {
				items[k] = mk(-1) // the caller's list is its own again (a scratch list)
			}
		}
		j := len(want)
		switch r.IntN(10) {
		case 0:
			j = r.IntN(len(want) + 1) // anywhere
		case 1, 2:
			j = max(len(want)-r.IntN(40), 0) // a little before the end
		}
		sb.insert(j, mk(i))
		want = slices.Insert(want, j, mk(i))
		if *sb.at(j) != mk(i) {
			t.Fatalf("insert %d at %d: at(%d) = %v", i, j, j, *sb.at(j))
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
	var back []T
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
		sb.insert(sb.len(), mk(-i))
	}
	changed := 0
	for range sb.view().ChangedSince(before) {
		changed++
	}
	if changed < 5 || changed > 5+blockSizeOf[T]() {
		t.Errorf("5 appended: ChangedSince yields %d items", changed)
	}
}

// TestAssignSeq gives a seqBuilder lists that change as a lane's runs do (the last few replaced,
// some appended, now and then some dropped, now and then one far back replaced), taking a view
// after each: every view holds its list, whatever came after, and At and Items read it.
func TestAssignSeq(t *testing.T) {
	t.Run("int", func(t *testing.T) { testAssignSeq(t, func(i int) int { return i }) })
	t.Run("big", func(t *testing.T) { testAssignSeq(t, newBigItem) })
}

func testAssignSeq[T comparable](t *testing.T, mk func(int) T) {
	r := rand.New(rand.NewPCG(3, 4))
	var sb seqBuilder[T]
	var list []T
	type taken struct {
		view Seq[T]
		want []T
	}
	var views []taken
	next := 0
	for range 2000 {
		list = slices.Clone(list)
		switch r.IntN(10) {
		case 0:
			list = list[:max(len(list)-r.IntN(70), 0)] // dropped, maybe across blocks
		case 1:
			if len(list) > 0 {
				list[r.IntN(len(list))] = mk(next) // far back
				next++
			}
		default:
			for i := max(len(list)-2, 0); i < len(list); i++ {
				list[i] = mk(next)
				next++
			}
			for range r.IntN(3) {
				list = append(list, mk(next))
				next++
			}
		}
		from := 0
		if r.IntN(2) == 0 {
			// Say where the list may begin to differ: at or before where it does.
			for from < min(len(list), sb.len()) && *sb.at(from) == list[from] {
				from++
			}
			from = max(from-r.IntN(3), 0)
		}
		assignSeq(&sb, list[from:], from)
		views = append(views, taken{sb.view(), list})
	}
	for k, v := range views {
		if got := v.view.Slice(); !slices.Equal(got, v.want) || v.view.Len() != len(v.want) {
			t.Fatalf("view %d: %d items, want %d (or they changed after it was taken)", k, len(got), len(v.want))
		}
		for i, x := range v.view.Items() {
			if x != v.want[i] || v.view.At(i) != x {
				t.Fatalf("view %d, item %d: Items %v, At %v, want %v", k, i, x, v.view.At(i), v.want[i])
			}
		}
	}
}

// TestSeqSame: a view is the same as the last one while nothing changed, and not once an item
// was set, inserted or appended, in a block or in the tail; a Seq made of equal items is not
// the same (Same is about sharing, not equality).
func TestSeqSame(t *testing.T) {
	var sb seqBuilder[int]
	for i := range 70 { // two full blocks of 32 and a tail of 6
		sb.insert(i, i)
	}
	v := sb.view()
	if !v.Same(sb.view()) || !v.Same(v) {
		t.Fatal("a view is not the same as itself, or as the next one with nothing changed")
	}
	if v.Same(SeqOf(v.Slice()...)) {
		t.Error("a copy of the items is the same as the view")
	}
	for _, c := range []struct {
		name   string
		change func()
	}{
		{"set in a block", func() { sb.set(3, -1) }},
		{"set in the tail", func() { sb.set(67, -1) }},
		{"insert in a block", func() { sb.insert(40, -1) }},
		{"append", func() { sb.insert(sb.len(), -1) }},
	} {
		before := sb.view()
		c.change()
		if after := sb.view(); after.Same(before) || before.Same(after) {
			t.Errorf("%s: the view after is the same as the one before", c.name)
		}
	}
	if (Seq[int]{}).Same(SeqOf(1)) || !(Seq[int]{}).Same(SeqOf[int]()) {
		t.Error("empty and one item: Same is wrong")
	}
}
