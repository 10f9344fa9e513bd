package ui

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// finalOf is the final timeline of an embedded recording, made bigger by gen if given.
func finalOf(t testing.TB, name string, gen func([]byte) ([]byte, error)) timeline.Snapshot {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	src, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if gen != nil {
		if src, err = gen(src); err != nil {
			t.Fatal(err)
		}
	}
	_, items, _, err := recfile.ReadAll(strings.NewReader(string(src)), name)
	if err != nil {
		t.Fatal(err)
	}
	b := timeline.NewBuilder()
	for _, o := range watch.Observations(items) {
		b.Apply(o)
	}
	return b.Snapshot()
}

// TestPlainWorkload: --summary's text for the real Job recordings (one pod each) and for a
// synthetic Job of 1,000 pods made from the native one, whose pods' bounds differ with where
// their whole seconds fall.
func TestPlainWorkload(t *testing.T) {
	for _, c := range []struct {
		name, src string
		gen       func([]byte) ([]byte, error)
	}{
		{"job-classic-sidecar", "job-classic-sidecar", nil},
		{"job-native-sidecar", "job-native-sidecar", nil},
		{"pods-1000", "job-native-sidecar", func(b []byte) ([]byte, error) { return synth.Pods(1000, b) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			p := NewPlain(&b)
			p.Workload(timeline.Summarize(finalOf(t, c.src, c.gen)))
			if err := p.Err(); err != nil {
				t.Fatal(err)
			}
			golden(t, b.String())
		})
	}
}

// TestStrip: each pod is a dot in the cell of its estimate between the smallest and the
// largest; a cell's glyph says how many pods are in it.
func TestStrip(t *testing.T) {
	var pods []*timeline.Pod
	add := func(n int, v time.Duration) {
		for range n {
			pods = append(pods, &timeline.Pod{Name: "p", UID: strings.Repeat("x", len(pods)+1),
				Gaps: []timeline.Gap{{Name: "g", Span: timeline.Span{Value: v, Min: v, Max: v}}}})
		}
	}
	add(12, time.Second)
	add(1, 1500*time.Millisecond)
	add(3, 3*time.Second)
	add(1, 11*time.Second)
	g := timeline.Summarize(timeline.Snapshot{Pods: timeline.SeqOf(pods...)}).Gaps[0]
	if diff := cmp.Diff(stripCounts(g, 11), []int{12, 1, 3, 0, 0, 0, 0, 0, 0, 0, 1}); diff != "" {
		t.Errorf("counts (-got +want):\n%s", diff)
	}
	if got, want := stripText(g, 11), "1.00s ●·•───────· 11.00s"; got != want {
		t.Errorf("strip %q; want %q", got, want)
	}
	one := timeline.Summarize(timeline.Snapshot{Pods: timeline.SeqOf(pods[:2]...)}).Gaps[0]
	if got, want := stripText(one, 5), "1.00s •──── 1.00s"; got != want {
		t.Errorf("strip of equal values %q; want %q", got, want)
	}
}
