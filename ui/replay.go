package ui

import (
	"fmt"

	"github.com/sidecar-top/sidecar-top/play"
)

func speedLabel(speed float64) string {
	if speed == play.SpeedMax {
		return "max"
	}
	return fmt.Sprintf("%g×", speed)
}

// step asks the replay for the next (dir > 0) or previous moment a milestone of the selected pod
// or its job became known.
func (m *Model) step(dir int) {
	f := m.frameView()
	var uids []string
	if p := f.pod(); p != nil {
		uids = append(uids, p.UID)
		if j := f.jobOf(p); j != nil {
			uids = append(uids, j.UID)
		}
	}
	m.cfg.Control.Step(dir, uids...)
}
