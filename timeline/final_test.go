package timeline_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestFinal: the last snapshot, taken with Final, is the one Snapshot gives, whether or not
// snapshots were taken before it and whether or not something came since the last; asked again
// it is the same; and the Builder takes nothing after it.
func TestFinal(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			obs := watch.Observations(recordingItems(t, name, nil))
			want := timeline.NewBuilder()
			for _, o := range obs {
				want.Apply(o)
			}
			wantDump := dump(want.Snapshot())
			for _, tc := range []struct {
				name    string
				snapped int // observations applied when a Snapshot is taken before the end; -1: none
			}{{"no snapshot before", -1}, {"a snapshot halfway", len(obs) / 2}, {"a snapshot at the end", len(obs)}} {
				t.Run(tc.name, func(t *testing.T) {
					b := timeline.NewBuilder()
					for i, o := range obs {
						if i == tc.snapped {
							b.Snapshot()
						}
						b.Apply(o)
					}
					if tc.snapped == len(obs) {
						b.Snapshot()
					}
					if diff := cmp.Diff(wantDump, dump(b.Final())); diff != "" {
						t.Fatalf("Final differs from Snapshot (-Snapshot +Final):\n%s", diff)
					}
					if diff := cmp.Diff(wantDump, dump(b.Final())); diff != "" {
						t.Fatalf("Final asked again differs (-Snapshot +Final):\n%s", diff)
					}
					if diff := cmp.Diff(wantDump, dump(b.Snapshot())); diff != "" {
						t.Fatalf("Snapshot after Final differs (-want +got):\n%s", diff)
					}
					defer func() {
						if recover() == nil {
							t.Error("Apply after Final did not panic")
						}
					}()
					b.Apply(obs[0])
				})
			}
		})
	}
}
