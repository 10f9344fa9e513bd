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
	pod := &early.Pods[0]
	pod.Milestones = pod.Milestones[:3]
	for i := range pod.Containers {
		c := &pod.Containers[i]
		c.Milestones = c.Milestones[:min(2, len(c.Milestones))]
	}
	p.Update(early)
	b.WriteString("--- update\n")
	p.Update(full)
	b.WriteString("--- again\n")
	p.Update(full)
	more := fixture()
	more.Notes = []string{"this machine's clock and the API server's disagree"}
	bo := &more.Pods[0].Containers[1].Milestones[7]
	if bo.Kind != timeline.MBackOff {
		t.Fatalf("fixture changed: milestone 7 of the sidecar is %s", bo.Kind)
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
