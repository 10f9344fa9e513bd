package ui

import (
	"fmt"
	"testing"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// readRecording translates an embedded real recording, as replay does.
func readRecording(t *testing.T, name string) []timeline.Observation {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, items, _, err := recfile.ReadAll(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return watch.Observations(items)
}

// TestViewRecordings: each real recording replayed to its end, drawn at two sizes.
func TestViewRecordings(t *testing.T) {
	for _, name := range recordings.Names() {
		obs := readRecording(t, name)
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, sz[0], sz[1]), func(t *testing.T) {
				r := play.NewReplay(obs, play.SpeedMax, false, 0)
				r.SeekEnd()
				go r.Run(t.Context())
				m := NewModel(Config{Target: name, Mode: Replay, Control: r, Styles: plainStyles()})
				m = resize(m, sz[0], sz[1])
				for f := range r.Frames() {
					if f.Replay.AtEnd && f.Replay.Paused {
						next, _ := m.Update(FrameMsg(f))
						m = next.(Model)
						break
					}
				}
				golden(t, m.View())
			})
		}
	}
}
