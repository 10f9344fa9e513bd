package timeline_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// gatedPod is a pod with readiness gate example.com/lb: the app ready first, the sidecar last
// (ready at +3), and the gate's condition gate ("" for none yet); Ready as the kubelet words it.
func gatedPod(sideReady bool, gate string, ready timeline.Condition) *timeline.PodObservation {
	side := running("side", timeline.KindSidecar, 1, sideReady, "1")
	side.RestartPolicy = "Always"
	p := pod("a", side, running("app", timeline.KindApp, 1, true, "2"))
	p.ReadinessGates = []string{"example.com/lb"}
	ready.Type = "Ready"
	p.Conditions = []timeline.Condition{ready}
	if sideReady {
		p.Conditions = append(p.Conditions, timeline.Condition{Type: "ContainersReady", Status: "True", LastTransition: sec(3)})
	}
	if gate != "" {
		p.Conditions = append(p.Conditions, timeline.Condition{Type: "example.com/lb", Status: gate, LastTransition: sec(6)})
	}
	return p
}

var (
	notReadyContainers = timeline.Condition{Status: "False", Reason: "ContainersNotReady", LastTransition: sec(0)}
	notReadyGates      = timeline.Condition{Status: "False", Reason: "ReadinessGatesNotReady", LastTransition: sec(0),
		Message: `corresponding condition of pod readiness gate "example.com/lb" does not exist.`}
	readyTrue = timeline.Condition{Status: "True", LastTransition: sec(6)}
)

// gatedBuilder has the pod held by its sidecar (+2.1), then by its gate (+3.5), then Ready once
// the gate's condition is True (+6.5), as far as steps of those go.
func gatedBuilder(steps int) *timeline.Builder {
	b := timeline.NewBuilder()
	obs := []struct {
		at float64
		p  *timeline.PodObservation
	}{
		{2.1, gatedPod(false, "", notReadyContainers)},
		{3.5, gatedPod(true, "", notReadyGates)},
		{6.5, gatedPod(true, "True", readyTrue)},
	}
	for i, o := range obs[:steps] {
		typ := timeline.Modified
		if i == 0 {
			typ = timeline.Added
		}
		apply(b, o.at, timeline.Observation{Type: typ, Pod: o.p})
	}
	return b
}

func findingsOf(p *timeline.Pod, id timeline.FindingID) []timeline.Finding {
	var out []timeline.Finding
	for _, f := range p.Findings() {
		if f.ID == id {
			out = append(out, f)
		}
	}
	return out
}

// TestReadinessGatePodRow: the pod row says which gate holds the pod once every container is
// ready, placed when the status said so, and its Ready then says it waited for the gate.
func TestReadinessGatePodRow(t *testing.T) {
	p := gatedBuilder(3).Snapshot().Pods.At(0)
	var held, ready *timeline.Milestone
	for _, m := range p.Milestones.All() {
		switch m.Kind {
		case timeline.MNotReady:
			held = m
		case timeline.MReady:
			ready = m
		}
	}
	if held == nil || held.Detail() != "readiness gate example.com/lb not True" {
		t.Fatalf("pod row not-ready %+v: want one naming the gate", held)
	}
	if !held.Latest.Equal(sec(3.5)) || !held.Earliest.Equal(sec(2.1)) {
		t.Errorf("held in [%s, %s], want between the statuses before and with it", held.Earliest.Sub(t0), held.Latest.Sub(t0))
	}
	if ready == nil || !strings.Contains(ready.Why, "example.com/lb") {
		t.Errorf("Ready %+v: want its why to name the gate", ready)
	}
}

// TestReadinessGateNotSidecar: the sidecar became ready last, but the Pod's Ready waited for the
// gate: no sidecar is blamed, and the gate is named, while it holds and after.
func TestReadinessGateNotSidecar(t *testing.T) {
	for _, steps := range []int{2, 3} {
		p := gatedBuilder(steps).Snapshot().Pods.At(0)
		for _, id := range []timeline.FindingID{timeline.FindingReadinessHeld, timeline.FindingSidecarNotReady} {
			if fs := findingsOf(p, id); len(fs) > 0 {
				t.Errorf("after %d statuses: %s blames the sidecar: %+v", steps, id, fs)
			}
		}
		fs := findingsOf(p, timeline.FindingReadinessGateHeld)
		if len(fs) != 1 || !strings.Contains(fs[0].Text, "example.com/lb") || fs[0].Container != "" {
			t.Errorf("after %d statuses: %+v, want one finding naming the gate", steps, p.Findings())
		}
	}
}

// TestReadinessGateAndSidecarNotReady: a sidecar not ready while the gate is not True either does
// not hold the pod alone.
func TestReadinessGateAndSidecarNotReady(t *testing.T) {
	b := timeline.NewBuilder()
	apply(b, 2.1, timeline.Observation{Type: timeline.Added, Pod: gatedPod(false, "False", notReadyContainers)})
	p := b.Snapshot().Pods.At(0)
	if fs := findingsOf(p, timeline.FindingSidecarNotReady); len(fs) > 0 {
		t.Errorf("the pod is not Ready only because of the sidecar, says %+v", fs)
	}
}

// TestNoReadinessGateSidecarBlamed: without the gate, the sidecar that became ready last is what
// Ready waited for, as before.
func TestNoReadinessGateSidecarBlamed(t *testing.T) {
	b := timeline.NewBuilder()
	for i, o := range []*timeline.PodObservation{gatedPod(false, "", notReadyContainers), gatedPod(true, "", readyTrue)} {
		o.ReadinessGates = nil
		typ := timeline.Modified
		if i == 0 {
			typ = timeline.Added
		}
		apply(b, 2.1+float64(i)*4, timeline.Observation{Type: typ, Pod: o})
	}
	p := b.Snapshot().Pods.At(0)
	if len(findingsOf(p, timeline.FindingReadinessHeld)) != 1 || len(findingsOf(p, timeline.FindingReadinessGateHeld)) != 0 {
		t.Errorf("findings %+v: want the sidecar's, no gate's", p.Findings())
	}
}

// TestReadinessGateIncremental: the pod row and findings derived a status at a time (the row's
// Ready changes added to it as they come) are those derived once from all of them.
func TestReadinessGateIncremental(t *testing.T) {
	steps := gatedBuilder(0)
	obs := []*timeline.PodObservation{gatedPod(false, "", notReadyContainers), gatedPod(true, "", notReadyGates),
		gatedPod(true, "", notReadyGates), gatedPod(true, "True", readyTrue)}
	once := timeline.NewBuilder()
	for i, p := range obs {
		typ := timeline.Modified
		if i == 0 {
			typ = timeline.Added
		}
		apply(steps, 2.1+float64(i), timeline.Observation{Type: typ, Pod: p})
		steps.Snapshot()
		apply(once, 2.1+float64(i), timeline.Observation{Type: typ, Pod: p})
	}
	a, b := steps.Snapshot().Pods.At(0), once.Snapshot().Pods.At(0)
	row := func(p *timeline.Pod) []timeline.Milestone {
		var out []timeline.Milestone
		for _, m := range p.Milestones.All() {
			out = append(out, *m)
		}
		return out
	}
	if diff := cmp.Diff(row(b), row(a)); diff != "" {
		t.Errorf("pod row a status at a time differs from once (-once +steps):\n%s", diff)
	}
	if diff := cmp.Diff(b.Findings(), a.Findings()); diff != "" {
		t.Errorf("findings differ (-once +steps):\n%s", diff)
	}
}
