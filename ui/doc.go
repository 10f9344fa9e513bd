// Package ui draws a timeline.Snapshot in a terminal: a Bubble Tea Model that shows, live or
// from a recording, how the containers of a Pod start, become ready, are signalled and exit,
// and a Plain printer for output that is not a terminal.
//
// The Model owns the timeline.Builder and touches it only in Update; outside events reach it
// as messages (ObservationsMsg, WatchErrorMsg, FeedEndedMsg) that Listen reads from a channel.
// Everything the view draws is a pure function of the snapshot, the view state, the window
// size, the time the model was last told it is (a tick, or the replay playhead) and the Styles,
// so views are tested as golden text.
//
// Live, the watch goroutine sends messages on a channel the model listens to:
//
//	msgs := make(chan tea.Msg)
//	styles := ui.NewStyles(ui.NewRenderer(os.Stdout, colorMode, os.Getenv("NO_COLOR")))
//	m := ui.NewModel(ui.Config{Target: "pod/sc-a", Namespace: "sc-a", Mode: ui.Live,
//		Feed: msgs, Styles: styles})
//	go func() { // the watch: never touches the model
//		msgs <- ui.ObservationsMsg{obs}
//		msgs <- ui.WatchErrorMsg{Err: err}
//	}()
//	_, err := tea.NewProgram(m, tea.WithAltScreen()).Run()
//
// A replay is given the whole recording and plays it on a virtual clock:
//
//	m := ui.NewModel(ui.Config{Target: target, Namespace: ns, Mode: ui.Replay,
//		Recording: observations, Speed: 1, Styles: styles})
//
// Without a terminal, a Plain printer prints each milestone once as it becomes known:
//
//	p := ui.NewPlain(os.Stdout)
//	for _, o := range observations {
//		b.Apply(o)
//		p.Update(b.Snapshot())
//	}
//	p.Summary(b.Snapshot())
package ui
