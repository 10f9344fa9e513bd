package timeline_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestForget: a builder that saw every recording's pods and forgot some of them, midway, gives
// the timeline of a builder that never saw those, before and after what comes next.
func TestForget(t *testing.T) {
	var obs []timeline.Observation
	for _, name := range recordings.Names() {
		obs = append(obs, observationsOf(t, name)...)
	}
	all := timeline.NewBuilder()
	cut := len(obs) * 7 / 10
	for i, o := range obs[:cut] {
		all.Apply(o)
		if i%50 == 0 {
			all.Snapshot() // incremental state to forget from, as live
		}
	}
	s := all.Snapshot()
	gone, names := map[string]bool{}, map[string]bool{}
	var uids []string
	for i, p := range s.Pods.Items() {
		if i%2 == 0 { // every other pod, the first included
			gone[p.UID], names[p.Namespace+"/"+p.Name] = true, true
			uids = append(uids, p.UID)
		}
	}
	if len(uids) < 2 || len(uids) == s.Pods.Len() {
		t.Fatalf("forgetting %d of %d pods tests too little", len(uids), s.Pods.Len())
	}
	about := func(o timeline.Observation) bool {
		switch {
		case o.Pod != nil:
			return gone[o.Pod.UID]
		case o.Event != nil:
			return o.Event.InvolvedKind == "Pod" && (gone[o.Event.InvolvedUID] || o.Event.InvolvedUID == "" && names[o.Event.Namespace+"/"+o.Event.InvolvedName])
		case o.Log != nil:
			return gone[o.Log.PodUID]
		case o.Kubelet != nil:
			return gone[o.Kubelet.PodUID]
		}
		return false
	}
	never := timeline.NewBuilder()
	for _, o := range obs[:cut] {
		if !about(o) {
			never.Apply(o)
		}
	}
	all.Forget(uids...)
	if diff := cmp.Diff(dump(never.Snapshot()), dump(all.Snapshot())); diff != "" {
		t.Fatalf("after Forget (-never seen +forgotten):\n%s", diff)
	}
	for _, o := range obs[cut:] {
		if !about(o) {
			all.Apply(o)
			never.Apply(o)
		}
	}
	if diff := cmp.Diff(dump(never.Snapshot()), dump(all.Snapshot())); diff != "" {
		t.Errorf("after what came next (-never seen +forgotten):\n%s", diff)
	}
}
