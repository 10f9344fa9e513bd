package timeline_test

import (
	"testing"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// BenchmarkSnapshotPerObservation is the live view's cost: every observation is applied and a
// new snapshot derived, over a whole real recording.
func BenchmarkSnapshotPerObservation(b *testing.B) {
	for _, name := range []string{"startup-probe", "crashing-sidecar"} {
		f, err := recordings.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		_, items, _, err := watch.ReadAll(f, name)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		obs := watch.Observations(items)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				bl := timeline.NewBuilder()
				for _, o := range obs {
					bl.Apply(o)
					_ = bl.Snapshot()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(obs)), "ns/observation")
		})
	}
}
