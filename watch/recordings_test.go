package watch_test

// Tests of translation over the recordings: they read them with package recfile, which imports
// watch, so they are tests of the outside of package watch (export_test.go lends them what
// they check of its inside).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	"github.com/sidecar-top/sidecar-top/internal/fixture"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestSlimTranslatesAlike checks that translation reads nothing slim drops: every item of
// every embedded recording translates to the same observation whole and slimmed.
func TestSlimTranslatesAlike(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			f, err := recordings.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			_, items, _, err := recfile.ReadAll(f, name)
			if err != nil {
				t.Fatal(err)
			}
			for i, it := range items {
				whole, ok := watch.Observe(it)
				if !ok {
					continue
				}
				s, _ := watch.SlimTransform(it.Object.DeepCopyObject())
				it.Object = s.(runtime.Object)
				got, _ := watch.Observe(it)
				if diff := cmp.Diff(whole, got); diff != "" {
					t.Errorf("item %d (%T): slimmed object translates differently (-whole +slim):\n%s", i, it.Object, diff)
				}
			}
		})
	}
}

func TestTransformTwiceIsOnce(t *testing.T) {
	objects := []runtime.Object{fixture.RichPod(), &corev1.Event{}}
	for _, name := range recordings.Names() {
		f, err := recordings.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		_, items, _, err := recfile.ReadAll(f, name)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			objects = append(objects, it.Object)
		}
	}
	for name, transform := range map[string]cache.TransformFunc{"slim": watch.SlimTransform, "Sanitize": watch.Sanitize} {
		for i, obj := range objects {
			once, err := transform(obj.DeepCopyObject())
			if err != nil {
				t.Fatal(err)
			}
			twice, err := transform(once.(runtime.Object).DeepCopyObject())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(once, twice); diff != "" {
				t.Fatalf("%s of object %d (%T) changes its own output (-once +twice):\n%s", name, i, obj, diff)
			}
		}
	}
}

// TestPodStatusRecordings replays the real recordings and checks the STATUS column kubectl
// would have shown, as README.md in the recordings directory describes each run.
func TestPodStatusRecordings(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		// "Expected STATUS sequence (kubectl): Pending → Init:0/2 → Init:1/2 → PodInitializing →
		// Running → Completed/Terminating": deleted while Running, then Succeeded.
		{"startup-probe.jsonl", []string{"Pending", "Init:0/2", "Init:1/2", "PodInitializing", "Running", "Terminating", "Completed"}},
		// Main exits 0 while the sidecar still runs (phase Running) and is SIGKILLed 30 s later
		// (exit 137): the pod reads Completed throughout.
		{"job-native-sidecar.jsonl", []string{"Pending", "Init:0/1", "PodInitializing", "Running", "Completed"}},
		// "the pod is Running with Ready=False (kubectl STATUS NotReady). It never completes."
		{"job-classic-sidecar.jsonl", []string{"Pending", "ContainerCreating", "Running", "NotReady"}},
		// Deleted at 08:35:11.35 while Running, then Succeeded.
		{"termination-order.jsonl", []string{"Pending", "Init:0/1", "PodInitializing", "Running", "Terminating", "Completed"}},
		// "Between crashes the status shows terminated (Error, exit 1), switching to waiting:
		// CrashLoopBackOff only ~0.2 s before each restart": restarted at once the first time,
		// then after each back-off; the app keeps running.
		{"crashing-sidecar.jsonl", []string{"Pending", "Init:0/1", "PodInitializing", "Running",
			"Init:Error", "Running",
			"Init:Error", "Init:CrashLoopBackOff", "Running",
			"Init:Error", "Init:CrashLoopBackOff", "Running",
			"Init:Error", "Init:CrashLoopBackOff", "Running",
			"Init:Error"}},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.file, ".jsonl"), func(t *testing.T) {
			_, items := readRecording(t, filepath.Join("..", "recordings", tt.file))
			var got []string
			for _, it := range items {
				pod, ok := it.Object.(*corev1.Pod)
				if !ok {
					continue
				}
				if s := watch.PodStatus(pod); len(got) == 0 || got[len(got)-1] != s {
					got = append(got, s)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("STATUS sequence of %s mismatch (-want +got):\n%s", tt.file, diff)
			}
		})
	}
}

// readRecording reads a whole recording file, failing the test on any error.
func readRecording(t *testing.T, path string) (*recfile.Header, []watch.Item) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, items, _, err := recfile.ReadAll(f, filepath.Base(path))
	if err != nil {
		t.Fatalf("ReadAll(%s): %v", path, err)
	}
	return h, items
}
