package ui

import (
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// Mode says where the model's frames come from.
type Mode int

// The modes.
const (
	Live   Mode = iota // from a watch
	Replay             // from a recording, played back on a virtual clock the view steers
)

// DefaultLiveTick is how often the live view redraws when nothing arrives: the axis follows now.
const DefaultLiveTick = 200 * time.Millisecond

// Config is what New needs to build a Model.
type Config struct {
	// Target describes what is watched, as kind/name (e.g. "pod/sc-a", "job/sc-b1") or in
	// words (e.g. "pods -l app=web"); Namespace is its namespace.
	Target, Namespace string
	Mode              Mode
	// Frames brings the player's frames (play.RunLive, play.Replay): each an immutable snapshot
	// and where the play is. A closed channel, or a frame that says so, ends the watch.
	Frames <-chan play.Frame
	// Control steers the replay in Replay mode.
	Control ReplayControl
	// Styles are the styles to draw with; the zero value means DefaultStyles.
	Styles Styles
	// KeyMap are the key bindings; the zero value means DefaultKeyMap.
	KeyMap KeyMap
	// Tick is the live redraw interval; zero means DefaultLiveTick.
	Tick time.Duration
	// Explain shows the milestone table's WHY column at any width (else only where it fits);
	// Summary opens the view on the workload's summary (S toggles it).
	Explain, Summary bool
	// Fleet opens the view on the table of every pod (a namespace, the cluster: FleetTable);
	// enter opens a pod's lanes, esc goes back. SidecarsOnly hides pods without a sidecar there.
	Fleet, SidecarsOnly bool
	// Focus, if set, is told the UID of the pod whose lanes the fleet view shows ("" back at the
	// table): a live scope keeps only that pod's timeline whole (play.Focus), and shows the
	// others' briefs until one is opened.
	Focus func(uid string)
}

// ReplayControl is what the view asks of a replay; play.Replay is one. No call blocks.
type ReplayControl interface {
	TogglePause()
	CycleSpeed()
	SetSpeed(float64)
	SeekEnd()
	Restart()
	Step(dir int, uids ...string)
}

// FrameMsg brings a frame from the player.
type FrameMsg play.Frame

// FeedEndedMsg says the player's frames are over.
type FeedEndedMsg struct{}

// tickMsg is the live clock.
type tickMsg struct{ at time.Time }

// Listen returns a command that waits for one frame on ch and returns it; the model runs it
// again after each frame. A closed channel gives FeedEndedMsg.
func Listen(ch <-chan play.Frame) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		f, ok := <-ch
		if !ok {
			return FeedEndedMsg{}
		}
		return FrameMsg(f)
	}
}

// Model is the Bubble Tea model of sidecar-top. It holds what the user chose to look at and the
// latest frame the player handed out, nothing more: the player owns the timeline.
type Model struct {
	cfg     Config
	styles  Styles
	keys    KeyMap
	help    help.Model
	spinner spinner.Model
	tick    time.Duration

	snap    timeline.Snapshot
	frame   play.Frame
	focused string    // the pod Config.Focus was last told of
	now     time.Time // the last tick live, the playhead in replay

	width, height int
	view          viewState
	feedEnded     bool

	fleet      FleetTable // the fleet table, in a Config.Fleet view
	helpScreen helpScreen // the `?` screen
	inspector  inspector  // the milestone inspector
	picker     picker     // the pod picker
	summary    summaryScreen

	cache *viewCache // shared by the model's copies; memoization only
	memo  *navMemo   // the picker's list and the searches' matches, shared likewise; memoization only
}

// viewState is what the user chose to look at.
type viewState struct {
	pod       string // the selected pod's UID
	autoPod   bool   // select the newest pod until the user picks one
	lane      string // the selected container; empty selects the pod row
	zoom      time.Duration
	follow    bool
	frozenEnd time.Time // the axis' right edge while not following

	tables        // the milestone table and the Events: the focus and the cursors
	search search // the search of the table in focus
	inPod  bool   // a pod opened from the fleet table: esc goes back to it
}

// NewModel returns a Model for cfg. Build cfg.Styles before the program starts (NewStyles
// settles the terminal's background colour).
func NewModel(cfg Config) Model {
	m := Model{
		cfg:   cfg,
		help:  help.New(),
		tick:  cfg.Tick,
		view:  viewState{autoPod: true, follow: true},
		cache: newViewCache(),
		memo:  newNavMemo(),
	}
	if cfg.Fleet {
		m.fleet, m.view.autoPod = NewFleetTable(cfg.SidecarsOnly), false
	}
	m.styles = cfg.Styles
	if m.styles.States == nil {
		m.styles = DefaultStyles()
	}
	keys := cfg.KeyMap
	if len(keys.Quit.Keys()) == 0 {
		keys = DefaultKeyMap()
	}
	m.keys = keys.forMode(cfg.Mode)
	m.helpScreen, m.inspector = newHelpScreen(m.keys), newInspector(m.keys)
	m.view.tables, m.view.search, m.picker = newTables(m.keys), newSearch(m.keys), newPicker(m.keys)
	m.summary = newSummaryScreen(m.keys, cfg.Summary)
	m.help.Styles = m.styles.Help
	m.spinner = spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(m.styles.Spinner))
	if m.tick <= 0 {
		m.tick = DefaultLiveTick
	}
	return m
}

// Init starts the frame listener and, live, the clock and the waiting spinner.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{Listen(m.cfg.Frames)}
	if m.cfg.Mode == Live {
		cmds = append(cmds, m.tickCmd(), m.spinner.Tick)
	}
	return tea.Batch(cmds...)
}

func (m Model) tickCmd() tea.Cmd {
	return tea.Tick(m.tick, func(t time.Time) tea.Msg { return tickMsg{t} })
}

// Update handles a message and returns the updated model.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	if nm, ok := next.(Model); ok && nm.cfg.Focus != nil {
		if uid := nm.openedPod(); uid != nm.focused {
			nm.focused = uid
			nm.cfg.Focus(uid)
		}
		return nm, cmd
	}
	return next, cmd
}

// openedPod is the pod whose lanes the fleet view shows; "" at the table.
func (m *Model) openedPod() string {
	if m.cfg.Fleet && m.view.inPod {
		return m.view.pod
	}
	return ""
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = msg.Width
		m.fleet.page = max(m.height-5, 1) // the table's rows but one: header, counts, headings, status
		return m, nil
	case tea.KeyMsg:
		return m.handleKey(msg)
	case tickMsg:
		if msg.at.After(m.now) {
			m.now = msg.at
		}
		return m, m.tickCmd()
	case FrameMsg:
		m.show(play.Frame(msg))
		if msg.Ended {
			m.feedEnded = true
			return m, nil
		}
		return m, Listen(m.cfg.Frames)
	case FeedEndedMsg:
		m.feedEnded = true
		return m, nil
	case OpenPodMsg:
		m.openPod(msg.UID)
		return m, nil
	case spinner.TickMsg:
		if m.snap.Pods.Len() > 0 {
			return m, nil // nothing to wait for: let the spinner stop
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return m, cmd
	}
	return m, nil
}

// show takes a frame: its snapshot, and live the time it reaches; a replay's playhead is now.
func (m *Model) show(f play.Frame) {
	m.frame, m.snap = f, f.Snapshot
	if m.cfg.Fleet {
		m.fleet.SetSnapshot(f.Snapshot)
	}
	if m.cfg.Mode == Replay || f.Now.After(m.now) {
		m.now = f.Now
	}
	if m.cfg.Mode == Live { // never before the last thing seen: a snapshot never reaches past the axis
		if seen := latestSeen(f.Snapshot); seen.After(m.now) {
			m.now = seen
		}
	}
	m.syncSelection()
}

// Snapshot returns the snapshot the model draws.
func (m Model) Snapshot() timeline.Snapshot { return m.snap }

// Now returns the time the model draws at: the last tick or frame live, the playhead in replay.
func (m Model) Now() time.Time { return m.now }
