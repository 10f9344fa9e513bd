package ui

import (
	"container/heap"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// plainHorizon is how long plain output holds a milestone's line after its estimate before
// printing it: long enough that no milestone with an earlier estimate is still to become known.
//
// The latest a milestone becomes known after its estimate is a container's start or exit: its
// status time is whole seconds (truncated), the estimate the middle of that second, and the
// kubelet notices the change up to a second late (PLEG relists every second) before its status
// manager writes it; half a second, a second, and a margin for the write and the watch make 2 s.
// An Event's time is when the kubelet emitted it, and it arrives within milliseconds; a condition
// or a flag with no time is placed when it arrives. Measured on the five real recordings (the
// receive time of the frame that first holds a milestone, less its estimate), the most is 1.10 s
// (crashing-sidecar's exit of run 3), and TestPlainOrderRecordings checks that their lines come
// out in order. Something later than the horizon (an Event delayed by an overloaded API server)
// is printed when it becomes known, after lines with later estimates: its Δ from the line
// before is then negative.
const plainHorizon = 2 * time.Second

// plainLine is a milestone's line: known, and held until printed.
type plainLine struct {
	plainMilestone
	seq   int // the order it became known in: ties keep it
	index int // in heldLines; -1 once printed
}

// when is the time the line is ordered and held by: its estimate, or, for a time the axis does
// not place (zero, or years off), none: it is printed at once, first.
func (l *plainLine) when() time.Time {
	if l.times != nil && !l.times.placed(l.m.At) {
		return time.Time{}
	}
	return l.m.At
}

// heldLines is a heap of the lines not printed yet, the earliest estimate first, then as
// timeline.Before orders milestones, then the first known.
type heldLines []*plainLine

func (h heldLines) Len() int { return len(h) }

func (h heldLines) Less(i, j int) bool {
	a, b := h[i], h[j]
	if wa, wb := a.when(), b.when(); !wa.Equal(wb) {
		return wa.Before(wb)
	}
	if timeline.Before(a.m, b.m) != timeline.Before(b.m, a.m) {
		return timeline.Before(a.m, b.m)
	}
	return a.seq < b.seq
}

func (h heldLines) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}

func (h *heldLines) Push(x any) {
	l := x.(*plainLine)
	l.index = len(*h)
	*h = append(*h, l)
}

func (h *heldLines) Pop() any {
	old := *h
	l := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	l.index = -1
	return l
}

// learn holds the line of milestone pm, known by k among lines: a new one is held; one held
// already takes the latest estimate; one printed is left as printed.
func (p *Plain) learn(lines map[plainKey]*plainLine, k plainKey, pm plainMilestone) {
	if l := lines[k]; l != nil {
		if l.index >= 0 {
			l.plainMilestone = pm
			heap.Fix(&p.held, l.index)
		}
		return
	}
	l := &plainLine{plainMilestone: pm, seq: p.seq}
	p.seq++
	lines[k] = l
	heap.Push(&p.held, l)
}

// Advance prints, in the order of their estimates, the lines held whose estimate lies at least
// plainHorizon before now: the time up to which everything has been seen (a frame's time in a
// replay, this machine's clock live).
func (p *Plain) Advance(now time.Time) {
	cutoff := now.Add(-plainHorizon)
	for len(p.held) > 0 && !p.held[0].when().After(cutoff) {
		p.print(heap.Pop(&p.held).(*plainLine))
	}
}

// Flush prints every line held, in the order of their estimates: at the end, when nothing more
// will become known.
func (p *Plain) Flush() {
	for len(p.held) > 0 {
		p.print(heap.Pop(&p.held).(*plainLine))
	}
}

// Held is how many lines are known and not printed yet.
func (p *Plain) Held() int { return len(p.held) }

func (p *Plain) print(l *plainLine) {
	p.printMilestone(l.plainMilestone)
	p.last[l.uid] = *l.m
}
