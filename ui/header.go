package ui

import (
	"fmt"
	"strings"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// renderHeader draws the header: the program, the target and the mode on the first line; the
// selected pod's facts on the second.
func renderHeader(f *frame, p *timeline.Pod) []string {
	title := f.styled(sTitle, "sidecar-top")
	target := present.Safe(f.target)
	if f.namespace != "" {
		target += " in " + present.Safe(f.namespace)
	}
	right := modeBadge(f)
	line := title + "  " + f.styled(sMuted, target)
	switch {
	case cellWidth(line)+2+cellWidth(right) <= f.width:
	case cellWidth(title)+2+cellWidth(right) <= f.width:
		line = title
	default:
		line = ""
	}
	line = pad(line, f.width-cellWidth(right)) + right
	out := []string{line}
	if p == nil {
		return out
	}
	// Narrow, the labels go and the pod's name comes alone.
	label := func(s string) string {
		if f.width < 60 {
			return ""
		}
		return f.styled(sMuted, s+" ")
	}
	name := label("pod") + f.styled(sText, present.Safe(p.Name))
	if pos := f.podPosition(); pos != "" && f.width >= 60 {
		name += " " + f.styled(sMuted, "("+pos+")")
	}
	parts := []string{
		name,
		label("status") + f.statusStyled(present.Safe(p.Status)),
		f.styled(sMuted, "age ") + textfmt.Dur(f.liveEnd(p).Sub(f.times(p).origin)),
	}
	if p.Deleted {
		parts = append(parts, f.styled(sFailed, "deleted"))
	}
	parts = append(parts, label("phase")+present.Safe(p.Phase))
	if p.Node != "" {
		parts = append(parts, label("node")+present.Safe(p.Node))
	}
	return append(out, joinFit(parts, f.styled(sFaint, " · "), f.width))
}

// modeBadge says live or replay, and where the replay is; live, that what it shows is stale
// while the API server does not answer.
func modeBadge(f *frame) string {
	if f.mode == Live && f.silent > 0 {
		text := "● no answer from the API server for " + f.silent.String()
		if f.width < 80 {
			text = "● stale: no answer for " + f.silent.String()
		}
		return f.styled(sError, text)
	}
	if f.mode == Live {
		if f.view.follow {
			return f.paint(ink{what: inkState, state: timeline.StateReady}).render("● live")
		}
		return f.styled(sStatus, "● live, frozen")
	}
	r := f.replay
	state := "▶ " + r.speed
	switch {
	case r.ended:
		state = "■ end"
	case r.paused:
		state = "‖ paused " + r.speed
	}
	return f.styled(sStatus, fmt.Sprintf("replay %s %s/%s", state, textfmt.Dur(r.pos), textfmt.Dur(r.total)))
}

// axisInfo is the label of the axis row: the zoom, and whether the axis follows now.
func axisInfo(f *frame) string {
	zoom := "fit"
	if f.view.zoom > 0 {
		zoom = strings.TrimPrefix(textfmt.Tick(f.view.zoom), "+")
	}
	if f.view.follow {
		return " " + zoom
	}
	return " " + zoom + " frozen"
}

// renderStatus draws the status line: messages first, made safe, then as much short help as
// fits.
func renderStatus(f *frame) string {
	var msgs []string
	for _, m := range f.messages {
		text := safeFields(m.text) // notes and errors come from the cluster and recordings
		switch m.kind {
		case msgError:
			msgs = append(msgs, f.styled(sError, text))
		case msgDone:
			msgs = append(msgs, f.styled(sStatus, text))
		default:
			msgs = append(msgs, f.styled(sInfo, text))
		}
	}
	left := strings.Join(msgs, f.styled(sFaint, " · "))
	if left == "" {
		return shortHelp(f, f.width)
	}
	left = truncate(left, max(f.width-18, f.width*2/3))
	w := f.width - cellWidth(left) - 3
	if w < 6 {
		return left
	}
	return left + f.styled(sFaint, " · ") + shortHelp(f, w)
}

// shortHelp is as much of the short help as fits width cells.
func shortHelp(f *frame, width int) string {
	return f.cache.linesFor(linesKey{linesShortHelp, width}, func() []string {
		h := f.help
		h.ShowAll = false
		h.Width = width
		return []string{h.ShortHelpView(f.keys.ShortHelp())}
	})[0]
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
