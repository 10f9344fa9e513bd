//go:build linux

package main

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/e2e/perf/perfproc"
)

// gate keeps the bulk pods Pending for good: the scheduler leaves a gated pod alone, so it never
// runs, makes no Events and costs the node nothing. (A spec.nodeName of a node that does not
// exist also keeps a pod from running, but the pod garbage collector deletes such pods about
// 40 s later, and the namespace would not stay big.)
const gate = "perf.sidecar-top.dev/never"

// populate makes n pods that never run and m Events about them, spread evenly, as fast as the
// API server takes them.
func populate(ctx context.Context, c kubernetes.Interface, ns string, n, m int) error {
	uids := make([]types.UID, n)
	err := perfproc.Parallel(ctx, 24, n, "pods", func(ctx context.Context, i int) error {
		p, err := c.CoreV1().Pods(ns).Create(ctx, bulkPod(i), metav1.CreateOptions{})
		if err != nil {
			return err
		}
		uids[i] = p.UID
		return nil
	})
	if err != nil || n == 0 {
		return err
	}
	base := time.Now().Add(-time.Hour)
	return perfproc.Parallel(ctx, 24, m, "events", func(ctx context.Context, i int) error {
		_, err := c.CoreV1().Events(ns).Create(ctx, bulkEvent(ns, i, n, uids[i%n], base), metav1.CreateOptions{})
		return err
	})
}

// bulkPod is an ordinary-looking pod of some other workload, gated so that it never runs.
func bulkPod(i int) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("bulk-%05d", i),
			Labels:      map[string]string{"app": "bulk", "tier": "batch", "bulk-index": fmt.Sprint(i)},
			Annotations: map[string]string{"example.com/owner": "team-data", "example.com/build": "2026-12-01T08:00:00Z"}},
		Spec: corev1.PodSpec{
			SchedulingGates:               []corev1.PodSchedulingGate{{Name: gate}},
			TerminationGracePeriodSeconds: ptr(int64(1)),
			Containers: []corev1.Container{{
				Name: "worker", Image: "docker.io/library/busybox:1.35", ImagePullPolicy: corev1.PullNever,
				Command: []string{"sh", "-c", "exec sleep 3600"},
				Env: []corev1.EnvVar{{Name: "MODE", Value: "batch"}, {Name: "SHARD", Value: fmt.Sprint(i % 64)},
					{Name: "ENDPOINT", Value: "https://queue.example.com:8443/v1/jobs"}},
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
					corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: resource.MustParse("16Mi")}},
			}},
		},
	}
}

var reasons = []struct{ reason, message string }{
	{"Scheduled", "Successfully assigned %s/%s to node-%d"},
	{"Pulled", `Container image "docker.io/library/busybox:1.35" already present on machine and can be accessed by the pod`},
	{"Created", "Created container: worker"},
	{"Started", "Started container worker"},
}

// bulkEvent is the i-th Event, about pod i%n, as a kubelet or scheduler writes one.
func bulkEvent(ns string, i, n int, uid types.UID, base time.Time) *corev1.Event {
	pod := fmt.Sprintf("bulk-%05d", i%n)
	r := reasons[(i/n)%len(reasons)]
	msg := r.message
	if r.reason == "Scheduled" {
		msg = fmt.Sprintf(msg, ns, pod, i%7)
	}
	at := base.Add(time.Duration(i) * time.Millisecond)
	ref := corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: pod, UID: uid, APIVersion: "v1", ResourceVersion: "1"}
	if r.reason != "Scheduled" {
		ref.FieldPath = "spec.containers{worker}"
	}
	return &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: fmt.Sprintf("%s.%x", pod, at.UnixNano())},
		InvolvedObject: ref, Reason: r.reason, Message: msg, Type: corev1.EventTypeNormal,
		Source:         corev1.EventSource{Component: "kubelet", Host: fmt.Sprintf("node-%d", i%7)},
		FirstTimestamp: metav1.NewTime(at), LastTimestamp: metav1.NewTime(at), Count: 1,
		ReportingController: "kubelet", ReportingInstance: fmt.Sprintf("node-%d", i%7),
	}
}

func ptr[T any](v T) *T { return &v }
