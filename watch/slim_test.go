package watch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/sidecar-top/sidecar-top/internal/fixture"
)

func TestSlimPod(t *testing.T) {
	in := fixture.RichPod()
	got, err := slim(in)
	if err != nil {
		t.Fatal(err)
	}
	started := metav1.Unix(100, 0)
	want := &corev1.Pod{
		TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "ns", UID: "pod-uid", ResourceVersion: "7",
			CreationTimestamp: metav1.Unix(90, 0), OwnerReferences: []metav1.OwnerReference{
				{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d", UID: "rs-uid", Controller: ptr.To(true)}}},
		Spec: corev1.PodSpec{
			NodeName: "node-1", RestartPolicy: corev1.RestartPolicyAlways, TerminationGracePeriodSeconds: ptr.To[int64](5),
			InitContainers: []corev1.Container{{Name: "proxy", RestartPolicy: always, StartupProbe: &corev1.Probe{},
				Lifecycle: &corev1.Lifecycle{PostStart: &corev1.LifecycleHandler{}}}},
			ReadinessGates: []corev1.PodReadinessGate{{ConditionType: "example.com/lb"}},
			Containers: []corev1.Container{{Name: "app", ReadinessProbe: &corev1.Probe{},
				Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{}},
				Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}},
			EphemeralContainers: []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
				Name: "debug"}}},
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue,
				LastTransitionTime: started, Reason: "r", Message: "m"}},
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "proxy",
				ContainerID: "containerd://1", Ready: true, Started: ptr.To(true), RestartCount: 2,
				State:                corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1}}}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app",
				State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "PodInitializing"}}}},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("slim(pod) mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(fixture.RichPod(), in); diff != "" {
		t.Errorf("slim changed its input (-before +after):\n%s", diff)
	}
}

func TestSlimEventAndJob(t *testing.T) {
	ev, job := fixture.RichEvent(), fixture.RichJob()
	tests := []struct {
		in, want runtime.Object
	}{
		{ev, &corev1.Event{
			TypeMeta:   metav1.TypeMeta{Kind: "Event", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Name: "web-1.1", Namespace: "ns", UID: "ev-uid", ResourceVersion: "9"},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "web-1", UID: "pod-uid",
				FieldPath: "spec.containers{app}"},
			Reason: "Started", Message: "Started container app", Type: "Normal", Count: 2,
			Source:         corev1.EventSource{Component: "kubelet"},
			FirstTimestamp: metav1.Unix(1, 0), LastTimestamp: metav1.Unix(2, 0), EventTime: metav1.NewMicroTime(metav1.Unix(3, 0).Time),
			Series:              &corev1.EventSeries{Count: 3, LastObservedTime: metav1.NewMicroTime(metav1.Unix(4, 0).Time)},
			ReportingController: "kubelet",
		}},
		{job, &batchv1.Job{
			TypeMeta: metav1.TypeMeta{Kind: "Job", APIVersion: "batch/v1"},
			ObjectMeta: metav1.ObjectMeta{Name: "batch", Namespace: "ns", UID: "job-uid", ResourceVersion: "3",
				CreationTimestamp: metav1.Unix(5, 0)},
			Status: batchv1.JobStatus{Active: 1, Succeeded: 2, Failed: 3, Ready: ptr.To[int32](1),
				Conditions: []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue,
					LastTransitionTime: metav1.Unix(8, 0), Reason: "r", Message: "m"}}},
		}},
		{&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}}, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}}},
	}
	for _, tt := range tests {
		got, err := slim(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("slim(%T) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}
