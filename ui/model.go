package ui

import (
	"sort"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// Mode says where the model's observations come from.
type Mode int

// The modes.
const (
	Live   Mode = iota // from a watch, as messages on Config.Feed
	Replay             // from Config.Recording, played back on a virtual clock
)

// Default tick intervals: how often the live view redraws, and the replay clock's step.
const (
	DefaultLiveTick   = 200 * time.Millisecond
	DefaultReplayTick = 100 * time.Millisecond
)

// Config is what New needs to build a Model.
type Config struct {
	// Target describes what is watched, as kind/name (e.g. "pod/sc-a", "job/sc-b1") or in
	// words (e.g. "pods -l app=web"); Namespace is its namespace.
	Target, Namespace string
	Mode              Mode
	// Feed carries the watch's messages in Live mode: ObservationsMsg and WatchErrorMsg, and
	// FeedEndedMsg (or closing the channel) when the watch is over.
	Feed <-chan tea.Msg
	// Recording is the whole recording in Replay mode. NewModel sorts a copy by Received.
	Recording []timeline.Observation
	// Speed is the replay's initial speed as a multiple of real time; 0 means max: the whole
	// recording at once.
	Speed float64
	// Paused starts a replay paused.
	Paused bool
	// Styles are the styles to draw with; the zero value means DefaultStyles.
	Styles Styles
	// KeyMap are the key bindings; the zero value means DefaultKeyMap.
	KeyMap KeyMap
	// Tick is the redraw interval live and the virtual clock's step in replay; zero means
	// DefaultLiveTick or DefaultReplayTick.
	Tick time.Duration
}

// ObservationsMsg brings observations from the watch, in the order they were received.
type ObservationsMsg []timeline.Observation

// WatchErrorMsg reports a watch error the watch recovers from; the model shows it and goes on.
type WatchErrorMsg struct{ Err error }

// FeedEndedMsg says the watch is over, with the error that ended it, if any.
type FeedEndedMsg struct{ Err error }

// tickMsg is the clock: live it gives now, in replay it moves the playhead.
type tickMsg struct{ at time.Time }

// Listen returns a command that waits for one message on ch and returns it; the model runs it
// again after each ObservationsMsg and WatchErrorMsg. A closed channel gives FeedEndedMsg.
func Listen(ch <-chan tea.Msg) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return FeedEndedMsg{}
		}
		return msg
	}
}

// Model is the Bubble Tea model of sidecar-top. It owns the timeline.Builder, which only
// Update touches, and draws the latest Snapshot.
type Model struct {
	cfg     Config
	styles  Styles
	keys    KeyMap
	help    help.Model
	spinner spinner.Model
	tick    time.Duration

	builder *timeline.Builder
	snap    timeline.Snapshot
	now     time.Time // the last tick live, the playhead in replay

	width, height int
	view          viewState

	watchErr  error
	feedEnded bool
	feedErr   error

	rp replay
}

// viewState is what the user chose to look at.
type viewState struct {
	pod       string // the selected pod's UID
	autoPod   bool   // select the newest pod until the user picks one
	lane      string // the selected container; empty selects the pod row
	cursor    int    // the milestone cursor's row; -1 follows the newest rows
	zoom      time.Duration
	follow    bool
	frozenEnd time.Time // the axis' right edge while not following
	showHelp  bool
}

// NewModel returns a Model for cfg. Build cfg.Styles before the program starts (NewStyles
// settles the terminal's background colour).
func NewModel(cfg Config) Model {
	m := Model{
		cfg:     cfg,
		builder: timeline.NewBuilder(),
		help:    help.New(),
		tick:    cfg.Tick,
		view:    viewState{autoPod: true, cursor: -1, follow: true},
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
	m.help.Styles = m.styles.Help
	m.spinner = spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(m.styles.Spinner))
	if m.tick <= 0 {
		m.tick = DefaultLiveTick
		if cfg.Mode == Replay {
			m.tick = DefaultReplayTick
		}
	}
	if cfg.Mode == Replay {
		rec := append([]timeline.Observation(nil), cfg.Recording...)
		sort.SliceStable(rec, func(i, j int) bool { return rec[i].Received.Before(rec[j].Received) })
		m.rp = replay{rec: rec, marks: &markCache{}, speed: max(cfg.Speed, 0), paused: cfg.Paused}
		m.restart()
	}
	return m
}

// Init starts the clock, the feed listener and, live, the waiting spinner.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.tickCmd()}
	if m.cfg.Mode == Live {
		cmds = append(cmds, Listen(m.cfg.Feed), m.spinner.Tick)
	}
	return tea.Batch(cmds...)
}

func (m Model) tickCmd() tea.Cmd {
	return tea.Tick(m.tick, func(t time.Time) tea.Msg { return tickMsg{t} })
}

// Update handles a message and returns the updated model.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = msg.Width
		return m, nil
	case tea.KeyMsg:
		return m.handleKey(msg)
	case tickMsg:
		if m.cfg.Mode == Replay {
			m.advance()
		} else if msg.at.After(m.now) {
			m.now = msg.at
		}
		return m, m.tickCmd()
	case ObservationsMsg:
		if m.cfg.Mode != Live {
			return m, nil
		}
		m.apply(msg)
		return m, Listen(m.cfg.Feed)
	case WatchErrorMsg:
		m.watchErr = msg.Err
		return m, Listen(m.cfg.Feed)
	case FeedEndedMsg:
		m.feedEnded, m.feedErr = true, msg.Err
		return m, nil
	case spinner.TickMsg:
		if len(m.snap.Pods) > 0 {
			return m, nil // nothing to wait for: let the spinner stop
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return m, cmd
	}
	return m, nil
}

// apply adds live observations to the builder and takes a new snapshot. A successful batch
// clears the last watch error.
func (m *Model) apply(obs []timeline.Observation) {
	if len(obs) == 0 {
		return
	}
	for _, o := range obs {
		m.builder.Apply(o)
		if o.Received.After(m.now) {
			m.now = o.Received
		}
	}
	m.snap = m.builder.Snapshot()
	m.watchErr = nil
	m.syncSelection()
}

// Snapshot returns the snapshot the model draws.
func (m Model) Snapshot() timeline.Snapshot { return m.snap }

// Now returns the time the model draws at: the last tick or observation live, the playhead in
// replay.
func (m Model) Now() time.Time { return m.now }
