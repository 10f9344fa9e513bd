package ui

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// BenchmarkPicker draws the pod picker over a Job of 1,000 pods at 200×60: "steady" is a frame
// whose snapshot did not change (the list and its widths kept), "key" a cursor move and a frame,
// "filter" a frame after the filter changed (the list made again from the pods' kept facts),
// "frames" a frame of a new snapshot in which 33 pods changed (1,000 observations a second at 30
// frames a second; only those looked at again), and "cold" one with nothing kept at all.
func BenchmarkPicker(b *testing.B) {
	s := manyJobPods(1000)
	snaps := make([]timeline.Snapshot, 30)
	for i := range snaps {
		next := s
		pods := s.Pods.Slice()
		for j := range 33 {
			k := (i*33 + j) % len(pods)
			p := *pods[k]
			p.Status = []string{"Running", "Completed", "Error"}[(i+j)%3]
			pods[k] = &p
		}
		next.Pods = timeline.SeqOf(pods...)
		snaps[i] = next
	}
	filters := [][]string{{"/", "0", "4", "enter"}, {"/", "backspace", "backspace", "enter"}}
	for _, tc := range []struct {
		name string
		step func(m *Model, i int)
	}{
		{"steady", func(*Model, int) {}},
		{"key", func(m *Model, i int) { *m = press(b, *m, []string{"down", "up"}[i%2]) }},
		{"filter", func(m *Model, i int) { *m = press(b, *m, filters[i%2]...); *m = press(b, *m, "P") }},
		{"frames", func(m *Model, i int) {
			next, _ := m.Update(FrameMsg{Snapshot: snaps[i%len(snaps)], Now: m.now})
			*m = next.(Model)
		}},
		{"cold", func(m *Model, _ int) { m.memo = newNavMemo() }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := liveModel(s, at(42), s.Pods.At(500).UID, 200, 60, plainStyles())
			m = press(b, m, "P")
			_ = m.View()
			b.ReportAllocs()
			cpu := cpuTime()
			i := 0
			for b.Loop() {
				tc.step(&m, i)
				_ = m.View()
				i++
			}
			reportCPU(b, cpu)
		})
	}
}
