package play

import (
	"context"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// held is a live source of observations that then waits, as a quiet watch does.
type held struct{ obs []timeline.Observation }

func (h *held) Next(ctx context.Context) (Input, error) {
	if len(h.obs) == 0 {
		<-ctx.Done()
		return Input{}, ctx.Err()
	}
	o := h.obs[0]
	h.obs = h.obs[1:]
	return Input{Time: o.Received, Type: o.Type, Translated: true, IsObs: true, Obs: o}, nil
}

func (h *held) Observe(in Input) (timeline.Observation, bool) { return in.Obs, in.IsObs }

// TestRunLiveBriefFollowsFocus: a live scope in brief mode shows a pod with findings as its
// brief, findings kept; when the view opens it (Focus.Set) the next frame, made at once, has it whole, and when
// the view goes back to the table the pod is a brief again.
func TestRunLiveBriefFollowsFocus(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	focus := NewFocus()
	frames := make(chan Frame, 100)
	go func() {
		_, _ = RunLive(ctx, &held{obs: recording()[:6]}, Options{Brief: focus, Frame: 10 * time.Millisecond}, func(f Frame) { frames <- f })
	}()
	wait := func(what string, ok func(p *timeline.Pod) bool) {
		t.Helper()
		for {
			select {
			case f := <-frames:
				if f.Snapshot.Pods.Len() == 1 && ok(f.Snapshot.Pods.At(0)) {
					return
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("no frame with the pod %s", what)
			}
		}
	}
	wait("as its brief", func(p *timeline.Pod) bool { return p.Brief && p.Milestones.Len() == 0 && len(p.Findings()) == 1 })
	focus.Set("uid-web")
	wait("whole", func(p *timeline.Pod) bool { return !p.Brief && p.Milestones.Len() > 0 && len(p.Findings()) == 1 })
	focus.Set("")
	wait("as its brief", func(p *timeline.Pod) bool { return p.Brief && p.Milestones.Len() == 0 })
}
