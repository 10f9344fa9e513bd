//go:build linux

package main

import (
	"context"
	"fmt"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/e2e/perf/perfproc"
)

// shape is where pod i lives and what it is: every sidecarEvery-th pod has a native sidecar.
type shape struct {
	namespaces   int // the pods are spread over this many, in contiguous blocks
	total        int // the most pods of the run, which fixes each pod's namespace
	sidecarEvery int
}

func (s shape) namespace(i int) string { return s.namespaceN(i * s.namespaces / s.total) }

// namespaceN is the benchmark's n-th namespace.
func (s shape) namespaceN(n int) string { return fmt.Sprintf("scale-%d", n) }
func (s shape) name(i int) string {
	return fmt.Sprintf("s%d-%05d", i*s.namespaces/s.total, i) // names sort as the indexes do
}
func (s shape) native(i int) bool { return i%s.sidecarEvery == 0 }

// grow makes pods from..to-1, each bound to the node with its status written through
// pods/status as a kubelet would report a running pod, then perPod Events about each.
func grow(ctx context.Context, c kubernetes.Interface, s shape, from, to, perPod int) error {
	uids, created := make([]types.UID, to-from), make([]time.Time, to-from)
	err := perfproc.Parallel(ctx, 32, to-from, "pods", func(ctx context.Context, k int) error {
		i := from + k
		p, err := c.CoreV1().Pods(s.namespace(i)).Create(ctx, boundPod(s, i), metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			return nil // left by a run with -keep, with its status and Events (uids[k] stays "")
		}
		if err != nil {
			return err
		}
		uids[k], created[k] = p.UID, p.CreationTimestamp.Time
		p.Status = runningStatus(s, i, p.CreationTimestamp.Time)
		_, err = c.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return err
	}
	return perfproc.Parallel(ctx, 32, (to-from)*perPod, "events", func(ctx context.Context, k int) error {
		i := from + k/perPod
		if uids[k/perPod] == "" {
			return nil // a pod kept from an earlier run has its Events
		}
		_, err := c.CoreV1().Events(s.namespace(i)).Create(ctx, podEvent(s, i, k%perPod, uids[k/perPod], created[k/perPod]), metav1.CreateOptions{})
		return err
	})
}

// boundPod is pod i, already bound to the node (spec.nodeName), tolerating the node's taints so
// that nothing evicts it while the node has no kubelet.
func boundPod(s shape, i int) *corev1.Pod {
	app := corev1.Container{Name: "app", Image: "docker.io/library/busybox:1.35",
		Command: []string{"sh", "-c", "exec sleep 36000"},
		Env:     []corev1.EnvVar{{Name: "SHARD", Value: fmt.Sprint(i % 64)}, {Name: "ENDPOINT", Value: "https://queue.example.com:8443/v1"}},
		Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse("1m"), corev1.ResourceMemory: resource.MustParse("1Mi")}},
		ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}}}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: s.name(i), Namespace: s.namespace(i),
			Labels:      map[string]string{"app": "scale", "shard": fmt.Sprint(i % 64)},
			Annotations: map[string]string{"example.com/owner": "team-scale"}},
		Spec: corev1.PodSpec{NodeName: nodeName, Containers: []corev1.Container{app},
			Tolerations:                   []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
			TerminationGracePeriodSeconds: ptr(int64(1))},
	}
	if s.native(i) {
		always := corev1.ContainerRestartPolicyAlways
		proxy := app
		proxy.Name, proxy.RestartPolicy = "proxy", &always
		proxy.Command = []string{"sh", "-c", "exec sleep 36000"}
		p.Spec.InitContainers = []corev1.Container{proxy}
	}
	return p
}

// runningStatus is what a kubelet reports of pod i running since a few seconds after created.
func runningStatus(s shape, i int, created time.Time) corev1.PodStatus {
	at := func(sec int) metav1.Time { return metav1.NewTime(created.Add(time.Duration(sec) * time.Second)) }
	cond := func(t corev1.PodConditionType, sec int) corev1.PodCondition {
		return corev1.PodCondition{Type: t, Status: corev1.ConditionTrue, LastTransitionTime: at(sec)}
	}
	running := func(name string, sec int) corev1.ContainerStatus {
		return corev1.ContainerStatus{Name: name, Ready: true, Started: ptr(true), Image: "docker.io/library/busybox:1.35",
			ImageID: "docker.io/library/busybox@sha256:0", ContainerID: fmt.Sprintf("containerd://%064x", i*2+len(name)),
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: at(sec)}}}
	}
	st := corev1.PodStatus{Phase: corev1.PodRunning, HostIP: "10.90.0.9", PodIP: fmt.Sprintf("10.%d.%d.%d", 100+i>>16, i>>8&255, i&255),
		StartTime: ptr(at(0)), QOSClass: corev1.PodQOSBurstable,
		Conditions: []corev1.PodCondition{cond(corev1.PodReadyToStartContainers, 1), cond(corev1.PodInitialized, 2),
			cond(corev1.PodReady, 3), cond(corev1.ContainersReady, 3), cond(corev1.PodScheduled, 0)},
		ContainerStatuses: []corev1.ContainerStatus{running("app", 2)}}
	if s.native(i) {
		st.InitContainerStatuses = []corev1.ContainerStatus{running("proxy", 1)}
	}
	return st
}

// podEvent is the k-th Event of pod i, as the scheduler and kubelet write them: at the times
// runningStatus gives (proxy started 1 s after the pod was created, app 2 s), as a kubelet's
// would be. Events stamped before their pod (as they were once) contradict its status, and the
// view then said what no kubelet does.
func podEvent(s shape, i, k int, uid types.UID, created time.Time) *corev1.Event {
	pod, ns := s.name(i), s.namespace(i)
	type step struct {
		reason, container, message string
		sec                        int // after the pod was created
	}
	steps := []step{
		{"Scheduled", "", fmt.Sprintf("Successfully assigned %s/%s to %s", ns, pod, nodeName), 0},
		{"Pulled", "app", `Container image "docker.io/library/busybox:1.35" already present on machine`, 2},
		{"Created", "app", "Created container: app", 2},
		{"Started", "app", "Started container app", 2},
	}
	if s.native(i) {
		steps = append(steps[:1], append([]step{{"Started", "proxy", "Started container proxy", 1}}, steps[1:]...)...)
	}
	st := steps[k%len(steps)]
	at := created.Add(time.Duration(st.sec) * time.Second)
	ref := corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: pod, UID: uid, APIVersion: "v1"}
	if st.container != "" {
		ref.FieldPath = "spec.containers{" + st.container + "}"
		if st.container == "proxy" {
			ref.FieldPath = "spec.initContainers{proxy}"
		}
	}
	return &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: fmt.Sprintf("%s.%x", pod, at.UnixNano()+int64(k))},
		InvolvedObject: ref, Reason: st.reason, Message: st.message, Type: corev1.EventTypeNormal,
		Source:         corev1.EventSource{Component: "kubelet", Host: nodeName},
		FirstTimestamp: metav1.NewTime(at), LastTimestamp: metav1.NewTime(at), Count: 1,
		ReportingController: "kubelet", ReportingInstance: nodeName,
	}
}

func mustQuantity(s string) resource.Quantity { return resource.MustParse(s) }
