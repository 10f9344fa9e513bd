package timeline_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// BenchmarkScopeFirstList: a scope's first list of 20,000 pods (made over 10 minutes), arriving
// in an order that is not their creation's (the API server's), then the first snapshot. Each
// pod was moved back into its place, a square of the pods; a pod far from it now has the list
// sorted at the snapshot instead (docs/performance.md, cluster scale).
func BenchmarkScopeFirstList(b *testing.B) {
	const n = 20000
	pods := make([]*timeline.PodObservation, n)
	r := rand.New(rand.NewPCG(1, 2))
	for i, k := range r.Perm(n) {
		name := fmt.Sprintf("p%05d", k)
		p := pod("uid-"+name, running("app", timeline.KindApp, float64(k)/30+1, false, "c-"+name))
		p.Name, p.Created = name, sec(float64(k)/30)
		pods[i] = p
	}
	b.ReportAllocs()
	for b.Loop() {
		bl := timeline.NewBuilder()
		for i, p := range pods {
			bl.Apply(timeline.Observation{Received: sec(700 + float64(i)/1000), Pod: p})
		}
		bl.Snapshot()
	}
}
