package ui

import (
	"time"

	"github.com/sidecar-top/sidecar-top/play"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// rootKey acts on a key no sub-model took: the keys that open a sub-model or end the search,
// then those of the lanes and the axis, then the tables'; and in a replay, the replay's.
func (m *Model) rootKey(msg tea.KeyMsg) {
	if !m.openKey(msg) && !m.laneKey(msg) {
		m.tableKey(msg)
	}
	if m.replaying() {
		m.replayKey(msg)
	}
}

// openKey opens the help, the picker, the summary or a search, or on esc ends the search (and
// with none, goes back from a pod to the fleet table); n and N go from match to match while a
// search holds. It reports whether the key was one of those.
func (m *Model) openKey(msg tea.KeyMsg) bool {
	k := m.keys
	switch {
	case key.Matches(msg, k.Help):
		m.helpScreen = m.helpScreen.toggle()
	case key.Matches(msg, k.Cancel) && m.cfg.Fleet && m.view.inPod && m.view.search.query == "":
		m.view.inPod = false // back to the table, at the same row
	case key.Matches(msg, k.Cancel):
		m.view.search.query = ""
	case key.Matches(msg, k.Pods):
		m.openPicker()
	case key.Matches(msg, k.Summary):
		m.openSummary()
	case key.Matches(msg, k.Search):
		m.startSearch()
	case m.searching() && key.Matches(msg, k.NextMatch):
		m.jumpMatch(1)
	case m.searching() && key.Matches(msg, k.PrevMatch):
		m.jumpMatch(-1)
	default:
		return false
	}
	return true
}

// laneKey selects a lane or a pod, zooms, pans or freezes the axis, and reports whether the key
// was one of those.
func (m *Model) laneKey(msg tea.KeyMsg) bool {
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		m.moveLane(-1)
	case key.Matches(msg, k.Down):
		m.moveLane(1)
	case key.Matches(msg, k.NextPod):
		m.movePod(1)
	case key.Matches(msg, k.PrevPod):
		m.movePod(-1)
	case key.Matches(msg, k.Left):
		if !m.pan(-1) {
			m.movePod(-1)
		}
	case key.Matches(msg, k.Right):
		if !m.pan(1) {
			m.movePod(1)
		}
	case key.Matches(msg, k.ZoomIn):
		m.view.zoom = zoomIn(m.view.zoom, m.fitSpan())
	case key.Matches(msg, k.ZoomOut):
		m.view.zoom = zoomOut(m.view.zoom, m.fitSpan())
	case key.Matches(msg, k.Follow):
		m.toggleFollow()
	default:
		return false
	}
	return true
}

// replayKey steers the replay: play or pause, its speed, its end and its start.
func (m *Model) replayKey(msg tea.KeyMsg) {
	k, c := m.keys, m.cfg.Control
	switch {
	case key.Matches(msg, k.Pause):
		c.TogglePause()
	case key.Matches(msg, k.Speed):
		c.CycleSpeed()
	case key.Matches(msg, k.Speed1):
		c.SetSpeed(1)
	case key.Matches(msg, k.Speed2):
		c.SetSpeed(2)
	case key.Matches(msg, k.Speed10):
		c.SetSpeed(10)
	case key.Matches(msg, k.SpeedMax):
		c.SetSpeed(play.SpeedMax)
	case key.Matches(msg, k.End):
		c.SeekEnd()
	case key.Matches(msg, k.Start):
		c.Restart()
	}
}

// inTable reports whether the fleet table is what the view shows.
func (m *Model) inTable() bool { return m.cfg.Fleet && !m.view.inPod }

// openPod opens the lanes of the pod uid, from the fleet table.
func (m *Model) openPod(uid string) {
	m.view.pod, m.view.autoPod, m.view.inPod = uid, false, true
	m.view.lane, m.view.cursor, m.view.evCursor = "", -1, -1
	m.summary.open = false
}

// selectPod selects the pod with uid, if the snapshot has it, as movePod would.
func (m *Model) selectPod(uid string) {
	for i, p := range m.snap.Pods.Items() {
		if p.UID == uid {
			m.movePod(i - max(m.selectedPod(), 0))
			return
		}
	}
}

// replaying reports whether the keys steer a replay.
func (m *Model) replaying() bool { return m.cfg.Mode == Replay && m.cfg.Control != nil }

// selectedPod returns the selected pod's index in the snapshot, or -1 when there is none.
func (m *Model) selectedPod() int {
	for i, p := range m.snap.Pods.Items() {
		if p.UID == m.view.pod {
			return i
		}
	}
	return -1
}

// newestPod is the pod shown until the user picks one: the newest that is not deleted, else
// the newest.
func newestPod(pods timeline.Seq[*timeline.Pod]) int {
	for i, p := range pods.Backward() {
		if !(*p).Deleted {
			return i
		}
	}
	return pods.Len() - 1
}

// syncSelection keeps the selection valid after a new snapshot: the newest pod while the user
// has not picked one, the pod row when the selected container is gone, the cursor in range.
func (m *Model) syncSelection() {
	i := m.selectedPod()
	if m.view.autoPod || i < 0 {
		if j := newestPod(m.snap.Pods); j != i {
			i = j
			m.view.cursor, m.view.evCursor = -1, -1
		}
	}
	if i < 0 {
		m.view.pod = ""
		return
	}
	p := m.snap.Pods.At(i)
	m.view.pod = p.UID
	if laneIndex(p, m.view.lane) < 0 {
		m.view.lane = ""
	}
	if n := rowCount(p); m.view.cursor >= n {
		m.view.cursor = n - 1
	}
	if m.view.evCursor >= 0 {
		f := m.frameView()
		if n := len(m.navMemo().eventList(p, f.jobOf(p))); m.view.evCursor >= n {
			m.view.evCursor = n - 1
		}
	}
}

// laneIndex is the index of lane name in the pod's lanes: 0 for the pod row, then containers;
// -1 when there is no such lane.
func laneIndex(p *timeline.Pod, name string) int {
	if name == "" {
		return 0
	}
	for i, c := range p.Containers {
		if c.Name == name {
			return i + 1
		}
	}
	return -1
}

// moveLane selects the lane d rows down (up when negative), staying within the lanes.
func (m *Model) moveLane(d int) {
	i := m.selectedPod()
	if i < 0 {
		return
	}
	p := m.snap.Pods.At(i)
	j := min(max(laneIndex(p, m.view.lane)+d, 0), len(p.Containers))
	if j == 0 {
		m.view.lane = ""
	} else {
		m.view.lane = p.Containers[j-1].Name
	}
}

// movePod selects the pod d places on, wrapping around; from then on the selection stays.
func (m *Model) movePod(d int) {
	n := m.snap.Pods.Len()
	if n == 0 {
		return
	}
	i := max(m.selectedPod(), 0)
	i = ((i+d)%n + n) % n
	m.view.autoPod = false
	if m.view.pod != m.snap.Pods.At(i).UID {
		m.view.cursor, m.view.evCursor = -1, -1
	}
	m.view.pod = m.snap.Pods.At(i).UID
	if laneIndex(m.snap.Pods.At(i), m.view.lane) < 0 {
		m.view.lane = ""
	}
}

// toggleFollow freezes the axis where it is, or makes it follow now again.
func (m *Model) toggleFollow() {
	if m.view.follow {
		f := m.frameView()
		if p := f.pod(); p != nil {
			_, m.view.frozenEnd = f.axisSpan(p, f.jobOf(p))
		}
	}
	m.view.follow = !m.view.follow
}

// fitSpan is the span of the axis when it fits the selected pod.
func (m *Model) fitSpan() time.Duration {
	f := m.frameView()
	p := f.pod()
	if p == nil {
		return minSpan
	}
	f.view.zoom = 0
	start, end := f.axisSpan(p, f.jobOf(p))
	return end.Sub(start)
}
