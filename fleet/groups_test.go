package fleet

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestGroups: a Job's pods are one group, named by the Job, whose summary is the summary of
// those pods; a pod of its own is a group of the namespace's pods of their own; GroupKey finds a
// row's group.
func TestGroups(t *testing.T) {
	s := final(t, "job-native-sidecar")
	var rs Rows
	rows := rs.Of(s, nil)
	groups := rs.Groups()
	if len(groups) != 1 || groups[0].Owner.Kind != "Job" || len(groups[0].Pods) != s.Pods.Len() {
		t.Fatalf("groups %+v of %d pods, want one Job's", groups, s.Pods.Len())
	}
	g := groups[0]
	if got := rs.GroupKey(rows[0].UID); got != g.Key() {
		t.Errorf("GroupKey(%s) = %q, want %q", rows[0].UID, got, g.Key())
	}
	if got := rs.GroupKey("no-such-uid"); got != "" {
		t.Errorf("GroupKey of an unknown UID = %q", got)
	}
	if diff := cmp.Diff(timeline.Summarize(s), timeline.SummarizePods(g.Pods)); diff != "" {
		t.Errorf("the Job's group summary differs from the summary of every pod, which are the Job's (-all +group):\n%s", diff)
	}
	if want := g.Namespace + ": Job/" + g.Owner.Name; g.String() != want {
		t.Errorf("String() = %q, want %q", g.String(), want)
	}

	var own Rows
	own.Of(final(t, "startup-probe"), nil)
	og := own.Groups()
	if len(og) != 1 || og[0].Owner.Kind != "" || og[0].String() != og[0].Namespace+": pods of their own" {
		t.Errorf("a pod of its own: groups %+v", og)
	}
}
