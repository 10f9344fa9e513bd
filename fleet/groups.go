package fleet

import (
	"cmp"
	"slices"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Group is the pods of one workload in one namespace: the pods an Owner owns there, or the
// namespace's pods of their own (Owner's Kind "").
type Group struct {
	Namespace string
	Owner     Owner
	Pods      []*timeline.Pod
}

// Key names the group among a scope's: NAMESPACE/KIND/NAME.
func (g Group) Key() string { return g.Namespace + "/" + g.Owner.Kind + "/" + g.Owner.Name }

// String is the group as a title says it, "shop: Deployment/web" or "shop: pods of their own";
// cluster text, to be made safe where it is written.
func (g Group) String() string {
	if g.Owner.Kind == "" {
		return g.Namespace + ": pods of their own"
	}
	return g.Namespace + ": " + g.Owner.String()
}

// Groups are the pods of the rows Of made last, by workload: ordered by namespace, then owner
// kind and name, the pods of their own last in their namespace; each group's pods in the
// snapshot's order.
func (rs *Rows) Groups() []Group {
	byKey := map[string]int{}
	var out []Group
	for p, r := range rs.pods() {
		g := Group{Namespace: r.Namespace, Owner: r.Owner}
		i, ok := byKey[g.Key()]
		if !ok {
			i = len(out)
			byKey[g.Key()] = i
			out = append(out, g)
		}
		out[i].Pods = append(out[i].Pods, p)
	}
	slices.SortFunc(out, func(a, b Group) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), boolInt(a.Owner.Kind == "")-boolInt(b.Owner.Kind == ""),
			cmp.Compare(a.Owner.Kind, b.Owner.Kind), cmp.Compare(a.Owner.Name, b.Owner.Name))
	})
	return out
}

// GroupKey is the key of the group of the row of uid among the rows Of made last; "" when no
// row has it.
func (rs *Rows) GroupKey(uid string) string {
	for _, r := range rs.last {
		if r.UID == uid {
			return Group{Namespace: r.Namespace, Owner: r.Owner}.Key()
		}
	}
	return ""
}

// pods yields the pods of the last rows with their rows, in the snapshot's order.
func (rs *Rows) pods() func(yield func(*timeline.Pod, *Row) bool) {
	return func(yield func(*timeline.Pod, *Row) bool) {
		for i, p := range rs.order {
			if !yield(p, rs.last[i]) {
				return
			}
		}
	}
}
