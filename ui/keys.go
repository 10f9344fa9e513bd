package ui

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the model's key bindings. It is a help.KeyMap, so the status line and the `?`
// screen are drawn from it; bindings that do nothing in the current mode are disabled and so
// left out of the help. README's keys section is written from it too (keyGroups), and a test
// checks that every binding is in both. Each sub-model's KeyMap (the picker's, the summary's...)
// is made from it, so a binding changed here changes wherever it is used.
type KeyMap struct {
	Up, Down         key.Binding // select a lane
	NextPod, PrevPod key.Binding // select a pod
	Pods             key.Binding // the pod picker: a filterable list of every pod
	Summary          key.Binding // the workload's summary: every named gap over the pods
	ZoomIn, ZoomOut  key.Binding // change the visible span of the time axis
	Left, Right      key.Binding // pan the zoomed axis; at fit, the previous or next pod
	Follow           key.Binding // keep now at the axis' right edge, or freeze the axis
	Next, Prev       key.Binding // next or previous milestone: a table cursor live, a step in replay
	PageUp, PageDown key.Binding // page the table in focus (or the picker, or the help)
	Events           key.Binding // move the focus between the milestone table and the Events
	Search           key.Binding // search the table in focus; in the picker, filter the pods
	NextMatch        key.Binding // the next row that matches the search
	PrevMatch        key.Binding // the previous row that matches the search
	Accept           key.Binding // pick the pod under the picker's cursor; end typing a search
	Cancel           key.Binding // end the search, close the picker
	Order            key.Binding // the picker's order: as listed, or slowest gap first
	Pause            key.Binding // replay: play or pause
	Speed            key.Binding // replay: cycle the speed
	Speed1, Speed2   key.Binding // replay: 1× and 2×
	Speed10          key.Binding // replay: 10×
	SpeedMax         key.Binding // replay: everything at once
	End, Start       key.Binding // replay: jump to the end, play from the start
	Help             key.Binding // the full help
	Quit             key.Binding
}

// DefaultKeyMap returns the default bindings, with every binding enabled.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "lane up")),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "lane down")),
		NextPod:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pod")),
		PrevPod:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("⇧tab", "previous pod")),
		Pods:      key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "pick a pod")),
		Summary:   key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "workload summary")),
		ZoomIn:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "zoom in")),
		ZoomOut:   key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "zoom out")),
		Left:      key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "earlier, or previous pod")),
		Right:     key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "later, or next pod")),
		Follow:    key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow now")),
		Next:      key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next milestone")),
		Prev:      key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "previous milestone")),
		PageUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Events:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "focus the Events")),
		Search:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		NextMatch: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
		PrevMatch: key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
		Accept:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "inspect a milestone, pick, end typing")),
		Cancel:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "end search, close")),
		Order:     key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "picker order")),
		Pause:     key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "play/pause")),
		Speed:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "cycle speed")),
		Speed1:    key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "speed 1×")),
		Speed2:    key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "speed 2×")),
		Speed10:   key.NewBinding(key.WithKeys("0"), key.WithHelp("0", "speed 10×")),
		SpeedMax:  key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "speed max")),
		Start:     key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "play from the start")),
		End:       key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "jump to end")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
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
	return []key.Binding{k.Help, k.Quit, k.Pause, k.Speed, k.Next, k.Down, k.NextPod, k.Pods, k.Search,
		k.ZoomIn, k.ZoomOut, k.Follow}
}

// FullHelp is the `?` screen, in columns: one per group of keyGroups.
func (k KeyMap) FullHelp() [][]key.Binding {
	groups := k.keyGroups()
	out := make([][]key.Binding, len(groups))
	for i, g := range groups {
		out[i] = g.keys
	}
	return out
}

// keyGroup is a column of the `?` screen and a line of README's keys section.
type keyGroup struct {
	title string
	keys  []key.Binding
}

// keyGroups are every binding, by what it acts on.
func (k KeyMap) keyGroups() []keyGroup {
	return []keyGroup{
		{"Lanes and pods", []key.Binding{k.Up, k.Down, k.NextPod, k.PrevPod, k.Pods, k.Summary}},
		{"Time axis", []key.Binding{k.ZoomIn, k.ZoomOut, k.Left, k.Right, k.Follow}},
		{"Tables", []key.Binding{k.Next, k.Prev, k.PageUp, k.PageDown, k.Events}},
		{"Search and picker", []key.Binding{k.Search, k.NextMatch, k.PrevMatch, k.Accept, k.Cancel, k.Order}},
		{"Replay", []key.Binding{k.Pause, k.Speed, k.Speed1, k.Speed2, k.Speed10, k.SpeedMax, k.Start, k.End}},
		{"General", []key.Binding{k.Help, k.Quit}},
	}
}

// withDesc is b with its help saying desc: a key as a sub-model uses it.
func withDesc(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// either is one binding for the keys of each of bs that is enabled, with the first's help: a
// sub-model's key that the root's key map spreads over several.
func either(bs ...key.Binding) key.Binding {
	var keys []string
	for _, b := range bs {
		if b.Enabled() {
			keys = append(keys, b.Keys()...)
		}
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(bs[0].Help().Key, bs[0].Help().Desc))
}
