//go:build !linux

package main

// prefaultHeap does nothing where madvise's MADV_POPULATE_WRITE is not known.
func prefaultHeap(n int64) (from, to uintptr) { return 0, 0 }
