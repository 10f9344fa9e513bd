package fleet

import (
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// exitAt is a container's exit of its first run, known to lie in [lo, hi] seconds after t0.
func exitAt(container string, t0 time.Time, lo, at, hi float64, signal string) *timeline.Run {
	s := func(x float64) time.Time { return t0.Add(time.Duration(x * float64(time.Second))) }
	return &timeline.Run{Milestones: []timeline.Milestone{{Kind: timeline.MExit, Container: container,
		Earliest: s(lo), At: s(at), Latest: s(hi), Signal: signal}}}
}

// TestAppExitToSidecarExitKilled: when the grace period ran out, the kubelet killed the app
// (SIGKILL) and signalled the sidecar at once, and the sidecar's exit came first. Seen on the e2e
// cluster (TestFleet, drain-killed): the app's exit in [41.0, 42.0] s, the sidecar's in
// [41.0, 42.5] s, and containerd's stamps 170 ms apart, the sidecar's first. A span cut at zero
// missed that truth; in the kubelet's order (an app that exits on its SIGTERM) it is cut there.
func TestAppExitToSidecarExitKilled(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)
	pod := func(appSignal string) *timeline.Pod {
		return &timeline.Pod{Containers: []timeline.Container{
			{Name: "proxy", Kind: timeline.KindSidecar, Runs: timeline.SeqOf(exitAt("proxy", t0, 41, 41.75, 42.5, ""))},
			{Name: "app", Kind: timeline.KindApp, Runs: timeline.SeqOf(exitAt("app", t0, 41, 41.5, 42, appSignal))},
		}}
	}
	truth := -170 * time.Millisecond
	s, ok := appExitToSidecarExit(pod("SIGKILL"))
	if !ok || s.Min > truth || s.Max < truth || s.Value < s.Min || s.Value > s.Max {
		t.Errorf("app killed at the deadline: %+v (ok %v), want bounds that hold %v", s, ok, truth)
	}
	s, ok = appExitToSidecarExit(pod(""))
	if !ok || s.Min != 0 || s.Max != 1500*time.Millisecond || s.Value != 250*time.Millisecond {
		t.Errorf("app exited on its SIGTERM: %+v (ok %v), want 0.25 s in [0, 1.5 s]: the sidecar is signalled after", s, ok)
	}
}
