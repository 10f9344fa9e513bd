package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// summaryModel is a live model of s at its last observation, sized w×h, made with cfg.
func summaryModel(t testing.TB, s timeline.Snapshot, cfg Config, w, h int) Model {
	t.Helper()
	cfg.Target, cfg.Namespace, cfg.Styles = "job/sc-b1", "sc-b1", plainStyles()
	m := NewModel(cfg)
	next, _ := m.Update(FrameMsg{Snapshot: s, Now: latestSeen(s)})
	return resize(next.(Model), w, h)
}

// TestViewSummary: the summary view (open from the start, as --summary opens it) of the real
// native-sidecar Job and of a synthetic Job of 1,000 pods made from it, at three sizes.
func TestViewSummary(t *testing.T) {
	for _, c := range []struct {
		name string
		gen  func([]byte) ([]byte, error)
	}{
		{"job-native-sidecar", nil},
		{"pods-1000", func(b []byte) ([]byte, error) { return synth.Pods(1000, b) }},
	} {
		s := finalOf(t, "job-native-sidecar", c.gen)
		for _, sz := range [][2]int{{60, 18}, {80, 24}, {140, 40}} {
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, sz[0], sz[1]), func(t *testing.T) {
				golden(t, summaryModel(t, s, Config{Summary: true}, sz[0], sz[1]).View())
			})
		}
		t.Run(c.name+"/next-gap-120x30", func(t *testing.T) {
			golden(t, press(t, summaryModel(t, s, Config{Summary: true}, 120, 30), "right", "down").View())
		})
	}
}

// TestSummaryKeys: S opens the summary; → selects the next gap, ↓ the next slowest pod of it;
// enter shows that pod's lanes and closes the summary; S again closes it; P closes it for the
// picker.
func TestSummaryKeys(t *testing.T) {
	s := finalOf(t, "job-native-sidecar", func(b []byte) ([]byte, error) { return synth.Pods(20, b) })
	m := summaryModel(t, s, Config{}, 120, 40)
	if m.summary.open {
		t.Fatal("the summary is open without Config.Summary")
	}
	m = press(t, m, "S")
	if !m.summary.open || !strings.Contains(m.View(), "SUMMARY") {
		t.Fatalf("S did not open the summary:\n%s", m.View())
	}
	sum := timeline.Summarize(s)
	m = press(t, m, "right", "down", "down")
	g := sum.Gaps[1]
	want := summaryScreen{open: true, gap: g.Name, cursor: g.Values[2].UID}
	if diff := cmp.Diff(m.summary, want, cmp.AllowUnexported(summaryScreen{}), cmpopts.IgnoreFields(summaryScreen{}, "keys")); diff != "" {
		t.Errorf("after → ↓ ↓ (-got +want):\n%s", diff)
	}
	m = press(t, m, "enter")
	if m.summary.open || m.view.pod != g.Values[2].UID || m.view.autoPod {
		t.Errorf("enter: summary open %v, pod %q; want closed, showing %q", m.summary.open, m.view.pod, g.Values[2].UID)
	}
	m = press(t, m, "S", "left", "up", "S")
	if m.summary.open || m.summary.gap != sum.Gaps[0].Name {
		t.Errorf("S ← ↑ S: %+v; want closed on the first gap", m.summary)
	}
	m = press(t, m, "S", "P")
	if m.summary.open || !m.picker.open {
		t.Errorf("P in the summary: summary open %v, picker open %v; want the picker", m.summary.open, m.picker.open)
	}
}

// TestSummaryNoGap: a workload with no named gap says so.
func TestSummaryNoGap(t *testing.T) {
	m := summaryModel(t, finalOf(t, "job-classic-sidecar", nil), Config{Summary: true}, 80, 24)
	m = press(t, m, "down", "right", "enter")
	if v := m.View(); !strings.Contains(v, "no named gap yet") || !m.summary.open {
		t.Errorf("view:\n%s", v)
	}
}

// TestViewExplain: the milestone table's WHY column, with --explain at 120 columns and where it
// fits (160) without.
func TestViewExplain(t *testing.T) {
	s := finalOf(t, "startup-probe", nil)
	for _, c := range []struct {
		name    string
		explain bool
		w       int
	}{{"explain-120x40", true, 120}, {"fits-160x40", false, 160}, {"none-120x40", false, 120}} {
		t.Run(c.name, func(t *testing.T) {
			v := summaryModel(t, s, Config{Explain: c.explain}, c.w, 40).View()
			if got := strings.Contains(v, "WHY"); got != (c.name != "none-120x40") {
				t.Errorf("WHY column shown %v:\n%s", got, v)
			}
			golden(t, v)
		})
	}
}

// BenchmarkViewSummary draws the summary of a synthetic Job of 1,000 pods at 120×40: the same
// snapshot again (steady), and a snapshot in which one pod's gaps changed each frame (live).
func BenchmarkViewSummary(b *testing.B) {
	s := finalOf(b, "job-native-sidecar", func(src []byte) ([]byte, error) { return synth.Pods(1000, src) })
	m := summaryModel(b, s, Config{Summary: true}, 120, 40)
	m = press(b, m, "right")
	b.Run("steady", func(b *testing.B) {
		for b.Loop() {
			_ = m.View()
		}
	})
	b.Run("one-pod-changed", func(b *testing.B) {
		changed := s
		pods := s.Pods.Slice()
		p := *pods[500]
		p.Gaps = append([]timeline.Gap(nil), p.Gaps...)
		p.Gaps[1].Span.Value += 1e6
		pods[500] = &p
		changed.Pods = timeline.SeqOf(pods...)
		for i := 0; b.Loop(); i++ {
			snap := s
			if i%2 == 1 {
				snap = changed
			}
			next, _ := m.Update(FrameMsg{Snapshot: snap, Now: latestSeen(snap)})
			_ = next.(Model).View()
		}
	})
}
