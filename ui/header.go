package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// renderHeader draws the header: the program, the target and the mode on the first line; the
// selected pod's facts on the second.
func renderHeader(f *frame, p *timeline.Pod) []string {
	st := f.st
	title := st.Title.Render("sidecar-top")
	target := f.target
	if f.namespace != "" {
		target += " in " + f.namespace
	}
	right := modeBadge(f)
	line := title + "  " + st.Muted.Render(target)
	switch {
	case lipgloss.Width(line)+2+lipgloss.Width(right) <= f.width:
	case lipgloss.Width(title)+2+lipgloss.Width(right) <= f.width:
		line = title
	default:
		line = ""
	}
	line = pad(line, f.width-lipgloss.Width(right)) + right
	out := []string{line}
	if p == nil {
		return out
	}
	// Narrow, the labels go and the pod's name comes alone.
	label := func(s string) string {
		if f.width < 60 {
			return ""
		}
		return st.Muted.Render(s + " ")
	}
	name := label("pod") + st.Text.Render(p.Name)
	if pos := f.podPosition(); pos != "" && f.width >= 60 {
		name += " " + st.Muted.Render("("+pos+")")
	}
	parts := []string{
		name,
		label("status") + st.statusStyle(p.Status).Render(p.Status),
		st.Muted.Render("age ") + fmtDur(liveEnd(p, f.now).Sub(p.Created)),
	}
	if p.Deleted {
		parts = append(parts, st.Failed.Render("deleted"))
	}
	parts = append(parts, label("phase")+p.Phase)
	if p.Node != "" {
		parts = append(parts, label("node")+p.Node)
	}
	return append(out, joinFit(parts, st.Faint.Render(" · "), f.width))
}

// modeBadge says live or replay, and where the replay is.
func modeBadge(f *frame) string {
	st := f.st
	if f.mode == Live {
		if f.view.follow {
			return st.States[timeline.StateReady].Render("● live")
		}
		return st.Status.Render("● live, frozen")
	}
	r := f.replay
	state := "▶ " + r.speed
	switch {
	case r.ended:
		state = "■ end"
	case r.paused:
		state = "‖ paused " + r.speed
	}
	return st.Status.Render(fmt.Sprintf("replay %s %s/%s", state, fmtDur(r.pos), fmtDur(r.total)))
}

// axisInfo is the label of the axis row: the zoom, and whether the axis follows now.
func axisInfo(f *frame) string {
	zoom := "fit"
	if f.view.zoom > 0 {
		zoom = strings.TrimPrefix(fmtTick(f.view.zoom), "+")
	}
	if f.view.follow {
		return " " + zoom
	}
	return " " + zoom + " frozen"
}

// renderStatus draws the status line: messages first, then as much short help as fits.
func renderStatus(f *frame) string {
	st := f.st
	var msgs []string
	for _, m := range f.messages {
		switch m.kind {
		case msgError:
			msgs = append(msgs, st.Error.Render(m.text))
		case msgDone:
			msgs = append(msgs, st.Status.Render(m.text))
		default:
			msgs = append(msgs, st.Info.Render(m.text))
		}
	}
	left := strings.Join(msgs, st.Faint.Render(" · "))
	h := f.help
	h.ShowAll = false
	if left == "" {
		h.Width = f.width
		return h.ShortHelpView(f.keys.ShortHelp())
	}
	left = truncate(left, max(f.width-18, f.width*2/3))
	h.Width = f.width - lipgloss.Width(left) - 3
	if h.Width < 6 {
		return left
	}
	return left + st.Faint.Render(" · ") + h.ShortHelpView(f.keys.ShortHelp())
}

// waitingText says what the view waits for before the first pod shows up.
func waitingText(target, namespace string) string {
	in := ""
	if namespace != "" {
		in = " in namespace " + namespace
	}
	kind, name, ok := strings.Cut(target, "/")
	switch {
	case !ok:
		return fmt.Sprintf("waiting for %s%s…", target, in)
	case kind == "pod" || kind == "pods" || kind == "po":
		return fmt.Sprintf("waiting for pod %s%s to be created…", name, in)
	default:
		return fmt.Sprintf("waiting for the pods of %s %s%s…", strings.TrimSuffix(kind, "s"), name, in)
	}
}
