package timeline

import (
	"math/bits"
	"sort"
	"testing"
)

// TestSearchFromEnd: for every length and every split of a monotone predicate, the index
// sort.Search finds, never a call outside [0, n), and about
// 2·log2 calls of the distance from the end.
func TestSearchFromEnd(t *testing.T) {
	for n := 0; n <= 70; n++ {
		for k := 0; k <= n; k++ {
			calls := 0
			after := func(i int) bool {
				if i < 0 || i >= n {
					t.Fatalf("n=%d k=%d: called with %d", n, k, i)
				}
				calls++
				return i >= k
			}
			if got, want := searchFromEnd(n, after), sort.Search(n, func(i int) bool { return i >= k }); got != want {
				t.Fatalf("n=%d k=%d: %d, want %d", n, k, got, want)
			}
			if limit := 2*bits.Len(uint(n-k)) + 1; calls > limit {
				t.Errorf("n=%d k=%d: %d calls, want at most %d for an index %d from the end", n, k, calls, limit, n-k)
			}
		}
	}
}
