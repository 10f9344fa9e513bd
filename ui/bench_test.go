package ui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// BenchmarkViewLarge draws one pod of 12 crash-looping lanes of about 500 milestones each at
// 200×60: "steady" is a frame whose pod did not change since the last (its rows, widths,
// segments and markers cached), "following" a live frame whose axis moved on, "cold" one whose
// pod is new to the view (nothing of it cached but what the pod keeps itself, its rows), and
// "changed" a new frame whose pod changed (a new *Pod: its rows are made again too).
func BenchmarkViewLarge(b *testing.B) {
	s := largePod()
	p := s.Pods.At(0)
	n := 0
	for _, c := range p.Containers {
		n += len(c.Milestones())
	}
	b.Logf("%d lanes, %d milestones, %d table rows", len(p.Containers), n, len(p.Rows()))
	for _, tc := range []struct {
		name   string
		styles Styles
		step   func(m *Model)
	}{
		{"steady/plain", plainStyles(), func(*Model) {}},
		{"steady/colour", colourStyles(), func(*Model) {}},
		{"following/colour", colourStyles(), func(m *Model) { m.now = m.now.Add(time.Second / 30) }},
		{"cold/colour", colourStyles(), func(m *Model) { clear(m.cache.pods) }},
		{"changed/colour", colourStyles(), changedPod},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := liveModel(s, p.LastSeen, p.UID, 200, 60, tc.styles)
			_ = m.View()
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				tc.step(&m)
				_ = m.View()
			}
			reportCPU(b, cpu)
		})
	}
}

func keyMsg(k string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)} }

// BenchmarkKeyWhileFramesArrive is the live view of one pod of a 1,000-pod Job while the Job's
// other pods change: each op takes a frame (a snapshot after 33 more observations, 1,000 a
// second at 30 frames a second), a key press, and draws the view: what stands between a key
// and the screen. The snapshots are taken beforehand, as the player does on its own goroutine.
func BenchmarkKeyWhileFramesArrive(b *testing.B) {
	obs := jobObservations(1000)
	const perFrame, frames = 33, 100
	held := perFrame * frames
	bl, s := build(obs[:len(obs)-held])
	snaps := make([]FrameMsg, 0, frames)
	for i := len(obs) - held; i < len(obs); i += perFrame {
		for _, o := range obs[i : i+perFrame] {
			bl.Apply(o)
		}
		snaps = append(snaps, FrameMsg{Snapshot: bl.Snapshot(), Now: obs[i+perFrame-1].Received})
	}
	watched := s.Pods.At(0)
	b.Logf("%d pods, %d observations, watching %s", s.Pods.Len(), len(obs), watched.Name)
	m := liveModel(s, obs[len(obs)-held-1].Received, watched.UID, 200, 60, plainStyles())
	_ = m.View()
	keys := []tea.KeyMsg{keyMsg("j"), keyMsg("n"), keyMsg("k"), keyMsg("p")}
	b.ReportAllocs()
	cpu := cpuTime()
	i := 0
	for b.Loop() {
		next, _ := m.Update(snaps[i%frames])
		next, _ = next.(Model).Update(keys[i%len(keys)])
		m = next.(Model)
		_ = m.View()
		i++
	}
	reportCPU(b, cpu)
}

// reportCPU reports the process's CPU time per op since cpu: the garbage collector's included.
func reportCPU(b *testing.B, cpu time.Duration) {
	if used := cpuTime() - cpu; used > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkViewManyContainers draws a pod of 10,000 containers at 200×60: a frame costs what
// the lanes shown cost ("steady"); a pod new to the view also measures its lanes once ("cold"),
// and a pod that changed is taken in as a new frame ("changed").
func BenchmarkViewManyContainers(b *testing.B) {
	s := fixture()
	p := jobPod()
	c := p.Containers[1]
	p.Containers = make([]timeline.Container, 10000)
	for i := range p.Containers {
		p.Containers[i] = c
		p.Containers[i].Name = fmt.Sprintf("c-%05d", i)
	}
	pods := s.Pods.Slice()
	pods[0] = p
	s.Pods = timeline.SeqOf(pods...)
	for _, tc := range []struct {
		name string
		step func(m *Model)
	}{
		{"steady", func(*Model) {}},
		{"cold", func(m *Model) { clear(m.cache.pods) }},
		{"changed", changedPod},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := liveModel(s, at(42), p.UID, 200, 60, colourStyles())
			_ = m.View()
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				tc.step(&m)
				_ = m.View()
			}
			reportCPU(b, cpu)
		})
	}
}

// changedPod gives m a frame in which its pod changed: the same pod as a new *timeline.Pod,
// with nothing derived yet.
func changedPod(m *Model) {
	s := m.snap
	pods := s.Pods.Slice()
	for i, p := range pods {
		if p.UID == m.view.pod {
			pods[i] = p.WithFindings(p.Findings())
		}
	}
	s.Pods = timeline.SeqOf(pods...)
	next, _ := m.Update(FrameMsg{Snapshot: s, Now: m.now})
	*m = next.(Model)
}

// BenchmarkKeyWithSnapshots is BenchmarkKeyWhileFramesArrive with the player's work done in
// the same op: 33 observations applied and a snapshot taken, then the frame, a key and the
// view. It is the latency of a key press when the player and the view share one core.
func BenchmarkKeyWithSnapshots(b *testing.B) {
	obs := jobObservations(1000)
	const perFrame, frames = 33, 300
	held := perFrame * frames
	start := func() (*timeline.Builder, Model) {
		bl, s := build(obs[:len(obs)-held])
		m := liveModel(s, obs[len(obs)-held-1].Received, s.Pods.At(0).UID, 200, 60, plainStyles())
		_ = m.View()
		return bl, m
	}
	bl, m := start()
	keys := []tea.KeyMsg{keyMsg("j"), keyMsg("n"), keyMsg("k"), keyMsg("p")}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i == frames {
			b.StopTimer()
			bl, m, i = nil, Model{}, 0
			bl, m = start()
			b.StartTimer()
		}
		at := len(obs) - held + i*perFrame
		for _, o := range obs[at : at+perFrame] {
			bl.Apply(o)
		}
		next, _ := m.Update(FrameMsg{Snapshot: bl.Snapshot(), Now: obs[at+perFrame-1].Received})
		next, _ = next.(Model).Update(keys[i%len(keys)])
		m = next.(Model)
		_ = m.View()
		i++
	}
}

// BenchmarkViewLongLoop is the live view of a sidecar that restarted 1,000 times (about 5,000
// milestones in one lane), at frames that each change the pod: every frame takes in a new
// snapshot, whose pod's rows, markers and segments are made again, and draws it. The snapshots
// are taken beforehand, as the player does on its own goroutine.
func BenchmarkViewLongLoop(b *testing.B) {
	sp := synthPod{namespace: "big", name: "crashy", uid: "uid-crashy", created: t0, containers: 1,
		restarts: 999, runFor: 20 * time.Second, backOff: 10 * time.Second}
	obs := sp.observations()
	const frames = 300
	bl, s := build(obs[:len(obs)-frames])
	snaps := make([]FrameMsg, 0, frames)
	for _, o := range obs[len(obs)-frames:] {
		bl.Apply(o)
		snaps = append(snaps, FrameMsg{Snapshot: bl.Snapshot(), Now: o.Received})
	}
	b.Logf("%d milestones", len(snaps[frames-1].Snapshot.Pods.At(0).Rows()))
	m := liveModel(s, obs[len(obs)-frames-1].Received, sp.uid, 200, 60, colourStyles())
	_ = m.View()
	b.ReportAllocs()
	cpu := cpuTime()
	i := 0
	for b.Loop() {
		next, _ := m.Update(snaps[i%frames])
		m = next.(Model)
		_ = m.View()
		i++
	}
	reportCPU(b, cpu)
}
