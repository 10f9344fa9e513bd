package main

// A replay's heap grows from nothing to the memory limit boundHeap sets (the collector waits for
// the limit), and Linux backs each new page at the first write to it: a fault per 4 KiB, most of
// the 18,500-19,500 faults of replaying the 101 MiB recording of a 2,200-pod Job, and 15% of its
// CPU time on the VM scripts/bench.sh measured (perf: exc_page_fault; in a virtual machine a
// fault costs the most). prefaultHeap has the kernel back the first part of that heap in one
// call instead (madvise MADV_POPULATE_WRITE, Linux 5.14 on), and the heap grows into memory that
// is there already. Eight rounds in turn against a copy of the binary before it (2026-12-05,
// 23:48): 1.12-1.67 CPU-s (1.43 on average) -> 1.12-1.44 (1.28), 0.62-0.95 s wall (0.80) ->
// 0.65-0.82 (0.74); system time 0.18-0.32 -> 0.13-0.19 s (23:40-23:45); peak resident 92 MiB
// either way. Huge pages (MADV_HUGEPAGE first) were faster still on average, but populating them
// took 100 ms instead of 5 in two runs of five on that VM: not done.

// prefaultSize is how much of the heap to back ahead for a replay of a file of size bytes under
// a memory limit of limit bytes: no more than the heap will surely reach, so that the resident set
// is no bigger for it. A replay's heap reaches at least half the file's size before anything
// is collected (the recordings measured allocate 1.05-9 times their size, the biggest
// proportionally least) and, with the collector waiting for the limit, close to the limit less
// the runtime's own memory (52 MB of a limit of 63.5 MiB); prefaultMin keeps small replays, done
// in a few milliseconds anyway, as they were.
func prefaultSize(size, limit int64) int64 {
	n := min(size/2, limit-prefaultRoom)
	if n < prefaultMin {
		return 0
	}
	return n
}

// prefaultRoom is what prefaultSize leaves of the limit for the runtime's own memory and the
// heap's free spans: the 101 MiB recording's heap reached 52 MB of a 63.5 MiB limit.
const prefaultRoom = 16 << 20

// prefaultMin is the least worth backing ahead: the call and the collection after it take a
// millisecond or two.
const prefaultMin = 8 << 20
