package compare

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// final plays an embedded recording to its final timeline.
func final(t *testing.T, name string) timeline.Snapshot {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := source.Play(context.Background(), f, name)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Final
}

// TestEnds: the real Job with a native sidecar completes; the same Job with a classic sidecar
// never does (recordings/README.md). Paired or compared over all pods, diff says so, with the
// warning that explains it; between two that both completed it says nothing.
func TestEnds(t *testing.T) {
	native, classic := final(t, "job-native-sidecar"), final(t, "job-classic-sidecar")
	blocks := []timeline.FindingID{timeline.FindingClassicSidecarBlocks}
	job := EndChange{Object: "job", A: "sc-b1", B: "sc-b2",
		EndA: End{Ended: true, How: "Complete", At: &timeline.Span{}},
		EndB: End{How: "Running", Warnings: blocks}}
	for _, tt := range []struct {
		by   string
		want []EndChange
	}{
		{ByOrder, []EndChange{job, {Object: "pod", A: "sc-b1-69jc7", B: "sc-b2-5rf6w",
			EndA: End{Ended: true, How: "Succeeded", At: &timeline.Span{}},
			EndB: End{How: "NotReady", Warnings: blocks}}}},
		{ByGap, []EndChange{job, {Object: "pods",
			EndA: End{Ended: true, Pods: 1, EndedPods: 1},
			EndB: End{Pods: 1, Warnings: blocks}}}},
	} {
		d, err := Timelines("A", "B", native, classic, tt.by)
		if err != nil {
			t.Fatal(err)
		}
		// When each ended is the recording's to say; that it is there is what is checked here.
		for i := range d.Ends {
			if d.Ends[i].EndA.At != nil {
				d.Ends[i].EndA.At = &timeline.Span{}
			}
		}
		if diff := cmp.Diff(d.Ends, tt.want); diff != "" {
			t.Errorf("by %s: -got +want:\n%s", tt.by, diff)
		}
	}
	d, err := Timelines("A", "B", native, native, ByAuto)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Ends) != 0 || d.Differs() {
		t.Errorf("a recording against itself: ends %+v, differs %v", d.Ends, d.Differs())
	}
}

// TestEndOfPod: a pod deleted with no terminal phase seen ended, deleted.
func TestEndOfPod(t *testing.T) {
	p := &timeline.Pod{Name: "p", Status: "Terminating", Milestones: timeline.SeqOf(
		timeline.Milestone{Kind: timeline.MCreated},
		timeline.Milestone{Kind: timeline.MDeleted, Offset: span(2000, 1500, 2000)})}
	want := End{Ended: true, How: "deleted", At: spanPtr(2000, 1500, 2000)}
	if diff := cmp.Diff(endOfPod(p), want); diff != "" {
		t.Errorf("-got +want:\n%s", diff)
	}
}
