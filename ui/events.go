package ui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// podEvents are the Events of pod p and of its job, oldest first.
func podEvents(p *timeline.Pod, job *timeline.Job) []timeline.Event {
	out := p.Events.Slice()
	if job != nil && job.Events.Len() > 0 {
		out = append(out, job.Events.Slice()...)
		sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	}
	return out
}

// renderEvents draws the newest Events that fit in height rows under a heading: offset from
// origin, container (or object), reason, count and message.
func renderEvents(f *frame, evs []timeline.Event, origin time.Time, height int) []string {
	if height < 2 || len(evs) == 0 {
		return nil
	}
	st := f.st
	evs = evs[max(len(evs)-(height-1), 0):]
	offW, whoW, reasonW := len("OFFSET"), len("OBJECT"), len("REASON")
	for _, e := range evs {
		offW = max(offW, len(fmtSigned(e.At.Sub(origin))))
		whoW = max(whoW, lipgloss.Width(eventWho(e)))
		reasonW = max(reasonW, lipgloss.Width(e.Reason))
	}
	whoW, reasonW = min(whoW, 14), min(reasonW, 18)
	if f.width < 60 {
		whoW, reasonW = min(whoW, 8), min(reasonW, 10)
	}
	head := pad("EVENTS", 1+offW) + " " + pad("OBJECT", whoW) + " " + pad("REASON", reasonW) + " MESSAGE"
	out := []string{st.TableHeader.Render(truncate(head, f.width))}
	for _, e := range evs {
		reason := pad(e.Reason, reasonW)
		if e.Type == "Warning" {
			reason = st.Warning.Render(reason)
		}
		msg := strings.Join(strings.Fields(e.Message), " ")
		if e.Count > 1 {
			msg = fmt.Sprintf("×%d %s", e.Count, msg)
		}
		line := " " + pad(fmtSigned(e.At.Sub(origin)), offW) + " " + pad(eventWho(e), whoW) + " " + reason + " " + msg
		out = append(out, truncate(line, f.width))
	}
	return out
}

// eventWho names what an Event is about: its container, else its object's kind.
func eventWho(e timeline.Event) string {
	if e.Container != "" {
		return e.Container
	}
	if kind, _, ok := strings.Cut(e.Object, "/"); ok {
		return strings.ToLower(kind)
	}
	return e.Object
}
