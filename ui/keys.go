package ui

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the model's key bindings. It is a help.KeyMap, so the status line and the `?`
// screen are drawn from it; bindings that do nothing in the current mode are disabled and so
// left out of the help.
type KeyMap struct {
	Up, Down         key.Binding // select a lane
	NextPod, PrevPod key.Binding // select a pod
	ZoomIn, ZoomOut  key.Binding // change the visible span of the time axis
	Follow           key.Binding // keep now at the axis' right edge, or freeze the axis
	Next, Prev       key.Binding // next or previous milestone: a table cursor live, a step in replay
	Pause            key.Binding // replay: play or pause
	Speed            key.Binding // replay: cycle the speed
	Speed1, Speed2   key.Binding // replay: 1× and 2×
	Speed10          key.Binding // replay: 10×
	SpeedMax         key.Binding // replay: everything at once
	End, Start       key.Binding // replay: jump to the end, restart
	Help             key.Binding // the full help
	Quit             key.Binding
}

// DefaultKeyMap returns the default bindings, with every binding enabled.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "lane up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "lane down")),
		NextPod:  key.NewBinding(key.WithKeys("tab", "right", "l"), key.WithHelp("tab/→", "next pod")),
		PrevPod:  key.NewBinding(key.WithKeys("shift+tab", "left", "h"), key.WithHelp("⇧tab/←", "previous pod")),
		ZoomIn:   key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "zoom in")),
		ZoomOut:  key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "zoom out")),
		Follow:   key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow now")),
		Next:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next milestone")),
		Prev:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "previous milestone")),
		Pause:    key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "play/pause")),
		Speed:    key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "cycle speed")),
		Speed1:   key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "speed 1×")),
		Speed2:   key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "speed 2×")),
		Speed10:  key.NewBinding(key.WithKeys("0"), key.WithHelp("0", "speed 10×")),
		SpeedMax: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "speed max")),
		End:      key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "jump to end")),
		Start:    key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "restart")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:     key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// forMode adapts the bindings to a mode: replay keys are disabled live, and n/p say what they
// do there.
func (k KeyMap) forMode(mode Mode) KeyMap {
	replay := mode == Replay
	for _, b := range []*key.Binding{&k.Pause, &k.Speed, &k.Speed1, &k.Speed2, &k.Speed10, &k.SpeedMax, &k.End, &k.Start} {
		b.SetEnabled(replay)
	}
	if replay {
		k.Next.SetHelp(k.Next.Help().Key, "step to next milestone")
		k.Prev.SetHelp(k.Prev.Help().Key, "back to previous milestone")
	}
	return k
}

// ShortHelp is the status line's help: the most useful keys first, since it is cut from the end
// when the line is too narrow.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.Quit, k.Pause, k.Speed, k.Next, k.Down, k.NextPod, k.ZoomIn, k.ZoomOut, k.Follow}
}

// FullHelp is the `?` screen, in columns.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.NextPod, k.PrevPod},
		{k.ZoomIn, k.ZoomOut, k.Follow, k.Next, k.Prev},
		{k.Pause, k.Speed, k.Speed1, k.Speed2, k.Speed10, k.SpeedMax},
		{k.Start, k.End, k.Help, k.Quit},
	}
}
