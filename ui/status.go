package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// statusLine is the last line: what the sub-model shown on top (or the search) says and offers,
// else the messages and the short help.
func statusLine(f *frame, memo *navMemo, p *timeline.Pod) string {
	var (
		lead  string
		what  uint8 // which hints, for the memo
		hints func() []key.Binding
	)
	switch s := f.view.search; {
	case f.fleet != nil && !f.summary.open && !f.helpScreen.open:
		lead, what, hints = f.fleet.status(f)
	case f.inspector.open && !f.helpScreen.open:
		what, hints = 10, f.inspector.keys.ShortHelp
	case f.picker.open:
		lead, what, hints = f.picker.status(f)
	case f.summary.open && !f.helpScreen.open:
		what, hints = 7, f.summary.keys.ShortHelp
	case s.typing:
		lead, what, hints = s.lead(f, memo, p), 5, s.ShortHelp
	case s.query != "":
		lead, what, hints = s.lead(f, memo, p), 6, s.ShortHelp
	default:
		return renderStatus(f)
	}
	return statusWith(f, lead, func(width int) string {
		return memo.hintsFor(hintsKey{what, width}, func() string {
			h := f.help
			h.ShowAll, h.Width = false, width
			return h.ShortHelpView(hints())
		})
	})
}

func boolUint8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// statusWith is a status line of lead, then the messages, then as much help as fits.
func statusWith(f *frame, lead string, help func(width int) string) string {
	sep := f.styled(sFaint, " · ")
	var parts []string
	if lead != "" {
		parts = append(parts, lead)
	}
	for _, m := range f.messages {
		text := safeFields(m.text) // notes and errors come from the cluster and recordings
		switch m.kind {
		case msgError:
			text = f.styled(sError, text)
		case msgDone:
			text = f.styled(sStatus, text)
		default:
			text = f.styled(sInfo, text)
		}
		parts = append(parts, text)
	}
	left := strings.Join(parts, sep)
	if left == "" {
		return truncate(help(f.width), f.width)
	}
	left = truncate(left, max(f.width-18, f.width*2/3))
	w := f.width - cellWidth(left) - 3
	if w < 6 {
		return left
	}
	return left + sep + help(w)
}

// idleShown is how long, on the replay clock, the view still says a pause was cut after the
// cut has played: long enough to read.
const idleShown = 2 * time.Second

// idleText says, while the playhead is in a pause the replay cut to its idle limit and for
// idleShown after, how long the recording paused there: "… 2m30s idle, skipped".
func idleText(r *play.ReplayState) string {
	if r == nil || r.Idle.Gap <= 0 || r.Pos < r.Idle.From || r.Pos-idleShown >= r.Idle.To {
		return ""
	}
	return "… " + IdleDur(r.Idle.Gap) + " idle, skipped"
}

// IdleDur is how long a cut pause was, as the view and the plain output of replay say it: to the tenth of
// a second under a minute, to the second under two days, in days beyond (an item stamped years
// away).
func IdleDur(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
