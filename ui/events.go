package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// lastEvents are the n newest Events of pod p and of its job, oldest first. Only those are
// read: a Job of a thousand pods has a thousand Events of its own.
func lastEvents(p *timeline.Pod, job *timeline.Job, n int) []timeline.Event {
	if n <= 0 {
		return nil
	}
	newest := func(s timeline.Seq[timeline.Event]) []*timeline.Event {
		var out []*timeline.Event
		for _, e := range s.Backward() {
			if len(out) == n {
				break
			}
			out = append(out, e)
		}
		return out
	}
	pod := newest(p.Events)
	var own []*timeline.Event
	if job != nil {
		own = newest(job.Events)
	}
	// Merge newest first; of two at one time the job's goes first, so that, oldest first, the
	// pod's Events come before the job's.
	out := make([]timeline.Event, 0, min(n, len(pod)+len(own)))
	for len(out) < n && (len(pod) > 0 || len(own) > 0) {
		if len(own) == 0 || (len(pod) > 0 && pod[0].At.After(own[0].At)) {
			out, pod = append(out, *pod[0]), pod[1:]
		} else {
			out, own = append(out, *own[0]), own[1:]
		}
	}
	slices.Reverse(out)
	return out
}

// renderPodEvents draws pod p's Events and its job's in height rows under a heading: the
// newest, or those around the cursor once the table has one. The offsets line up with the
// milestone table's. While the Events are searched, the rows that match are marked.
func renderPodEvents(f *frame, memo *navMemo, p *timeline.Pod, job *timeline.Job, height int) []string {
	rows := height - 1
	if rows <= 0 {
		return nil
	}
	focused := f.view.focus == focusEvents
	var matches []int
	if q := f.view.search.query; q != "" && focused {
		matches = memo.matches(focusEvents, p, job, q)
	}
	offW := newTableCols(f.cache.tableWidths(p), f.width).offCol.val
	if f.view.evCursor < 0 && matches == nil {
		evs := lastEvents(p, job, rows)
		ptrs := make([]*timeline.Event, len(evs))
		for i := range evs {
			ptrs[i] = &evs[i]
		}
		total := p.Events.Len()
		if job != nil {
			total += job.Events.Len()
		}
		return drawEvents(f, eventRows{evs: ptrs, first: total - len(ptrs), total: total, cursor: -1, focused: focused,
			offW: offW}, f.times(p))
	}
	all := memo.eventList(p, job)
	first := max(len(all)-rows, 0)
	if c := f.view.evCursor; c >= 0 {
		first = min(max(c-rows/2, 0), first)
	}
	return drawEvents(f, eventRows{evs: all[first:min(first+rows, len(all))], first: first, total: len(all),
		cursor: f.view.evCursor, matches: matches, focused: focused, offW: offW}, f.times(p))
}

// renderEvents draws the newest of evs that fit in height rows under a heading; offsets are at
// least offW cells wide.
func renderEvents(f *frame, evs []timeline.Event, pt podTimes, height, offW int) []string {
	if height < 2 || len(evs) == 0 {
		return nil
	}
	first := max(len(evs)-(height-1), 0)
	ptrs := make([]*timeline.Event, 0, len(evs)-first)
	for i := first; i < len(evs); i++ {
		ptrs = append(ptrs, &evs[i])
	}
	return drawEvents(f, eventRows{evs: ptrs, first: first, total: len(evs), cursor: -1, offW: offW}, pt)
}

// eventRows are the Events a table shows, and where they are in the list it scrolls through.
type eventRows struct {
	evs     []*timeline.Event
	first   int   // the list index of evs[0]
	total   int   // the length of the list
	cursor  int   // the list index of the cursor's row; -1 when there is none
	matches []int // the list indices of the rows a search matches, in order
	focused bool  // PgUp/PgDn and search act on this table
	offW    int   // the least width of the offsets
}

// drawEvents draws the rows under a heading: offset from the origin, container (or object),
// reason, count and message.
func drawEvents(f *frame, r eventRows, pt podTimes) []string {
	if len(r.evs) == 0 {
		return nil
	}
	offW, whoW, reasonW := max(len("OFFSET"), r.offW), len("OBJECT"), len("REASON")
	for _, e := range r.evs {
		offW = max(offW, cellWidth(pt.fmtAt(e.At)))
		whoW = max(whoW, cellWidth(eventWho(*e)))
		reasonW = max(reasonW, cellWidth(present.Safe(e.Reason)))
	}
	whoW, reasonW = min(whoW, 14), min(reasonW, 18)
	if f.width < 60 {
		whoW, reasonW = min(whoW, 8), min(reasonW, 10)
	}
	title := "EVENTS"
	if r.focused {
		title = f.st.Glyphs.Cursor + title
	}
	head := pad(title, 1+offW) + " " + pad("OBJECT", whoW) + " " + pad("REASON", reasonW) + " MESSAGE"
	if len(r.evs) < r.total {
		head = withPosition(head, r.first, len(r.evs), r.total, f.width)
	}
	out := []string{f.styled(sTableHeader, truncate(head, f.width))}
	for i, e := range r.evs {
		at := r.first + i
		sel, style, styled := " ", sInfo, false
		if isMatch(r.matches, at) {
			sel, styled = matchMark, true
		}
		if at == r.cursor {
			sel, style, styled = f.st.Glyphs.Cursor, sCursor, true
		}
		reason := pad(present.Safe(e.Reason), reasonW)
		if e.Type == "Warning" && !styled {
			reason = f.styled(sWarning, reason)
		}
		msg := safeFields(e.Message)
		if e.Count > 1 {
			msg = fmt.Sprintf("×%d %s", e.Count, msg)
		}
		line := truncate(sel+padLeft(pt.fmtAt(e.At), offW)+" "+pad(eventWho(*e), whoW)+" "+reason+" "+msg, f.width)
		if styled {
			line = f.styled(style, line)
		}
		out = append(out, line)
	}
	return out
}

// eventWho names what an Event is about: its container, else its object's kind.
func eventWho(e timeline.Event) string {
	if e.Container != "" {
		return present.Safe(e.Container)
	}
	if kind, _, ok := strings.Cut(e.Object, "/"); ok {
		return present.Safe(strings.ToLower(kind))
	}
	return present.Safe(e.Object)
}
