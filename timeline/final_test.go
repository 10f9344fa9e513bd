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
			for _, tc := range endCases(len(obs)) {
				t.Run(tc.name, func(t *testing.T) {
					b := buildTo(obs, tc.snapped)
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

// endCase is one way a run comes to its end: snapped is how many observations are applied when a
// Snapshot is taken before it (-1: none; all of them: nothing comes after the last snapshot).
type endCase struct {
	name    string
	snapped int
}

// endCases are the ways to the end of a run of n observations that Final and Stream must agree on.
func endCases(n int) []endCase {
	return []endCase{{"no snapshot before", -1}, {"a snapshot halfway", n / 2}, {"a snapshot at the end", n}}
}

// buildTo is a Builder that has applied obs, with a Snapshot taken once snapped of them were.
func buildTo(obs []timeline.Observation, snapped int) *timeline.Builder {
	b := timeline.NewBuilder()
	for i, o := range obs {
		if i == snapped {
			b.Snapshot()
		}
		b.Apply(o)
	}
	if snapped == len(obs) {
		b.Snapshot()
	}
	return b
}
