package ui

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/play"
)

// BenchmarkFleetSortKey: a key that sorts a scope's table of 6,000 pods with a sidecar the
// other way (N), and the frame drawn after it, at 200×50: the view's own share of key → frame
// at cluster scale (docs/performance.md, cluster scale).
func BenchmarkFleetSortKey(b *testing.B) {
	obs := jobObservations(6000)
	_, s := build(obs)
	m := NewModel(Config{Target: "all namespaces", Mode: Live, Fleet: true, SidecarsOnly: true, Styles: plainStyles()})
	m = resize(m, 200, 50)
	next, _ := m.Update(FrameMsg(play.Frame{Snapshot: s, Now: obs[len(obs)-1].Received}))
	m = next.(Model)
	_ = m.View()
	b.Logf("%d pods", s.Pods.Len())
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		next, _ := m.Update(keyMsg("N"))
		m = next.(Model)
		_ = m.View()
	}
	reportCPU(b, cpu)
}
