package fleet

import (
	"fmt"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestShapeOfSpec: what an observation's containers say of a pod's shape is what its row says,
// for every mix of kinds.
func TestShapeOfSpec(t *testing.T) {
	kinds := []timeline.ContainerKind{timeline.KindInit, timeline.KindSidecar, timeline.KindApp, timeline.KindEphemeral}
	var mixes [][]timeline.ContainerKind
	var grow func(mix []timeline.ContainerKind)
	grow = func(mix []timeline.ContainerKind) {
		mixes = append(mixes, mix)
		if len(mix) < 3 {
			for _, k := range kinds {
				grow(append(append([]timeline.ContainerKind{}, mix...), k))
			}
		}
	}
	grow(nil)
	shapes := map[Shape]int{}
	for _, mix := range mixes {
		p := &timeline.PodObservation{UID: "u", Namespace: "ns", Name: "p", Created: time.Unix(0, 0)}
		for i, k := range mix {
			p.Containers = append(p.Containers, timeline.ContainerObservation{Name: fmt.Sprintf("c%d", i), Kind: k})
		}
		b := timeline.NewBuilder()
		b.Apply(timeline.Observation{Received: time.Unix(1, 0), Type: timeline.Added, Pod: p})
		row := RowOf(b.Snapshot().Pods.At(0), nil)
		if got := ShapeOfSpec(p); got != row.Shape {
			t.Errorf("%v: ShapeOfSpec %s, the row %s", mix, got, row.Shape)
		}
		if WithoutSidecar(p) != (row.Shape == NoSidecar) {
			t.Errorf("%v: WithoutSidecar %v, the row %s", mix, WithoutSidecar(p), row.Shape)
		}
		shapes[row.Shape]++
	}
	if len(shapes) != 3 {
		t.Fatalf("the mixes made shapes %v: want all three", shapes)
	}
}
