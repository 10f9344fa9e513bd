package memtune

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// reserve gives the heap n bytes of memory to allocate from next, as the stretch to back: one
// allocation of n bytes, fresh from the system and never written (so not resident), then
// collected, so that the heap, which allocates from its lowest free pages, grows into it.
func (h *heapAhead) reserve(n int64) {
	if n <= 0 {
		return
	}
	b := make([]byte, n)
	h.from, h.n = uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(n)
	b = nil
	runtime.GC() // b's pages go back to the heap, which fills them before it grows further
}

// populate has the kernel back the first n bytes of the stretch (at most all of it) in one call:
// the pages the heap holds already stay as they are, the rest are made resident, written to by
// nothing. With the collector waiting for the memory limit, its scavenger leaves them be. A
// kernel before 5.14 refuses it: the pages are then backed as they are first written, as
// without this.
func (h *heapAhead) populate(n int64) {
	if n <= 0 || h.n == 0 {
		return
	}
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, h.from, min(uintptr(n), h.n), unix.MADV_POPULATE_WRITE)
}
