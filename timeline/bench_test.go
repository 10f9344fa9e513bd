package timeline_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	k8sruntime "k8s.io/apimachinery/pkg/runtime"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// BenchmarkSnapshotPerObservation is the worst case of the live path: every observation of a
// whole real recording is applied and a snapshot taken after it.
func BenchmarkSnapshotPerObservation(b *testing.B) {
	for _, name := range []string{"startup-probe", "crashing-sidecar"} {
		obs := watch.Observations(recordingItems(b, name, nil))
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

// BenchmarkLivePath is the live path on big synthetic recordings: each item (already decoded and
// slimmed, as the informers of a live view that does not record deliver them) is translated and applied, and a snapshot is taken once per 33 ms
// of recorded time, as the player does. The target is 100,000 observations a second. The crash
// loop runs at 100 and at 1,000 restarts: equal rates say the cost of an observation does not grow
// with the history behind it. The collector runs at the target a live run sets
// (play.LiveGCPercent), unless GOGC is set.
func BenchmarkLivePath(b *testing.B) {
	if _, set := os.LookupEnv("GOGC"); !set {
		defer debug.SetGCPercent(debug.SetGCPercent(play.LiveGCPercent))
	}
	for _, c := range []struct {
		name string
		src  string
		gen  func([]byte) ([]byte, error)
	}{
		{"restarts-100", "crashing-sidecar", func(s []byte) ([]byte, error) { return synth.Restarts(100, s) }},
		{"restarts-1000", "crashing-sidecar", func(s []byte) ([]byte, error) { return synth.Restarts(1000, s) }},
		// The loop as the shared gen_recording.py makes it, whose statuses contradict themselves
		// (see synth.Restarts): it takes paths a kubelet's loop does not.
		{"restarts-1000-as-shared", "crashing-sidecar", func(s []byte) ([]byte, error) { return synth.RestartsAsShared(1000, s) }},
		{"pods-1000", "job-native-sidecar", func(s []byte) ([]byte, error) { return synth.Pods(1000, s) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			items := recordingItems(b, c.src, c.gen)
			for i := range items {
				// What the informers of a live view that does not record deliver.
				items[i].Object = watch.Slim(items[i].Object).(k8sruntime.Object)
			}
			runtime.GC()
			cpu0 := cpuTime()
			for b.Loop() {
				bl := timeline.NewBuilder()
				var tr watch.Translator // as the player's engine translates
				var frame time.Time
				for _, it := range items {
					o, ok := tr.Observe(it)
					if !ok {
						continue
					}
					if o.Received.Sub(frame) >= 33*time.Millisecond {
						_ = bl.Snapshot()
						frame = o.Received
					}
					bl.Apply(o)
				}
				_ = bl.Snapshot()
			}
			b.ReportMetric(float64(b.N*len(items))/b.Elapsed().Seconds(), "observations/s")
			// On a busy machine the wall clock counts others' work too: the process's CPU time
			// (the garbage collector's included) says what the work itself cost.
			b.ReportMetric(float64(b.N*len(items))/(cpuTime()-cpu0).Seconds(), "observations/cpu-s")
		})
	}
}

// BenchmarkDeriveJobPod derives the pod of the real Job recording whole, as it is at the end
// (a native sidecar and an app, each run once, the pod row, the gaps): what one derivation of
// the live path costs at most for such a pod, in time and allocations, with little of the
// noise of the whole path.
func BenchmarkDeriveJobPod(b *testing.B) {
	bl := timeline.NewBuilder()
	for _, o := range watch.Observations(recordingItems(b, "job-native-sidecar", nil)) {
		bl.Apply(o)
	}
	if bl.Snapshot().Pods.Len() != 1 {
		b.Fatal("the Job recording should hold one pod")
	}
	b.ReportAllocs()
	for b.Loop() {
		bl.ChangeAll()
		_ = bl.Snapshot()
	}
}

// cpuTime is the CPU time the process has used, user and system, on all threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// recordingItems decodes an embedded recording, made bigger by gen if given.
func recordingItems(b testing.TB, name string, gen func([]byte) ([]byte, error)) []watch.Item {
	b.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		b.Fatal(err)
	}
	src, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	if gen != nil {
		if src, err = gen(src); err != nil {
			b.Fatal(err)
		}
	}
	rd, err := recfile.NewReader(bytes.NewReader(src), name, recfile.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var items []watch.Item
	for {
		it, err := rd.Next(context.Background())
		if err == io.EOF {
			return items
		}
		if err != nil {
			b.Fatal(fmt.Errorf("%s: %w", name, err))
		}
		items = append(items, it.Item)
	}
}

// BenchmarkDeriveJobPodUnchanged derives the pod of the real Job recording again with none of
// its facts changed, as a pod update that changes nothing the timeline shows has it derived (a
// thousand times in the live path of a 1,000-pod Job): what a derivation costs that only
// finds everything as it was.
func BenchmarkDeriveJobPodUnchanged(b *testing.B) {
	bl := timeline.NewBuilder()
	for _, o := range watch.Observations(recordingItems(b, "job-native-sidecar", nil)) {
		bl.Apply(o)
	}
	b.ReportAllocs()
	for b.Loop() {
		bl.Touch()
		_ = bl.Snapshot()
	}
}

// BenchmarkDeriveJobPodLastRun derives the pod of the real Job recording again with one lane's
// last run marked, the sidecar's or the app's: what most derivations of the live path are.
func BenchmarkDeriveJobPodLastRun(b *testing.B) {
	for i, lane := range []string{"sidecar", "app"} {
		b.Run(lane, func(b *testing.B) {
			bl := timeline.NewBuilder()
			for _, o := range watch.Observations(recordingItems(b, "job-native-sidecar", nil)) {
				bl.Apply(o)
			}
			b.ReportAllocs()
			for b.Loop() {
				bl.TouchLastRun(i)
				_ = bl.Snapshot()
			}
		})
	}
}
