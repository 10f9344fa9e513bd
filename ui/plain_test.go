package ui

import (
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestPlain prints the fixture as it grows: first the job's pod half way, its lines up to 2 s
// before the time given; then everything, up to 2 s before 13 s, then again; then a later count
// of an Event; then the rest. Each milestone is printed once (a new count again), in the order of
// their estimates within what was known when printed.
func TestPlain(t *testing.T) {
	var b strings.Builder
	p := NewPlain(&b)

	full := fixture()
	early := fixture()
	early.Pods = timeline.SeqOf(early.Pods.Slice()[:1]...)
	early.Jobs = nil
	pod := early.Pods.At(0)
	pod.Milestones = timeline.SeqOf(pod.Milestones.Slice()[:3]...)
	for i := range pod.Containers {
		c := &pod.Containers[i]
		ms := c.Milestones()
		*c = fixtureLane(timeline.Container{Name: c.Name, Kind: c.Kind, State: c.State}, pod.Created, ms[:min(2, len(ms))], nil)
	}
	p.Update(early)
	p.Advance(at(4.45)) // up to +2.45 s
	b.WriteString("--- update\n")
	p.Update(full)
	p.Advance(at(13))
	b.WriteString("--- again\n")
	p.Update(full)
	p.Advance(at(13))
	more := fixture()
	more.Notes = []string{"this machine's clock and the API server's disagree"}
	bo := more.Pods.At(0).Containers[1].Find(timeline.MBackOff, 1)
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
