package watch

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// A Live with logs delivers a run's lines after the pod item that named the run, in the same
// stream, and what it could not use as a warning that does not stop it.
func TestLiveLogs(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), liveTimeout)
	defer cancel()
	pod := testPod("app", "app-uid", "2", nil)
	pod.Spec.NodeName = "n1"
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "app", ContainerID: "containerd://a1",
		State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(logT0)}}}}
	c := newFakeCluster(pod)
	c.PrependReactor("get", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "log" {
			return false, nil, nil
		}
		return true, &runtime.Unknown{Raw: []byte(stamp(1, "hello\n") + "garbage\n" + stamp(2, "caught SIGTERM"))}, nil
	})
	l := startLive(t, ctx, c, Target{Kind: TargetPod, Name: "app", Namespace: "ns"},
		LiveOptions{Logs: &LogOptions{Marks: mustMarks(t, "app:sigterm=SIGTERM")}, NodeLogs: &NodeLogOptions{}}, "pods", "events")

	type got struct {
		Kind  string
		Lines []LogLine
		End   bool
	}
	var items []got
	var warns []string
	for len(items) == 0 || !items[len(items)-1].End {
		it, err := l.Next(ctx)
		var werr *WatchError
		switch {
		case errors.As(err, &werr):
			warns = append(warns, err.Error())
			continue
		case err != nil:
			t.Fatalf("Next after %+v: %v", items, err)
		}
		g := got{Kind: it.Object.GetObjectKind().GroupVersionKind().Kind}
		if cl, ok := it.Object.(*ContainerLog); ok {
			g.Lines, g.End = cl.Lines, cl.End
			if o, ok := Observe(it); !ok || o.Log == nil || o.Log.ContainerID != "containerd://a1" || o.Type != timeline.Added {
				t.Errorf("observed %+v", o)
			}
		}
		items = append(items, g)
	}
	want := []got{{Kind: "Pod"}, {Kind: ContainerLogKind, End: true, Lines: []LogLine{
		{At: atMs(1), Len: 5}, {At: atMs(2), Len: 14, Mark: "sigterm", Text: "caught SIGTERM"}}}}
	if diff := cmp.Diff(items, want); diff != "" {
		t.Errorf("items (-got +want):\n%s", diff)
	}
	// The fake's node proxy cannot be asked: said, as the log line without a stamp is. Both may
	// come after the log's end.
	for len(warns) < 2 {
		_, err := l.Next(ctx)
		if err == nil {
			t.Fatal("an item after the log ended")
		}
		warns = append(warns, err.Error())
	}
	wantWarns := map[string]bool{
		"watching logs: pod app container app run 0: a log line without a timestamp, not used":      true,
		"watching the kubelet's log: node n1: not read: this client cannot make the node log query": true,
	}
	for _, w := range warns {
		if !wantWarns[w] {
			t.Errorf("warning %q; want those of %v", w, wantWarns)
		}
	}
}
