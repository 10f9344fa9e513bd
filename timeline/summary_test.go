package timeline_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// gapPod is a pod with the named gaps, each value ± the same bound.
func gapPod(name string, bound float64, gaps ...any) *timeline.Pod {
	p := &timeline.Pod{Name: name, UID: "uid-" + name}
	for i := 0; i < len(gaps); i += 2 {
		v := secs(gaps[i+1].(float64))
		p.Gaps = append(p.Gaps, timeline.Gap{Name: gaps[i].(string), Span: timeline.Span{Value: v, Min: v - secs(bound), Max: v + secs(bound)}})
	}
	return p
}

// TestSummarize: counts, nearest-rank percentiles of the estimates, each with the same rank of
// the lower and upper bounds, the slowest pods first, gaps in the pods' order, a pod lacking a
// gap counted for the others only.
func TestSummarize(t *testing.T) {
	var pods []*timeline.Pod
	for i := 1; i <= 10; i++ {
		pods = append(pods, gapPod(fmt.Sprintf("p%02d", i), 0.5, "a → b", float64(i), "b → c", 0.25))
	}
	pods[3].Gaps = pods[3].Gaps[:1]                                 // p04 has no b → c
	pods[6].Gaps[0].Span.Max = secs(30)                             // p07's upper bound is wide
	pods = append(pods, gapPod("z", 0, "x → y", 2.0, "a → b", 5.0)) // a tie with p05, and a third gap
	got := timeline.Summarize(timeline.Snapshot{Pods: timeline.SeqOf(pods...)})

	span := func(v, lo, hi float64) timeline.Span {
		return timeline.Span{Value: secs(v), Min: secs(lo), Max: secs(hi)}
	}
	pv := func(name string, v, lo, hi float64) timeline.PodValue {
		return timeline.PodValue{Pod: name, UID: "uid-" + name, Span: span(v, lo, hi)}
	}
	want := timeline.Summary{Pods: 11, Gaps: []timeline.GapSummary{
		{
			Name: "a → b", Count: 11,
			// estimates 1 2 3 4 5 5 6 7 8 9 10; lower bounds 0.5 1.5 ... 4.5 5 5.5 ...; upper bounds
			// 1.5 2.5 3.5 4.5 5 5.5 6.5 8.5 9.5 10.5 30.
			Min: span(1, 0.5, 1.5), P50: span(5, 5, 5.5), P90: span(9, 8.5, 10.5), Max: span(10, 9.5, 30),
			Values: []timeline.PodValue{
				pv("p10", 10, 9.5, 10.5), pv("p09", 9, 8.5, 9.5), pv("p08", 8, 7.5, 8.5), pv("p07", 7, 6.5, 30),
				pv("p06", 6, 5.5, 6.5), pv("p05", 5, 4.5, 5.5), pv("z", 5, 5, 5), pv("p04", 4, 3.5, 4.5),
				pv("p03", 3, 2.5, 3.5), pv("p02", 2, 1.5, 2.5), pv("p01", 1, 0.5, 1.5),
			},
		},
		{
			Name: "b → c", Count: 9,
			Min: span(0.25, -0.25, 0.75), P50: span(0.25, -0.25, 0.75), P90: span(0.25, -0.25, 0.75), Max: span(0.25, -0.25, 0.75),
			Values: []timeline.PodValue{
				pv("p01", 0.25, -0.25, 0.75), pv("p02", 0.25, -0.25, 0.75), pv("p03", 0.25, -0.25, 0.75),
				pv("p05", 0.25, -0.25, 0.75), pv("p06", 0.25, -0.25, 0.75), pv("p07", 0.25, -0.25, 0.75),
				pv("p08", 0.25, -0.25, 0.75), pv("p09", 0.25, -0.25, 0.75), pv("p10", 0.25, -0.25, 0.75),
			},
		},
		{Name: "x → y", Count: 1, Min: span(2, 2, 2), P50: span(2, 2, 2), P90: span(2, 2, 2), Max: span(2, 2, 2),
			Values: []timeline.PodValue{pv("z", 2, 2, 2)}},
	}}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("summary (-got +want):\n%s", diff)
	}
	if diff := cmp.Diff(timeline.Summarize(timeline.Snapshot{}), timeline.Summary{Gaps: []timeline.GapSummary{}}); diff != "" {
		t.Errorf("summary of nothing (-got +want):\n%s", diff)
	}
}

// TestSummaryRanks: the nearest rank of small counts: the median of an even count is its lower
// middle, p90 of fewer than ten values is the largest but one only from ten on.
func TestSummaryRanks(t *testing.T) {
	for n := 1; n <= 12; n++ {
		var pods []*timeline.Pod
		for i := 1; i <= n; i++ {
			pods = append(pods, gapPod(fmt.Sprintf("p%02d", i), 0, "g", float64(i)))
		}
		g := timeline.Summarize(timeline.Snapshot{Pods: timeline.SeqOf(pods...)}).Gaps[0]
		got := [4]time.Duration{g.Min.Value, g.P50.Value, g.P90.Value, g.Max.Value}
		p90 := (9*n + 9) / 10 // ⌈0.9 n⌉
		want := [4]time.Duration{secs(1), secs(float64((n + 1) / 2)), secs(float64(p90)), secs(float64(n))}
		if got != want {
			t.Errorf("%d values: min, p50, p90, max %v; want %v", n, got, want)
		}
	}
}

// checkSummarizer gives the Summarizer every snapshot and compares its summary with Summarize's
// at every every-th and the last; at the end, each summary compared with what it was when
// returned.
func checkSummarizer(t *testing.T, snaps []timeline.Snapshot, every int) {
	t.Helper()
	var z timeline.Summarizer
	var got, want []timeline.Summary
	for i, s := range snaps {
		g := z.Summary(s)
		if i%every != 0 && i != len(snaps)-1 {
			continue
		}
		w := timeline.Summarize(s)
		if !reflect.DeepEqual(g, w) { // cmp.Diff only to say how: a thousand pods' frames are many
			diff := cmp.Diff(g, w)
			t.Fatalf("snapshot %d: the Summarizer differs from Summarize (-got +want):\n%s", i, diff)
		}
		got, want = append(got, g), append(want, w)
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			diff := cmp.Diff(got[i], want[i])
			t.Fatalf("summary %d changed after it was returned (-now +then):\n%s", i, diff)
		}
	}
}

// TestSummarizerRecordings: a summary at each observation of every real recording is the one
// worked out from nothing.
func TestSummarizerRecordings(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			checkSummarizer(t, snapshotsOf(t, recordingItems(t, name, nil), 0), 1)
		})
	}
}

// TestSummarizerJob: the same over a synthetic Job of 1,000 pods, given a snapshot per 33 ms of
// recorded time as the player takes them, compared at every 20th.
func TestSummarizerJob(t *testing.T) {
	snaps := snapshotsOf(t, recordingItems(t, "job-native-sidecar", func(s []byte) ([]byte, error) { return synth.Pods(1000, s) }), 33*time.Millisecond)
	checkSummarizer(t, snaps, 20)
	last := timeline.Summarize(snaps[len(snaps)-1])
	if last.Pods != 1000 || len(last.Gaps) == 0 || last.Gaps[0].Count != 1000 {
		t.Errorf("final summary: %d pods, gaps %+v; want each gap of 1,000 pods", last.Pods, last.Gaps)
	}
}

// TestSummarizerRandom: pods come, change their gaps, lose some and go, at random, a few or
// many at once; the Summarizer follows.
func TestSummarizerRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 12))
	names := []string{"a → b", "b → c", "c → d", "d → e"}
	var snaps []timeline.Snapshot
	var pods []*timeline.Pod
	uids := 0
	for step := range 400 {
		n := 1 + r.IntN(3)
		if step%50 == 0 {
			n = 40 // many at once: sorted again from nothing
		}
		for range n {
			switch op := r.IntN(10); {
			case op < 4 || len(pods) == 0:
				p := &timeline.Pod{Name: fmt.Sprintf("p%d", r.IntN(60)), UID: fmt.Sprintf("u%d", uids)}
				uids++
				at := r.IntN(len(pods) + 1)
				pods = append(pods[:at], append([]*timeline.Pod{p}, pods[at:]...)...)
			case op < 9:
				i := r.IntN(len(pods))
				p := *pods[i]
				p.Gaps = nil
				for _, name := range names {
					if r.IntN(3) > 0 {
						v := time.Duration(r.IntN(5)) * time.Second // ties are common
						p.Gaps = append(p.Gaps, timeline.Gap{Name: name, Span: timeline.Span{Value: v, Min: v - time.Duration(r.IntN(3))*time.Second, Max: v + time.Duration(r.IntN(3))*time.Second}})
					}
				}
				r.Shuffle(len(p.Gaps), func(a, b int) { p.Gaps[a], p.Gaps[b] = p.Gaps[b], p.Gaps[a] })
				pods = append([]*timeline.Pod(nil), pods...)
				pods[i] = &p
			default:
				i := r.IntN(len(pods))
				pods = append(append([]*timeline.Pod(nil), pods[:i]...), pods[i+1:]...)
			}
		}
		snaps = append(snaps, timeline.Snapshot{Pods: timeline.SeqOf(pods...)})
		if step%7 == 0 {
			snaps = append(snaps, snaps[len(snaps)-1]) // the same snapshot again
		}
	}
	checkSummarizer(t, snaps, 1)
}

// snapshotsOf applies the items and takes a snapshot every frame of recorded time (every
// observation when frame is 0), and at the end.
func snapshotsOf(t testing.TB, items []watch.Item, frame time.Duration) []timeline.Snapshot {
	b := timeline.NewBuilder()
	var snaps []timeline.Snapshot
	var at time.Time
	for _, it := range items {
		o, ok := watch.Observe(it)
		if !ok {
			continue
		}
		if frame > 0 && o.Received.Sub(at) >= frame {
			snaps = append(snaps, b.Snapshot())
			at = o.Received
		}
		b.Apply(o)
		if frame == 0 {
			snaps = append(snaps, b.Snapshot())
		}
	}
	return append(snaps, b.Snapshot())
}

// BenchmarkSummary is the summary of a synthetic Job of 1,000 pods: worked out from nothing
// (per summary), kept by a Summarizer over every frame of the replay, a snapshot per 33 ms of
// recorded time (per frame), and kept after one pod changed (the steady live case).
func BenchmarkSummary(b *testing.B) {
	snaps := snapshotsOf(b, recordingItems(b, "job-native-sidecar", func(s []byte) ([]byte, error) { return synth.Pods(1000, s) }), 33*time.Millisecond)
	final := snaps[len(snaps)-1]
	b.Run("Summarize-1000", func(b *testing.B) {
		for b.Loop() {
			_ = timeline.Summarize(final)
		}
	})
	b.Run("Summarizer-frames", func(b *testing.B) {
		for b.Loop() {
			var z timeline.Summarizer
			for _, s := range snaps {
				_ = z.Summary(s)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(snaps)), "ns/frame")
	})
	b.Run("Summarizer-one-pod-changed", func(b *testing.B) {
		var z timeline.Summarizer
		z.Summary(final)
		changed := final
		pods := final.Pods.Slice()
		p := *pods[500]
		p.Gaps = append([]timeline.Gap(nil), p.Gaps...)
		p.Gaps[0].Span.Value += time.Millisecond
		pods[500] = &p
		changed.Pods = timeline.SeqOf(pods...)
		for i := 0; b.Loop(); i++ {
			if i%2 == 0 {
				_ = z.Summary(changed)
			} else {
				_ = z.Summary(final)
			}
		}
	})
}
