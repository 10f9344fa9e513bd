package ui

import (
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestPlain prints the fixture as it grows: first the job's pod half way, then everything,
// then a later count of an Event; each milestone is printed once (a new count again).
func TestPlain(t *testing.T) {
	var b strings.Builder
	p := NewPlain(&b)

	full := fixture()
	early := fixture()
	early.Pods = early.Pods[:1]
	early.Jobs = nil
	pod := early.Pods[0]
	pod.Milestones = timeline.SeqOf(pod.Milestones.Slice()[:3]...)
	for i := range pod.Containers {
		c := &pod.Containers[i]
		ms := c.Milestones()
		*c = fixtureLane(timeline.Container{Name: c.Name, Kind: c.Kind, State: c.State}, pod.Created, ms[:min(2, len(ms))], nil)
	}
	p.Update(early)
	b.WriteString("--- update\n")
	p.Update(full)
	b.WriteString("--- again\n")
	p.Update(full)
	more := fixture()
	more.Notes = []string{"this machine's clock and the API server's disagree"}
	bo := more.Pods[0].Containers[1].Find(timeline.MBackOff, 1)
	if bo == nil {
		t.Fatalf("fixture changed: the sidecar has no back-off #1")
	}
	bo.Count = 3
	b.WriteString("--- back-off again\n")
	p.Update(more)
	b.WriteString("--- summary\n")
	p.Summary(more)
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	golden(t, b.String())
}
