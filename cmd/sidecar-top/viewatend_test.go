package main

import (
	"io"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/ui"
)

// viewAtEnd is the model `sidecar-top replay` runs, for the recording in f (named name) played
// to its end and drawn with styles, at size when it is given.
func viewAtEnd(t *testing.T, f io.Reader, name string, styles ui.Styles, size *tea.WindowSizeMsg) tea.Model {
	t.Helper()
	rd, err := recfile.NewReader(f, name, recfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	obs, err := readObservations(t.Context(), rd)
	if err != nil {
		t.Fatal(err)
	}
	r := play.NewReplay(obs, 1, false, 0)
	r.SetIdleLimit(defaultIdleLimit)
	r.SeekEnd()
	go r.Run(t.Context())
	h := rd.Header()
	var m tea.Model = ui.NewModel(replayConfig(r, h.Target, h.Namespace, styles))
	if size != nil {
		m, _ = m.Update(*size)
	}
	for fr := range r.Frames() {
		if fr.Replay.AtEnd && fr.Replay.Paused {
			m, _ = m.Update(ui.FrameMsg(fr))
			break
		}
	}
	return m
}
