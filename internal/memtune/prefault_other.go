//go:build !linux

package memtune

// reserve does nothing where madvise's MADV_POPULATE_WRITE is not known.
func (h *heapAhead) reserve(n int64) {}

func (h *heapAhead) populate(n int64) {}
