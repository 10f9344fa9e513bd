package timeline

import (
	"encoding/json"
	"iter"
	"slices"
	"unsafe"
)

// Seq is a read-only sequence that snapshots share. It is kept as full blocks and a tail: a
// later snapshot's Seq shares every block that did not change with an earlier one's, so a long
// list that grows at its end, or just before it, costs what changed, not its length.
type Seq[T any] struct {
	full [][]T // blocks of blockSize items
	tail []T
	n    int
}

// SeqOf is a Seq of a copy of the items, for tests and decoded JSON.
func SeqOf[T any](items ...T) Seq[T] {
	if len(items) == 0 {
		return Seq[T]{}
	}
	return Seq[T]{tail: slices.Clone(items), n: len(items)}
}

// Len is the number of items.
func (s Seq[T]) Len() int { return s.n }

// blocks yields the blocks in order, the tail last.
func (s Seq[T]) blocks() iter.Seq[[]T] {
	return func(yield func([]T) bool) {
		for _, b := range s.full {
			if !yield(b) {
				return
			}
		}
		if len(s.tail) > 0 {
			yield(s.tail)
		}
	}
}

// All yields each item (read only) with its index, in order.
func (s Seq[T]) All() iter.Seq2[int, *T] {
	return func(yield func(int, *T) bool) {
		i := 0
		for b := range s.blocks() {
			for j := range b {
				if !yield(i, &b[j]) {
					return
				}
				i++
			}
		}
	}
}

// At is item i.
func (s Seq[T]) At(i int) T {
	blockSize := blockSizeOf[T]()
	if k := i / blockSize; k < len(s.full) {
		return s.full[k][i%blockSize]
	}
	return s.tail[i-len(s.full)*blockSize]
}

// Items yields each item, by value, with its index, in order: for a Seq of pointers.
func (s Seq[T]) Items() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i, p := range s.All() {
			if !yield(i, *p) {
				return
			}
		}
	}
}

// Backward yields each item (read only) with its index, last first.
func (s Seq[T]) Backward() iter.Seq2[int, *T] {
	return func(yield func(int, *T) bool) {
		i := s.n - 1
		for j := len(s.tail) - 1; j >= 0; j-- {
			if !yield(i, &s.tail[j]) {
				return
			}
			i--
		}
		for k := len(s.full) - 1; k >= 0; k-- {
			b := s.full[k]
			for j := len(b) - 1; j >= 0; j-- {
				if !yield(i, &b[j]) {
					return
				}
				i--
			}
		}
	}
}

// ChangedSince yields the items (with their index) of the blocks of s that old does not share:
// what a later snapshot's Seq may hold that an earlier one's did not. Unchanged blocks cost
// nothing to skip.
func (s Seq[T]) ChangedSince(old Seq[T]) iter.Seq2[int, *T] {
	shared := map[*T]int{}
	for b := range old.blocks() {
		shared[&b[0]] = len(b)
	}
	return func(yield func(int, *T) bool) {
		i := 0
		for b := range s.blocks() {
			if n, ok := shared[&b[0]]; ok && n == len(b) {
				i += len(b)
				continue
			}
			for j := range b {
				if !yield(i, &b[j]) {
					return
				}
				i++
			}
		}
	}
}

// Same reports whether s and other are the same sequence: the same blocks, the same tail. A
// snapshot that did not change a Seq hands out the one it had.
func (s Seq[T]) Same(other Seq[T]) bool {
	if s.n != other.n || len(s.full) != len(other.full) || len(s.tail) != len(other.tail) {
		return false
	}
	if len(s.tail) > 0 && &s.tail[0] != &other.tail[0] {
		return false
	}
	if len(s.full) == 0 || &s.full[0] == &other.full[0] {
		return true // no blocks, or the same list of them
	}
	for k, b := range s.full {
		if &b[0] != &other.full[k][0] {
			return false
		}
	}
	return true
}

// Slice copies the items into one slice.
func (s Seq[T]) Slice() []T { return s.appendTo(make([]T, 0, s.n)) }

// appendTo appends the items to dst.
func (s Seq[T]) appendTo(dst []T) []T {
	for b := range s.blocks() {
		dst = append(dst, b...)
	}
	return dst
}

// MarshalJSON writes the items as a JSON array.
func (s Seq[T]) MarshalJSON() ([]byte, error) { return json.Marshal(s.Slice()) }

// UnmarshalJSON reads a JSON array.
func (s *Seq[T]) UnmarshalJSON(b []byte) error {
	var items []T
	if err := json.Unmarshal(b, &items); err != nil {
		return err
	}
	*s = SeqOf(items...)
	return nil
}

// blockSizeOf is how many items a full block of T holds: 32, or 16 of items bigger than 128
// bytes (a milestone is 264), so that copying a block, or a tail a snapshot holds, to change one
// item costs about the same whatever the item.
func blockSizeOf[T any]() int {
	if unsafe.Sizeof(*new(T)) > 128 {
		return 16
	}
	return 32
}

// seqBuilder keeps a Seq for the Builder. The list of full blocks only ever grows at its end
// while snapshots hold it; a change inside a block a snapshot holds copies that block (and the
// list, if it must be changed in place). The tail is copied when a snapshot holds it and an
// item is not simply appended. So a view costs nothing, and a change costs a block.
type seqBuilder[T any] struct {
	full       [][]T
	tail       []T
	n          int
	fullShared bool // full has been handed out: change an entry only in a copy
	tailShared bool // tail has been handed out: write only past its end
	hasLast    bool // nothing changed since the last view, which last holds
	ownBlock   []bool
	// The last view. Allocated once and written over: a view is handed out by value, never last
	// itself (a view per snapshot of each list had been an allocation each).
	last *Seq[T]
}

func (sb *seqBuilder[T]) len() int { return sb.n }

// at is item i, to read.
func (sb *seqBuilder[T]) at(i int) *T {
	blockSize := blockSizeOf[T]()
	if k := i / blockSize; k < len(sb.full) {
		return &sb.full[k][i%blockSize]
	}
	return &sb.tail[i-len(sb.full)*blockSize]
}

// insert puts v at index i.
func (sb *seqBuilder[T]) insert(i int, v T) {
	blockSize := blockSizeOf[T]()
	sb.hasLast = false
	sb.n++
	nf := len(sb.full) * blockSize
	if i >= nf {
		if len(sb.tail) == cap(sb.tail) {
			// Grown by a few, not doubled: a tail never holds more than a block, and most of a
			// pod's lists (its conditions, its pod row) end in a tail that is never filled. A
			// Job pod's ten condition changes took room for sixteen (2.6 KB). A list's first
			// item gets room for itself alone, for the lists that keep one (a Job's own Events,
			// a pod's first condition). When an Event's occurrences were kept in such a list,
			// room for four of the one most Events have was an eighth of a Job's timeline.
			grown := len(sb.tail) + tailGrowth
			if len(sb.tail) == 0 {
				grown = 1
			}
			t := make([]T, len(sb.tail), min(grown, blockSize))
			copy(t, sb.tail)
			sb.tail, sb.tailShared = t, false
		}
		sb.tail = insertAt(sb.tail, i-nf, v, &sb.tailShared)
	} else {
		// Into a full block: it gives its last item to the next block, and so on to the tail.
		if sb.fullShared {
			sb.full = append([][]T(nil), sb.full...)
			sb.ownBlock = make([]bool, len(sb.full))
			sb.fullShared = false
		}
		for len(sb.ownBlock) < len(sb.full) {
			sb.ownBlock = append(sb.ownBlock, false)
		}
		for k := i / blockSize; k < len(sb.full); k++ {
			b := sb.full[k]
			if !sb.ownBlock[k] {
				b = append(make([]T, 0, blockSize+1), b...)
				sb.ownBlock[k] = true
			}
			owned := false // b is this builder's own now
			b = insertAt(b, i-k*blockSize, v, &owned)
			v = b[blockSize]
			sb.full[k] = b[:blockSize]
			i = (k + 1) * blockSize
		}
		sb.tail = insertAt(sb.tail, 0, v, &sb.tailShared)
	}
	if len(sb.tail) == blockSize {
		// The tail is full: it becomes a block. Appending to full writes past every view of it.
		sb.full = append(sb.full, sb.tail[:blockSize:blockSize])
		sb.ownBlock = append(sb.ownBlock, false)
		sb.tail, sb.tailShared = make([]T, 0, blockSize), false
	}
}

// tailGrowth is how many items a full tail grows by.
const tailGrowth = 4

// insertAt puts v at index j of b; if shared says a snapshot holds b, a write inside it goes
// to a copy instead.
func insertAt[T any](b []T, j int, v T, shared *bool) []T {
	if j == len(b) {
		return append(b, v) // past every handed-out length
	}
	if *shared {
		// Room for a few more, as a tail grows (a fresh tail has room for a block: copying
		// all of that room to insert into its first few items cost a block each time).
		b = append(make([]T, 0, max(len(b)+1, min(len(b)+tailGrowth, blockSizeOf[T]()))), b...)
		*shared = false
	}
	var zero T
	b = append(b, zero)
	copy(b[j+1:], b[j:])
	b[j] = v
	return b
}

// set replaces item i.
func (sb *seqBuilder[T]) set(i int, v T) {
	blockSize := blockSizeOf[T]()
	sb.hasLast = false
	if k := i / blockSize; k < len(sb.full) {
		if sb.fullShared {
			sb.full = append([][]T(nil), sb.full...)
			sb.ownBlock = make([]bool, len(sb.full))
			sb.fullShared = false
		}
		for len(sb.ownBlock) < len(sb.full) {
			sb.ownBlock = append(sb.ownBlock, false)
		}
		if !sb.ownBlock[k] {
			sb.full[k] = append(make([]T, 0, blockSize), sb.full[k]...)
			sb.ownBlock[k] = true
		}
		sb.full[k][i%blockSize] = v
		return
	}
	if sb.tailShared {
		sb.tail = append(make([]T, 0, cap(sb.tail)), sb.tail...)
		sb.tailShared = false
	}
	sb.tail[i-len(sb.full)*blockSize] = v
}

// truncate drops the items from index n on.
func (sb *seqBuilder[T]) truncate(n int) {
	blockSize := blockSizeOf[T]()
	if n >= sb.n {
		return
	}
	sb.hasLast = false
	nf := len(sb.full) * blockSize
	if n < nf {
		// The block n falls in becomes the tail; the blocks after it go. The list of blocks a view
		// holds is not shortened in place: a later block appended would write into it.
		k := n / blockSize
		sb.tail = append(make([]T, 0, blockSize), sb.full[k][:n%blockSize]...)
		sb.full = append([][]T(nil), sb.full[:k]...)
		sb.ownBlock = make([]bool, k) // the blocks kept may be a view's: copy before a change
		sb.fullShared, sb.tailShared = false, false
	} else if sb.tailShared {
		sb.tail = append(make([]T, 0, blockSize), sb.tail[:n-nf]...)
		sb.tailShared = false
	} else {
		clear(sb.tail[n-nf:])
		sb.tail = sb.tail[:n-nf]
	}
	sb.n = n
}

// assignSeq makes sb hold its items before index from, then items, changing only the items
// that differ.
func assignSeq[T comparable](sb *seqBuilder[T], items []T, from int) {
	for j, v := range items {
		switch i := from + j; {
		case i >= sb.len():
			sb.insert(i, v)
		case *sb.at(i) != v:
			sb.set(i, v)
		}
	}
	sb.truncate(from + len(items))
}

// reset replaces every item.
func (sb *seqBuilder[T]) reset(items []T) {
	*sb = seqBuilder[T]{n: len(items), last: sb.last} // last's storage is written over by view
	blockSize := blockSizeOf[T]()
	for ; len(items) >= blockSize; items = items[blockSize:] {
		sb.full = append(sb.full, slices.Clone(items[:blockSize:blockSize]))
		sb.ownBlock = append(sb.ownBlock, false)
	}
	sb.tail = slices.Clone(items) // as long as it is: it grows as insert grows it
}

// view is the Seq for a snapshot: it shares everything with the builder, which from now on
// changes nothing a snapshot can see.
func (sb *seqBuilder[T]) view() Seq[T] {
	if sb.hasLast {
		return *sb.last
	}
	sb.fullShared, sb.tailShared = true, true
	for k := range sb.ownBlock {
		sb.ownBlock[k] = false
	}
	if sb.last == nil {
		sb.last = new(Seq[T])
	}
	*sb.last, sb.hasLast = Seq[T]{full: sb.full[:len(sb.full):len(sb.full)], tail: sb.tail[:len(sb.tail):len(sb.tail)], n: sb.n}, true
	return *sb.last
}

// FindIn is the first milestone of that kind and attempt in s, or nil.
func FindIn(s Seq[Milestone], kind MilestoneKind, attempt int32) *Milestone {
	for _, m := range s.All() {
		if m.Kind == kind && m.Attempt == attempt {
			return m
		}
	}
	return nil
}
