package timeline_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// widePod is the watch of one pod with a sidecar and n app containers, which start in ten
// batches (each with its Created and Started Events), become ready, and stop when the pod is
// deleted: a Job's worth of lanes in one pod.
func widePod(n int) []timeline.Observation {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("c%05d", i)
	}
	side := running("side", timeline.KindSidecar, 1, true, "side-1")
	statuses := make([]timeline.ContainerStatus, n)
	for i := range statuses {
		statuses[i] = timeline.ContainerStatus{Waiting: &timeline.Waiting{Reason: "ContainerCreating"}}
	}
	var obs []timeline.Observation
	podAt := func(at float64, typ timeline.WatchType, deletion *time.Time) {
		cs := make([]timeline.ContainerObservation, 0, n+1)
		cs = append(cs, side)
		for i, name := range names {
			st := statuses[i]
			cs = append(cs, timeline.ContainerObservation{Name: name, Kind: timeline.KindApp, Status: &st})
		}
		p := pod("u", cs...)
		grace := int64(30)
		p.Deletion, p.DeletionGrace = deletion, &grace
		obs = append(obs, timeline.Observation{Type: typ, Received: sec(at), Pod: p})
	}
	event := func(at float64, name, reason string) {
		obs = append(obs, timeline.Observation{Type: timeline.Added, Received: sec(at + 0.01), Event: &timeline.EventObservation{
			UID: name + reason, Namespace: "ns", Name: "p." + name + reason, InvolvedKind: "Pod", InvolvedName: "p",
			InvolvedUID: "u", Container: name, ContainerKind: timeline.KindApp, FieldPath: "spec.containers{" + name + "}",
			Reason: reason, Message: reason + " container " + name, Count: 1,
			First: sec(at).Truncate(time.Second), Last: sec(at).Truncate(time.Second)}})
	}
	podAt(0.5, timeline.Added, nil)
	for b := range 10 {
		at := float64(2 + b)
		for i := b * n / 10; i < (b+1)*n/10; i++ {
			event(at, names[i], "Created")
			event(at, names[i], "Started")
			id := "id-" + names[i]
			statuses[i] = timeline.ContainerStatus{ContainerID: id, Started: boolp(true),
				Running: &timeline.Running{ContainerID: id, StartedAt: sec(at).Truncate(time.Second)}}
		}
		podAt(at+0.5, timeline.Modified, nil)
	}
	for i := range statuses {
		statuses[i].Ready = true
	}
	podAt(20, timeline.Modified, nil)
	deletion := sec(60)
	podAt(30, timeline.Modified, &deletion)
	for _, name := range names {
		event(30, name, "Killing")
	}
	for i := range statuses {
		st := statuses[i].Running
		statuses[i] = timeline.ContainerStatus{ContainerID: st.ContainerID, Terminated: &timeline.Terminated{
			ContainerID: st.ContainerID, StartedAt: st.StartedAt, FinishedAt: sec(31).Truncate(time.Second)}}
	}
	podAt(32, timeline.Modified, &deletion)
	podAt(33, timeline.Deleted, &deletion)
	return obs
}

// BenchmarkWidePod is replay -o json's work on one pod of many containers: every observation
// applied, the final timeline derived, and the pod written as JSON. It should grow with the
// containers, not with their square (cmd/sidecar-top and scripts measure the whole tool).
func BenchmarkWidePod(b *testing.B) {
	for _, n := range []int{2500, 5000, 10000} {
		obs := widePod(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var w timeline.PodWriter
			var buf []byte
			for b.Loop() {
				tb := timeline.NewBuilder()
				for _, o := range obs {
					tb.Apply(o)
				}
				s := tb.Final()
				var err error
				if buf, err = w.AppendJSON(buf[:0], s.Pods.At(0)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestContainersPerPodLimit: a pod with more than MaxContainersPerPod containers (a recording
// can hold any number) has lanes for the first MaxContainersPerPod, and a note says so; one
// with exactly as many has them all, and no note.
func TestContainersPerPodLimit(t *testing.T) {
	for _, n := range []int{timeline.MaxContainersPerPod, timeline.MaxContainersPerPod + 1} {
		cs := make([]timeline.ContainerObservation, n)
		for i := range cs {
			cs[i] = running(fmt.Sprint("c", i), timeline.KindApp, 1, true, fmt.Sprint("id", i))
		}
		b := timeline.NewBuilder()
		b.Apply(timeline.Observation{Type: timeline.Added, Received: sec(1.5), Pod: pod("u", cs...)})
		s := b.Final()
		if got, want := len(s.Pods.At(0).Containers), min(n, timeline.MaxContainersPerPod); got != want {
			t.Errorf("%d containers: %d lanes, want %d", n, got, want)
		}
		note := fmt.Sprintf("has more than %d containers", timeline.MaxContainersPerPod)
		if got, want := hasNote(s, note), n > timeline.MaxContainersPerPod; got != want {
			t.Errorf("%d containers: notes %q", n, s.Notes)
		}
	}
}
