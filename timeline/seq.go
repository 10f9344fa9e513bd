package timeline

import (
	"encoding/json"
	"iter"
)

// Seq is a read-only sequence that snapshots share: it is kept in blocks, and a change copies
// only the block it falls in (and the list of blocks), so a long list that grows at its end, or
// just before it, costs what changed, not its length.
type Seq[T any] struct {
	blocks [][]T
	n      int
}

// SeqOf is a Seq of the items, for tests and decoded JSON.
func SeqOf[T any](items ...T) Seq[T] {
	if len(items) == 0 {
		return Seq[T]{}
	}
	return Seq[T]{blocks: [][]T{items}, n: len(items)}
}

// Len is the number of items.
func (s Seq[T]) Len() int { return s.n }

// All yields each item (read only) with its index, in order.
func (s Seq[T]) All() iter.Seq2[int, *T] {
	return func(yield func(int, *T) bool) {
		i := 0
		for _, b := range s.blocks {
			for j := range b {
				if !yield(i, &b[j]) {
					return
				}
				i++
			}
		}
	}
}

// Backward yields each item (read only) with its index, last first.
func (s Seq[T]) Backward() iter.Seq2[int, *T] {
	return func(yield func(int, *T) bool) {
		i := s.n - 1
		for k := len(s.blocks) - 1; k >= 0; k-- {
			b := s.blocks[k]
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
	for _, b := range old.blocks {
		if len(b) > 0 {
			shared[&b[0]] = len(b)
		}
	}
	return func(yield func(int, *T) bool) {
		i := 0
		for _, b := range s.blocks {
			if n, ok := shared[firstOf(b)]; ok && n == len(b) {
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

func firstOf[T any](b []T) *T {
	if len(b) == 0 {
		return nil
	}
	return &b[0]
}

// Slice copies the items into one slice.
func (s Seq[T]) Slice() []T {
	out := make([]T, 0, s.n)
	for _, b := range s.blocks {
		out = append(out, b...)
	}
	return out
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

// blockSize is how many items a block holds before it is split.
const blockSize = 32

// seqBuilder keeps a Seq for the Builder: it changes blocks that no snapshot holds in place,
// and copies one that a snapshot holds before changing it.
type seqBuilder[T any] struct {
	blocks [][]T
	owned  []bool // owned[k]: blocks[k] has not been handed out since it was made
	n      int
	last   *Seq[T] // the last view, while nothing changed since
}

// insert puts v at index i.
func (sb *seqBuilder[T]) insert(i int, v T) {
	sb.n++
	sb.last = nil
	if len(sb.blocks) == 0 {
		sb.blocks, sb.owned = [][]T{make([]T, 0, blockSize)}, []bool{true}
	}
	k, j := sb.locate(i)
	b := sb.blocks[k]
	if j == len(b) && len(b) < blockSize {
		// Appending writes past every handed-out length: no copy needed.
		sb.blocks[k] = append(b, v)
		return
	}
	if !sb.owned[k] {
		b = append(make([]T, 0, blockSize), b...)
		sb.owned[k] = true
	}
	var zero T
	b = append(b, zero)
	copy(b[j+1:], b[j:])
	b[j] = v
	sb.blocks[k] = b
	if len(b) > blockSize {
		half := len(b) / 2
		right := append(make([]T, 0, blockSize), b[half:]...)
		sb.blocks[k] = b[:half:half]
		sb.blocks = append(sb.blocks[:k+1], append([][]T{right}, sb.blocks[k+1:]...)...)
		sb.owned = append(sb.owned[:k+1], append([]bool{true}, sb.owned[k+1:]...)...)
		sb.owned[k] = false // its array is shared with nothing, but capped: treat it as handed out
	}
}

// locate is the block and the index in it where item i is (or would be appended).
func (sb *seqBuilder[T]) locate(i int) (k, j int) {
	for k = range sb.blocks {
		if i <= len(sb.blocks[k]) && (i < len(sb.blocks[k]) || k == len(sb.blocks)-1) {
			return k, i
		}
		i -= len(sb.blocks[k])
	}
	return len(sb.blocks) - 1, len(sb.blocks[len(sb.blocks)-1])
}

// reset replaces every item.
func (sb *seqBuilder[T]) reset(items []T) {
	sb.blocks, sb.owned, sb.n, sb.last = nil, nil, len(items), nil
	for len(items) > 0 {
		k := min(len(items), blockSize/2)
		sb.blocks = append(sb.blocks, append(make([]T, 0, blockSize), items[:k]...))
		sb.owned = append(sb.owned, true)
		items = items[k:]
	}
}

// view is the Seq for a snapshot. From now on every block is the snapshot's too.
func (sb *seqBuilder[T]) view() Seq[T] {
	if sb.last != nil {
		return *sb.last
	}
	blocks := make([][]T, len(sb.blocks))
	for k, b := range sb.blocks {
		blocks[k] = b[:len(b):len(b)]
		sb.owned[k] = false
	}
	sb.last = &Seq[T]{blocks: blocks, n: sb.n}
	return *sb.last
}

// at is item i, to read.
func (sb *seqBuilder[T]) at(i int) *T {
	k, j := sb.locate(i)
	return &sb.blocks[k][j]
}

func (sb *seqBuilder[T]) len() int { return sb.n }

// FindIn is the first milestone of that kind and attempt in s, or nil.
func FindIn(s Seq[Milestone], kind MilestoneKind, attempt int32) *Milestone {
	for _, m := range s.All() {
		if m.Kind == kind && m.Attempt == attempt {
			return m
		}
	}
	return nil
}
