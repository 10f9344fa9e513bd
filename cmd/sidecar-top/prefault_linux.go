package main

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// prefaultHeap has the kernel back n bytes of memory that the heap then holds free, resident,
// for what is allocated next: one allocation of n bytes, populated by madvise, then collected.
// With the collector waiting for the memory limit, its scavenger leaves them be. It returns
// where that memory is (for tests).
func prefaultHeap(n int64) (from, to uintptr) {
	if n <= 0 {
		return 0, 0
	}
	b := make([]byte, n) // fresh from the system: not written, so not yet resident
	from = uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	to = from + uintptr(n)
	// A kernel before 5.14 refuses it: the pages are then backed as they are first written, as
	// without this.
	_ = unix.Madvise(b, unix.MADV_POPULATE_WRITE)
	b = nil
	runtime.GC() // b's pages go back to the heap, which fills them before it grows further
	return from, to
}
