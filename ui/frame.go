package ui

import (
	"strconv"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// frame is everything one drawing of the view depends on. render is a pure function of it.
type frame struct {
	snap          timeline.Snapshot
	view          viewState
	width, height int
	now           time.Time
	st            Styles
	cache         *viewCache // memoizes what the frame's pod gives; never changes what is drawn
	scratch       []cell     // the cells of the bar being drawn, reused from bar to bar

	mode              Mode
	target, namespace string
	replay            replayInfo
	silent            time.Duration // live: how long the API server has not answered, if stale
	explain           bool          // the milestone table's WHY column at any width
	messages          []statusMessage
	help              help.Model
	keys              KeyMap
	spinner           string
	fleet             *FleetTable  // the fleet table, when the view shows it
	fleetKeys         *FleetKeyMap // the fleet table's keys, in a fleet view
	helpScreen        helpScreen
	inspector         inspector
	picker            picker
	summary           summaryScreen
}

// replayInfo is what the header says about a replay.
type replayInfo struct {
	pos, total    time.Duration
	speed         string
	paused, ended bool
	empty         bool
}

// statusMessage is one message of the status line.
type statusMessage struct {
	text string
	kind msgKind
}

type msgKind int

const (
	msgInfo msgKind = iota
	msgDone
	msgError
)

// frameView gathers what the view draws. Live, now is the last tick or the last thing seen
// (show), whichever is later, so a snapshot never reaches past the axis.
func (m *Model) frameView() frame {
	f := frame{
		snap: m.snap, view: m.view, width: m.width, height: m.height, now: m.now, st: m.styles, cache: m.cache,
		mode: m.cfg.Mode, target: m.cfg.Target, namespace: m.cfg.Namespace,
		help: m.help, keys: m.keys, spinner: m.spinner.View(), silent: m.frame.Silent,
		explain: m.cfg.Explain, helpScreen: m.helpScreen, inspector: m.inspector, picker: m.picker, summary: m.summary,
	}
	if m.inTable() {
		f.fleet = &m.fleet
	}
	if m.cfg.Fleet {
		f.fleetKeys = &m.fleet.KeyMap
	}
	if f.cache == nil { // a Model not made by NewModel
		f.cache = newViewCache()
	}
	if r := m.frame.Replay; m.cfg.Mode != Live && r != nil {
		f.replay = replayInfo{pos: r.Pos, total: r.Total, speed: speedLabel(r.Speed), paused: r.Paused,
			ended: r.AtEnd, empty: r.Empty}
	} else if m.cfg.Mode != Live {
		f.replay = replayInfo{empty: true}
	}
	if err := m.frame.WatchErr; err != nil {
		f.messages = append(f.messages, statusMessage{"watch error: " + err.Error(), msgError})
	}
	switch {
	case m.cfg.Mode == Replay:
	case m.feedEnded && m.frame.Err != nil:
		f.messages = append(f.messages, statusMessage{"watch ended: " + m.frame.Err.Error(), msgError})
	case m.feedEnded:
		f.messages = append(f.messages, statusMessage{"watch ended", msgDone})
	}
	if m.cfg.Mode == Replay && f.replay.ended {
		f.messages = append(f.messages, statusMessage{"end of recording", msgDone})
	}
	for _, n := range m.snap.Notes {
		f.messages = append(f.messages, statusMessage{n, msgInfo})
	}
	return f
}

// paint is how text in ink k is written.
func (f *frame) paint(k ink) *paint { return f.cache.paintOf(k, &f.st) }

// styled is text in the named style.
func (f *frame) styled(n styleName, text string) string {
	return f.paint(ink{what: inkNamed, named: n}).render(text)
}

// statusStyled is a STATUS text in the style of what it means.
func (f *frame) statusStyled(status string) string {
	return f.paint(ink{what: inkStatus, text: status}).render(status)
}

// latestSeen is the receive time of the latest observation of any pod in s.
func latestSeen(s timeline.Snapshot) time.Time {
	var t time.Time
	for _, p := range s.Pods.Items() {
		if p.LastSeen.After(t) {
			t = p.LastSeen
		}
	}
	return t
}

// pod is the selected pod, or nil.
func (f *frame) pod() *timeline.Pod {
	for _, p := range f.snap.Pods.Items() {
		if p.UID == f.view.pod {
			return p
		}
	}
	return nil
}

// jobOf is the Job that owns p, or nil: the newest of that name in p's namespace.
func (f *frame) jobOf(p *timeline.Pod) *timeline.Job {
	if p.Owner == nil || p.Owner.Kind != "Job" {
		return nil
	}
	var found *timeline.Job
	for _, j := range f.snap.Jobs {
		if j.Name == p.Owner.Name && j.Namespace == p.Namespace && !j.Created.After(f.times(p).origin) {
			found = j
		}
	}
	return found
}

// times are the times pod p is placed by.
func (f *frame) times(p *timeline.Pod) podTimes {
	pt, _ := f.cache.podTimes(p)
	return pt
}

// liveEnd is the latest time pod p's lanes reach: now, or the last sign of a deleted pod. A
// replay's playhead is kept within the times placed; live, now is this machine's clock.
func (f *frame) liveEnd(p *timeline.Pod) time.Time {
	return f.times(p).liveEnd(p, f.now, f.mode == Live)
}

// axisSpan is the stretch of time the lanes show for pod p and its job: from the pod's origin
// (or its job's creation, if that is earlier by less than a day) to its live end (or a later
// condition of the job). Times the axis does not place count for nothing.
func (f *frame) axisSpan(p *timeline.Pod, job *timeline.Job) (start, end time.Time) {
	pt := f.times(p)
	origin, last := pt.origin, f.liveEnd(p)
	if job != nil {
		if job.Created.Before(origin) && pt.placed(job.Created) {
			origin = job.Created
		}
		for _, m := range job.Milestones {
			if m.At.After(last) && !m.At.After(f.now) && pt.placed(m.At) {
				last = m.At
			}
		}
	}
	return axisWindow(origin, last, f.view.zoom, f.view.follow, f.view.frozenEnd)
}

// podPosition is "n of m" for the selected pod when there are several.
func (f *frame) podPosition() string {
	if f.snap.Pods.Len() < 2 {
		return ""
	}
	for i, p := range f.snap.Pods.Items() {
		if p.UID == f.view.pod {
			return strconv.Itoa(i+1) + " of " + strconv.Itoa(f.snap.Pods.Len())
		}
	}
	return ""
}
