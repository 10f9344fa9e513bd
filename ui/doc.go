// Package ui draws a timeline.Snapshot in a terminal: a Bubble Tea Model that shows, live or
// from a recording, how the containers of a Pod start, become ready, are signalled and exit,
// and a Plain printer for output that is not a terminal.
//
// The Model holds what the user chose to look at and the latest frame the player (package
// play) handed out; it holds no builder. Frames reach it as messages (FrameMsg) that Listen
// reads from a channel. Everything the view draws is a pure function of the snapshot, the view
// state, the window size, the time the model was last told it is (a tick, or the replay
// playhead) and the Styles, so views are tested as golden text:
//
//	frames := make(chan play.Frame, 1)
//	styles := ui.NewStyles(ui.NewRenderer(os.Stdout, colorMode, os.Getenv("NO_COLOR")))
//	m := ui.NewModel(ui.Config{Target: "pod/sc-a", Namespace: "sc-a", Mode: ui.Live,
//		Frames: frames, Styles: styles})
//	go play.RunLive(ctx, src, play.Options{}, func(f play.Frame) { frames <- f })
//	_, err := tea.NewProgram(m, tea.WithAltScreen()).Run()
//
// A replay's frames come from a play.Replay, which the view steers (Config.Control).
//
// Without a terminal, a Plain printer prints each milestone once as it becomes known:
//
//	p := ui.NewPlain(os.Stdout)
//	for each frame { p.Update(f.Snapshot) }
//	p.Summary(final)
//
// # What the view costs
//
// A frame draws only what is visible: the lanes shown (at most 64, the rest reached by moving
// the selection), the markers and segments inside the time window (found by binary search), the
// table rows and Events shown. What a pod gives that does not depend on the window (the table's
// column widths, each lane's segments and markers, which times are placed) is kept per
// *timeline.Pod, which snapshots share while the pod does not change.
//
// # Text from the cluster
//
// Every string from the cluster or a recording (names, statuses, reasons, messages, Events,
// findings, notes, watch errors) goes through Safe before it is drawn or printed: control
// characters, escape sequences, bidi overrides and invisible characters are written as visible
// escapes such as \x1b and \u202e. Widths are measured in terminal cells, so East Asian wide
// names keep the lanes and columns aligned.
//
// # Times
//
// The axis starts at the pod's creation (or, if that is missing or absurd, when the pod was
// first seen) and places only times within a day of the pod's life: a milestone stamped 1970
// or 2099 is listed with its date, not placed, and the status line says so.
package ui
