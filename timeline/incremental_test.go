package timeline_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestSnapshotsAreIncremental: a snapshot taken after every observation, re-deriving only what
// changed, is exactly the timeline derived once from the observations up to it; and no snapshot
// is changed by what comes after it.
//
// The crash loop also runs at 80 restarts, so that its lanes' runs fill several of the blocks
// snapshots share (timeline.Seq), and its runs change far back as well as at the end.
func TestSnapshotsAreIncremental(t *testing.T) {
	type source struct{ name, recording string }
	sources := []source{{"crashing-sidecar-80-restarts", "crashing-sidecar"}}
	for _, name := range recordings.Names() {
		sources = append(sources, source{name, name})
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			var items []watch.Item
			if src.name != src.recording {
				items = recordingItems(t, src.recording, func(b []byte) ([]byte, error) { return synth.Restarts(80, b) })
			} else {
				f, err := recordings.Open(src.name)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if _, items, _, err = watch.ReadAll(f, src.name); err != nil {
					t.Fatal(err)
				}
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
			// And each snapshot (every few, to bound the time) is the timeline derived once from
			// the observations up to it: nothing an earlier snapshot derived is left stale.
			for i := 0; i < len(obs); i += 1 + len(obs)/150 {
				fresh := timeline.NewBuilder()
				for _, o := range obs[:i+1] {
					fresh.Apply(o)
				}
				if diff := cmp.Diff(dump(fresh.Snapshot()), dumps[i]); diff != "" {
					t.Fatalf("snapshot %d differs from one derived once from the same observations (-once +incremental):\n%s", i, diff)
				}
			}
		})
	}
}
