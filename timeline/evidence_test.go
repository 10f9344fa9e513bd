package timeline

import "testing"

// TestKeptMilestones: a kept run's evidence is its own (the scratch written over afterwards
// leaves it as it was), each list capped, and a milestone with no evidence keeps none (nil, as
// JSON shows it: null).
func TestKeptMilestones(t *testing.T) {
	var d deriver
	ms := []Milestone{
		{Kind: MStart, Evidence: d.evidence(3, Evidence{What: "a"})},
		{Kind: MWaiting},
		{Kind: MExit, Evidence: d.evidence(1, Evidence{What: "b"})},
	}
	ms[0].Evidence = append(ms[0].Evidence, Evidence{What: "a2"})
	kept := keptMilestones(ms, nil, 0)
	for i := range d.ev {
		d.ev[i] = Evidence{What: "overwritten"}
	}
	if got := kept[0].Evidence; len(got) != 2 || cap(got) != 2 || got[0].What != "a" || got[1].What != "a2" {
		t.Errorf("start's evidence %+v (cap %d), want a, a2 (cap 2)", got, cap(got))
	}
	if kept[1].Evidence != nil {
		t.Errorf("waiting's evidence %+v, want nil", kept[1].Evidence)
	}
	if got := kept[2].Evidence; len(got) != 1 || cap(got) != 1 || got[0].What != "b" {
		t.Errorf("exit's evidence %+v (cap %d), want b (cap 1)", got, cap(got))
	}
	if ms[0].Evidence[0].What != "overwritten" {
		t.Fatal("the scratch was not where the milestones' evidence was: the test proves nothing")
	}
}

// TestKeptMilestonesSharesPrev: evidence equal to what the run derived last time holds for the
// milestone of that kind is that run's (the same list), and what differs is a copy of its own.
func TestKeptMilestonesSharesPrev(t *testing.T) {
	var d deriver
	prev := &Run{Milestones: keptMilestones([]Milestone{
		{Kind: MStart, Evidence: d.evidence(1, Evidence{What: "started"})},
		{Kind: MExit, Evidence: d.evidence(1, Evidence{What: "exit"})},
	}, nil, 0)}
	d.ev = d.ev[:0]
	ms := []Milestone{
		{Kind: MCreated, Evidence: d.evidence(1, Evidence{What: "created"})},  // new: a copy
		{Kind: MStart, Evidence: d.evidence(1, Evidence{What: "started"})},    // same, not at its index
		{Kind: MExit, Evidence: d.evidence(1, Evidence{What: "exit, later"})}, // changed: a copy
	}
	kept := keptMilestones(ms, prev, 0)
	if &kept[1].Evidence[0] != &prev.Milestones[0].Evidence[0] {
		t.Error("the start's evidence, the same as prev's, is not prev's list")
	}
	for _, i := range []int{0, 2} {
		if &kept[i].Evidence[0] == &ms[i].Evidence[0] || kept[i].Evidence[0] != ms[i].Evidence[0] {
			t.Errorf("milestone %d's evidence %+v is not a copy of %+v", i, kept[i].Evidence, ms[i].Evidence)
		}
	}
	if got := kept[2].Evidence[0].What; got != "exit, later" {
		t.Errorf("the exit's evidence is %q: prev's was taken for a different one", got)
	}
}
