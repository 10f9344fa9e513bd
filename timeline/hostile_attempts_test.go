package timeline_test

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// observationsOf is an embedded recording's observations, as the replay reads them.
func observationsOf(t testing.TB, name string) []timeline.Observation {
	t.Helper()
	return watch.Observations(itemsOf(t, name))
}

// itemsOf is an embedded recording's items, as the reader reads them.
func itemsOf(t testing.TB, name string) []watch.Item {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, items, _, err := recfile.ReadAll(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// withRestartCounts is obs with the restart count of container name's status set by count, from
// the index of the status among those of the container (0 for the first).
func withRestartCounts(obs []timeline.Observation, name string, count func(i int) int32) []timeline.Observation {
	out := slices.Clone(obs)
	n := 0
	for k, o := range out {
		if o.Pod == nil {
			continue
		}
		p := *o.Pod
		p.Containers = slices.Clone(p.Containers)
		for i := range p.Containers {
			c := &p.Containers[i]
			if c.Name != name || c.Status == nil {
				continue
			}
			st := *c.Status
			st.RestartCount = count(n)
			n++
			c.Status = &st
		}
		out[k].Pod = &p
	}
	return out
}

// checkAttempts fails for a restart count above timeline.MaxRestartCount, and for an attempt
// that no run can have: below zero, or the largest int32 (there is no attempt after it).
func checkAttempts(t *testing.T, s timeline.Snapshot) {
	t.Helper()
	for _, p := range s.Pods.Items() {
		for _, c := range p.Containers {
			if c.RestartCount < 0 || c.RestartCount > timeline.MaxRestartCount {
				t.Errorf("%s: restart count %d", c.Name, c.RestartCount)
			}
			for _, r := range c.Runs.Items() {
				for _, m := range r.Milestones {
					if m.Attempt < 0 || m.Attempt == math.MaxInt32 || m.Attempt != r.Attempt {
						t.Errorf("%s %s: attempt %d in run %d", c.Name, m.Kind, m.Attempt, r.Attempt)
					}
				}
			}
		}
	}
}

// TestRestartCountFlapsToInt32Max: a sidecar whose restart count is 2147483647 in one Pod
// update and 0 in the next (the largest count the API's int32 holds, then none) is derived
// without a panic, at every update and at the end alike, its runs in time order; the count is
// read as MaxRestartCount and a note says so. (A mark for "no run to derive again" that was also an attempt number had the
// lane's derivation skipped, and the next one cut its caches out of range.)
func TestRestartCountFlapsToInt32Max(t *testing.T) {
	base := observationsOf(t, "crashing-sidecar")
	for _, tc := range []struct {
		name  string
		count func(i int) int32
	}{
		{"max then zero", func(i int) int32 { return [...]int32{math.MaxInt32, 0}[i%2] }},
		{"zero then max", func(i int) int32 { return [...]int32{0, math.MaxInt32}[i%2] }},
		{"max always", func(int) int32 { return math.MaxInt32 }},
		{"max-1 and max", func(i int) int32 { return math.MaxInt32 - int32(i%2) }},
		{"count+max", func(i int) int32 { return int32(min(i/2, 3)) + math.MaxInt32 - 3 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obs := withRestartCounts(base, "sidecar", tc.count)
			if err := checkStream(obs); err != nil {
				t.Fatal(err)
			}
			b := timeline.NewBuilder()
			for _, o := range obs {
				b.Apply(o)
			}
			s := b.Final()
			checkAttempts(t, s)
			note := fmt.Sprintf("a restart count above %d was read as %d", timeline.MaxRestartCount, timeline.MaxRestartCount)
			if !slices.ContainsFunc(s.Notes, func(n string) bool { return strings.Contains(n, note) }) {
				t.Errorf("notes %q: none says %q", s.Notes, note)
			}
		})
	}
}

// TestHugeRestartCountsCostNoMore: a lane whose runs are numbered near 2^31 costs what the same
// lane numbered from zero does: nothing is kept per attempt number.
func TestHugeRestartCountsCostNoMore(t *testing.T) {
	base := observationsOf(t, "crashing-sidecar")
	build := func(obs []timeline.Observation) func() {
		return func() {
			b := timeline.NewBuilder()
			for _, o := range obs {
				b.Apply(o)
				b.Snapshot()
			}
		}
	}
	var counts []int32
	for _, o := range base {
		if o.Pod != nil {
			for _, c := range o.Pod.Containers {
				if c.Name == "sidecar" && c.Status != nil {
					counts = append(counts, c.Status.RestartCount)
				}
			}
		}
	}
	shift := timeline.MaxRestartCount - slices.Max(counts)
	low := build(base)
	high := build(withRestartCounts(base, "sidecar", func(i int) int32 { return counts[i] + shift }))
	bytes := func(f func()) uint64 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	lo, hi := bytes(low), bytes(high)
	if hi > 2*lo+1<<20 {
		t.Errorf("runs numbered from %d allocated %d bytes, from 0 %d", shift, hi, lo)
	}
}
