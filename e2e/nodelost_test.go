//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// lostNode is node-lost.yaml's Node, which no kubelet runs for.
const lostNode = "e2e-lost-node"

// TestNodeLost (issue 43): a pod bound to a Node with no kubelet, its status written through
// pods/status as a kubelet would (s1 and the app running and ready), then its Node deleted. The
// API tells nothing more of the pod for the 8 s recorded after (the pod garbage collector acts
// only once the node has been gone 40 s, then marks the pod Failed with a DisruptionTarget
// condition and deletes it at once: watch/nodelost_test.go replays a real recording of that):
// the tool shows the starts and readiness as written, and invents no exit, signal or deletion.
// There is no runtime here, so no log stamp: the truth is what the test wrote, and when.
func TestNodeLost(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	r, err := env.NewRun(ctx, "node-lost", "lost")
	if err != nil {
		t.Fatal(err)
	}
	keep(t, r)
	t.Cleanup(func() { // before keep's Close: a pod on no node is never gone by itself
		_, _ = r.Kubectl(t.Context(), "delete", "pod", "lost", "--grace-period=0", "--force", "--ignore-not-found")
		_, _ = r.Kubectl(t.Context(), "delete", "node", lostNode, "--ignore-not-found")
	})
	if err := r.StartRecord(ctx, "pod/lost", "--timeout", "20s"); err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(ctx, "node-lost"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // the runs' startedAt, whole seconds, after the pod's creation
	written := time.Now().UTC()
	s1At, appAt := written.Add(-time.Second).Truncate(time.Second), written.Truncate(time.Second)
	if _, err := r.Kubectl(ctx, "patch", "pod", "lost", "--subresource=status", "--type=merge", "-p", runningStatus(written, s1At, appAt)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	gone := [2]time.Time{time.Now()}
	if _, err := r.Kubectl(ctx, "delete", "node", lostNode); err != nil {
		t.Fatal(err)
	}
	gone[1] = time.Now()
	t.Logf("node %s deleted in [%s, %s]", lostNode, clock(gone[0]), clock(gone[1]))
	// --timeout with no --until: status 0. Finish fails on a run with no container log after it
	// has replayed the recording; here nothing ran, and no log is right.
	if err := r.Finish(ctx, 0, time.Minute); err != nil && (r.WithLogs == nil || len(r.Truth.Runs) > 0) {
		t.Fatal(err)
	}
	checkInvariants(t, r.Timeline)
	p := onePod(t, r)
	if p.Node != lostNode || p.Phase != "Running" || p.Deleted {
		t.Errorf("the pod on %q, phase %s, deleted %v: want on %s, Running, as the API left it", p.Node, p.Phase, p.Deleted, lostNode)
	}
	for c, at := range map[string]time.Time{"s1": s1At, "app": appAt} {
		if m := want(t, p, c, timeline.MStart, 0); m != nil && (at.Before(m.Earliest) || m.Latest.Before(at)) {
			t.Errorf("%s's start %s does not hold the startedAt written, %s", c, describe(m), clock(at))
		}
		want(t, p, c, timeline.MReady, 0)
		for _, k := range []timeline.MilestoneKind{timeline.MSigterm, timeline.MExit, timeline.MRestart, timeline.MNotReady} {
			none(t, p, c, k)
		}
	}
	want(t, p, "s1", timeline.MStarted, 0)
	want(t, p, "", timeline.MReady, 0)
	for _, k := range []timeline.MilestoneKind{timeline.MDisruption, timeline.MDeleting, timeline.MDeleted, timeline.MPhase, timeline.MNotReady} {
		none(t, p, "", k)
	}
	if last := p.LastSeen; last.After(gone[0]) {
		t.Errorf("the pod was seen again at %s, after its node was deleted (%s): the API told something new", clock(last), clock(gone[0]))
	}
}

// runningStatus is the pods/status patch a kubelet would write of node-lost.yaml's pod with s1
// and the app running (since s1At, appAt) and ready, written at now.
func runningStatus(now, s1At, appAt time.Time) string {
	ts := func(t time.Time) string { return t.Format(time.RFC3339) }
	cond := func(typ string) string {
		return fmt.Sprintf(`{"type":%q,"status":"True","lastTransitionTime":%q}`, typ, ts(now))
	}
	ctr := func(name string, at time.Time) string {
		return fmt.Sprintf(`{"name":%q,"image":"docker.io/library/busybox:1.35","imageID":"","containerID":"containerd://lost-%s",`+
			`"ready":true,"started":true,"restartCount":0,"state":{"running":{"startedAt":%q}}}`, name, name, ts(at))
	}
	conds := []string{cond("PodScheduled"), cond("Initialized"), cond("ContainersReady"), cond("Ready")}
	return fmt.Sprintf(`{"status":{"phase":"Running","startTime":%q,"conditions":[%s],"initContainerStatuses":[%s],"containerStatuses":[%s]}}`,
		ts(now), strings.Join(conds, ","), ctr("s1", s1At), ctr("app", appAt))
}
