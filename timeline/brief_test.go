package timeline_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestBriefIsTheWholePodsSummary: a Builder in brief mode, fed each real recording with a
// snapshot every few observations, holds at each snapshot a brief of every pod that says what the
// whole pod says of itself, its gaps, its findings and its lanes' last exits; and once asked for
// the pods whole again (Refresh), it derives them as a Builder that never went brief does: the
// derivation from facts alone, after the caches were let go, is the incremental one.
func TestBriefIsTheWholePodsSummary(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			obs := watch.Observations(recordingItems(t, name, nil))
			whole, brief := timeline.NewBuilder(), timeline.NewBuilder()
			wanted := ""
			brief.Brief(func(p *timeline.Pod) bool { return p.UID == wanted })
			for i, o := range obs {
				whole.Apply(o)
				brief.Apply(o)
				if i%7 == 0 || i == len(obs)-1 {
					compareBriefs(t, whole.Snapshot(), brief.Snapshot())
				}
			}
			s := brief.Snapshot()
			for _, p := range s.Pods.Items() {
				wanted = p.UID
				brief.Refresh(p.UID)
				got := podByUID(brief.Snapshot(), p.UID)
				if got == nil || got.Brief {
					t.Fatalf("pod %s: not derived whole after Refresh with keep true", p.Name)
				}
				w := podByUID(whole.Snapshot(), p.UID)
				if a, b := onlyPod(t, w), onlyPod(t, got); a != b {
					t.Errorf("pod %s derived whole again after its brief differs from the incremental derivation:\n%s\nwant\n%s", p.Name, b, a)
				}
			}
		})
	}
}

func compareBriefs(t *testing.T, whole, brief timeline.Snapshot) {
	t.Helper()
	if whole.Pods.Len() != brief.Pods.Len() {
		t.Fatalf("%d pods in brief mode, %d whole", brief.Pods.Len(), whole.Pods.Len())
	}
	for i, b := range brief.Pods.Items() {
		w := whole.Pods.At(i)
		if !b.Brief || b.Events.Len() != 0 || b.Milestones.Len() != 0 {
			t.Fatalf("pod %s: not a brief (Brief %v, %d Events, %d milestones)", b.Name, b.Brief, b.Events.Len(), b.Milestones.Len())
		}
		if b.UID != w.UID || b.Status != w.Status || b.Phase != w.Phase || b.Deleted != w.Deleted ||
			!reflect.DeepEqual(b.Gaps, w.Gaps) || !reflect.DeepEqual(b.Findings(), w.Findings()) {
			t.Fatalf("pod %s: the brief says %s %s %v gaps %v findings %v; whole: %s %s %v gaps %v findings %v", b.Name,
				b.Status, b.Phase, b.Deleted, b.Gaps, b.Findings(), w.Status, w.Phase, w.Deleted, w.Gaps, w.Findings())
		}
		for j := range w.Containers {
			wc, bc := &w.Containers[j], &b.Containers[j]
			if wc.Name != bc.Name || wc.Kind != bc.Kind || wc.RestartCount != bc.RestartCount || wc.State != bc.State {
				t.Fatalf("pod %s lane %d: brief %+v, whole %+v", b.Name, j, *bc, *wc)
			}
			n := wc.Runs.Len()
			if n == 0 {
				continue
			}
			last, blast := wc.Runs.At(n-1), bc.Runs.At(bc.Runs.Len()-1)
			if k := len(last.Changes); k > 0 && (len(blast.Changes) != 1 || blast.Changes[0] != last.Changes[k-1]) {
				t.Fatalf("pod %s lane %s: the brief's last run's changes %v, the whole pod's last %v", b.Name, wc.Name, blast.Changes, last.Changes[k-1])
			}
			we, be := wc.Find(timeline.MExit, last.Attempt), bc.Find(timeline.MExit, last.Attempt)
			if (we == nil) != (be == nil) || we != nil && (!we.At.Equal(be.At) || !we.Earliest.Equal(be.Earliest) ||
				!we.Latest.Equal(be.Latest) || we.Signal != be.Signal) {
				t.Fatalf("pod %s lane %s: the brief's last exit %v, the whole pod's %v", b.Name, wc.Name, be, we)
			}
		}
	}
}

func podByUID(s timeline.Snapshot, uid string) *timeline.Pod {
	for _, p := range s.Pods.Items() {
		if p.UID == uid {
			return p
		}
	}
	return nil
}

// onlyPod is the pod's dump and the evidence of its milestones, and its findings in JSON.
func onlyPod(t *testing.T, p *timeline.Pod) string {
	t.Helper()
	s := timeline.Snapshot{Pods: timeline.SeqOf(p)}
	f, err := json.Marshal(p.Findings())
	if err != nil {
		t.Fatal(err)
	}
	return dump(s) + dumpEvidence(t, s) + string(f)
}
