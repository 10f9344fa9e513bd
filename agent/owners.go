package agent

import (
	"github.com/sidecar-top/sidecar-top/fleet"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// OtherOwner is the owner label of a workload beyond the cap (--max-owners) in its namespace.
const OtherOwner = "other"

// owners labels a pod with its workload as users name it (fleet.OwnerOf: a Deployment rather
// than its ReplicaSet, a CronJob rather than its Job), bounding the distinct owner names per
// namespace: the first max names seen keep theirs, later ones are "other". A name once given
// keeps its label for the agent's life, so a series never changes owner. Off (names false),
// every owner label is "" and only the kind stays.
type owners struct {
	names bool
	max   int
	seen  map[string]map[fleet.Owner]struct{} // by namespace
}

func newOwners(names bool, max int) *owners {
	return &owners{names: names, max: max, seen: map[string]map[fleet.Owner]struct{}{}}
}

// label is the owner_kind and owner labels of a pod of namespace with controller ref.
func (o *owners) label(namespace string, ref *timeline.OwnerRef) (kind, name string) {
	w := fleet.OwnerOf(ref, nil)
	if !o.names || w.Name == "" {
		return w.Kind, ""
	}
	seen := o.seen[namespace]
	if seen == nil {
		seen = map[fleet.Owner]struct{}{}
		o.seen[namespace] = seen
	}
	if _, ok := seen[w]; ok {
		return w.Kind, w.Name
	}
	if len(seen) >= o.max {
		return w.Kind, OtherOwner
	}
	seen[w] = struct{}{}
	return w.Kind, w.Name
}
