package memtune

// A replay's heap grows from nothing to the memory limit Replay sets (the collector waits for
// the limit), and Linux backs each new page at the first write to it: a fault per 4 KiB, most of
// the 18,500-19,500 faults of replaying the 101 MiB recording of a 2,200-pod Job, and 15% of its
// CPU time on the VM scripts/bench.sh measured (perf: exc_page_fault; in a virtual machine a
// fault costs the most). So the heap is given, before the replay reads, a stretch of memory it
// will grow into (heapAhead.reserve: allocated and never written, so not resident, then
// collected at once, while the heap is nearly empty), and the kernel backs that stretch, ahead of
// the heap, in one call at a time (heapAhead.populate: madvise MADV_POPULATE_WRITE, Linux 5.14
// on) as the reader reads. Huge pages (MADV_HUGEPAGE first) were faster still on average, but
// populating them took 100 ms instead of 5 in two runs of five on that VM: not done.
//
// What is backed follows what the reader has read (recfile.Options.Progress), never the file's
// size alone: backed at once, half the size of a sparse file of 3 GiB whose line 22 was refused
// was made resident (1.5 GiB) before a byte was read, and a sparse file of 16 GiB ran out of a 4
// GiB address space allocating the 8 GiB to back.

// heapAhead is a stretch of the heap's memory, reserved for a replay of a file of size bytes
// under a memory limit of limit bytes, and how much of it is backed. Its grow runs on the
// reader's goroutine.
type heapAhead struct {
	size, limit int64
	from, n     uintptr // where the stretch is, and its length
	next        int64   // what the reader must have read for the next step
	backed      int64
}

// grow backs the stretch ahead of the heap for kept bytes read (prefaultSize), whenever what
// was read has doubled since the last step: in as many calls as doublings.
func (h *heapAhead) grow(kept int64) {
	if kept < h.next {
		return
	}
	h.next = 2 * kept
	if n := prefaultSize(h.size, kept, h.limit); n > h.backed {
		h.populate(n)
		h.backed = n
	}
}

// prefaultSize is how much of the heap to back ahead, for kept bytes read of a recording of size
// bytes, under a memory limit of limit bytes: no more than the heap will surely reach, so that
// the resident set is no bigger for it. A replay's heap reaches at least half the file's size
// before anything is collected (the recordings measured allocate 1.05-9 times their size, the
// biggest proportionally least) and, with the collector waiting for the limit, close to the limit
// less the runtime's own memory (52 MB of a limit of 63.5 MiB); but it is sure to reach only what
// follows from what was read: prefaultAhead times that at most. Nothing is backed before
// prefaultMin is read (small replays, done in a few milliseconds anyway, and files refused at
// once stay as they were), nor more than prefaultReserve.
func prefaultSize(size, kept, limit int64) int64 {
	if kept < prefaultMin {
		return 0
	}
	return max(min(size/2, limit-prefaultRoom, prefaultAhead*kept, prefaultReserve), 0)
}

// prefaultAhead is how many times what was read the heap is backed ahead, at most: the heap
// allocates at least what is read, and backing it runs ahead of it from one doubling of what was
// read to the next.
const prefaultAhead = 4

// prefaultRoom is what prefaultSize leaves of the limit for the runtime's own memory and the
// heap's free spans: the 101 MiB recording's heap reached 52 MB of a 63.5 MiB limit.
const prefaultRoom = 16 << 20

// prefaultMin is the least read before anything is backed ahead.
const prefaultMin = 1 << 20

// prefaultReserve is the most the stretch holds: address space, not memory, until backed.
const prefaultReserve = 256 << 20
