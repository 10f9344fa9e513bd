package ui

import (
	"fmt"
	"slices"
	"strings"

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

// renderEvents draws the newest Events that fit in height rows under a heading: offset from
// the origin, container (or object), reason, count and message.
func renderEvents(f *frame, evs []timeline.Event, pt podTimes, height int) []string {
	if height < 2 || len(evs) == 0 {
		return nil
	}
	evs = evs[max(len(evs)-(height-1), 0):]
	offW, whoW, reasonW := len("OFFSET"), len("OBJECT"), len("REASON")
	for _, e := range evs {
		offW = max(offW, cellWidth(pt.fmtAt(e.At)))
		whoW = max(whoW, cellWidth(eventWho(e)))
		reasonW = max(reasonW, cellWidth(Safe(e.Reason)))
	}
	whoW, reasonW = min(whoW, 14), min(reasonW, 18)
	if f.width < 60 {
		whoW, reasonW = min(whoW, 8), min(reasonW, 10)
	}
	head := pad("EVENTS", 1+offW) + " " + pad("OBJECT", whoW) + " " + pad("REASON", reasonW) + " MESSAGE"
	out := []string{f.styled(sTableHeader, truncate(head, f.width))}
	for _, e := range evs {
		reason := pad(Safe(e.Reason), reasonW)
		if e.Type == "Warning" {
			reason = f.styled(sWarning, reason)
		}
		msg := safeFields(e.Message)
		if e.Count > 1 {
			msg = fmt.Sprintf("×%d %s", e.Count, msg)
		}
		line := " " + padLeft(pt.fmtAt(e.At), offW) + " " + pad(eventWho(e), whoW) + " " + reason + " " + msg
		out = append(out, truncate(line, f.width))
	}
	return out
}

// eventWho names what an Event is about: its container, else its object's kind.
func eventWho(e timeline.Event) string {
	if e.Container != "" {
		return Safe(e.Container)
	}
	if kind, _, ok := strings.Cut(e.Object, "/"); ok {
		return Safe(strings.ToLower(kind))
	}
	return Safe(e.Object)
}
