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
	kept := keptMilestones(ms)
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
