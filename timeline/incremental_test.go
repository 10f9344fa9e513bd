package timeline_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestSnapshotsAreIncremental: a snapshot taken after every observation, re-deriving only what
// changed, ends in exactly the timeline derived once from everything; and no snapshot is changed
// by what comes after it.
func TestSnapshotsAreIncremental(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			f, err := recordings.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			_, items, _, err := watch.ReadAll(f, name)
			if err != nil {
				t.Fatal(err)
			}
			obs := watch.Observations(items)
			once := timeline.NewBuilder()
			for _, o := range obs {
				once.Apply(o)
			}
			b := timeline.NewBuilder()
			var snaps []timeline.Snapshot
			var dumps []string
			for _, o := range obs {
				b.Apply(o)
				s := b.Snapshot()
				snaps, dumps = append(snaps, s), append(dumps, dump(s))
			}
			if diff := cmp.Diff(dump(once.Snapshot()), dumps[len(dumps)-1]); diff != "" {
				t.Errorf("snapshot per observation differs from one snapshot at the end (-once +incremental):\n%s", diff)
			}
			for i, s := range snaps {
				if diff := cmp.Diff(dumps[i], dump(s)); diff != "" {
					t.Fatalf("snapshot %d changed after it was taken (-then +now):\n%s", i, diff)
				}
			}
		})
	}
}
