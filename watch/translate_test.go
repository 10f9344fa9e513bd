package watch

import (
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/sidecar-top/sidecar-top/internal/fixture"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// t0 is the start of the fixtures' day; API times have whole seconds.
var t0 = time.Date(2026, 12, 2, 8, 32, 51, 0, time.UTC)

// sec is t0 plus s seconds, as an API timestamp.
func sec(s int) metav1.Time { return metav1.NewTime(t0.Add(time.Duration(s) * time.Second)) }

func secPtr(s int) *metav1.Time { t := sec(s); return &t }

// at is t0 plus s seconds, as the translation reports it.
func at(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }

func atPtr(s int) *time.Time { t := at(s); return &t }

var always = ptr.To(corev1.ContainerRestartPolicyAlways)

func TestObservePod(t *testing.T) {
	received := time.Date(2026, 12, 2, 8, 33, 0, 123456789, time.UTC)
	tests := []struct {
		name string
		pod  func() *corev1.Pod
		want *timeline.PodObservation
	}{
		{
			name: "lanes in spec order, not status order",
			pod:  fixture.SidecarPod,
			want: &timeline.PodObservation{
				UID: "pod-uid", Namespace: "sc-b1", Name: "sc-b1-x7k2p", ResourceVersion: "42", Node: "vm",
				OwnerKind: "Job", OwnerName: "sc-b1", OwnerUID: "job-uid", Created: at(0), GracePeriod: 45, RestartPolicy: "Never",
				Phase: "Running", Status: "CrashLoopBackOff",
				Conditions: []timeline.Condition{
					{Type: "Initialized", Status: "True", LastTransition: at(5)},
					{Type: "Ready", Status: "False", Reason: "ContainersNotReady",
						Message: "containers with unready status: [agent]", LastTransition: at(6)},
				},
				ReadinessGates: []string{"example.com/lb"},
				Containers: []timeline.ContainerObservation{
					{Name: "setup", Kind: timeline.KindInit, Status: &timeline.ContainerStatus{
						ContainerID: "containerd://s", Ready: true, Started: ptr.To(false),
						Terminated: &timeline.Terminated{ContainerID: "containerd://s", Reason: "Completed",
							StartedAt: at(1), FinishedAt: at(3)}}},
					{Name: "proxy", Kind: timeline.KindSidecar, HasStartupProbe: true, HasPreStop: true,
						Startup: timeline.ProbeSpec{Period: 10 * time.Second, Timeout: time.Second, FailureThreshold: 3}, RestartPolicy: "Always",
						Status: &timeline.ContainerStatus{
							ContainerID: "containerd://p2", RestartCount: 1, Ready: true, Started: ptr.To(true),
							Running: &timeline.Running{ContainerID: "containerd://p2", StartedAt: at(5)},
							LastTerminated: &timeline.Terminated{ContainerID: "containerd://p1", ExitCode: 137, Signal: 9,
								Reason: "Error", Message: "killed", StartedAt: at(4), FinishedAt: at(5)}}},
					{Name: "web", Kind: timeline.KindApp, HasReadinessProbe: true, HasPostStart: true, Readiness: timeline.ProbeSpec{Period: 10 * time.Second, Timeout: time.Second, FailureThreshold: 3}, Status: &timeline.ContainerStatus{
						ContainerID: "containerd://w", Ready: true, Started: ptr.To(true),
						Running: &timeline.Running{ContainerID: "containerd://w", StartedAt: at(6)}}},
					{Name: "agent", Kind: timeline.KindApp, Status: &timeline.ContainerStatus{
						Started: ptr.To(false),
						Waiting: &timeline.Waiting{Reason: "CrashLoopBackOff", Message: "back-off 10s restarting failed container"}}},
					{Name: "debugger", Kind: timeline.KindEphemeral, Status: &timeline.ContainerStatus{
						ContainerID: "containerd://d",
						Running:     &timeline.Running{ContainerID: "containerd://d", StartedAt: at(9)}}},
				},
			},
		},
		{
			name: "no statuses yet and the default grace period",
			pod: func() *corev1.Pod {
				return &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{Name: "sc-a", Namespace: "sc-a", UID: "u", ResourceVersion: "290", CreationTimestamp: sec(0)},
					Spec: corev1.PodSpec{
						RestartPolicy:  corev1.RestartPolicyAlways,
						InitContainers: []corev1.Container{{Name: "sidecar", RestartPolicy: always}},
						Containers:     []corev1.Container{{Name: "app"}},
					},
					Status: corev1.PodStatus{Phase: corev1.PodPending},
				}
			},
			want: &timeline.PodObservation{
				UID: "u", Namespace: "sc-a", Name: "sc-a", ResourceVersion: "290", Created: at(0),
				GracePeriod: 30, RestartPolicy: "Always", Phase: "Pending", Status: "Pending",
				Containers: []timeline.ContainerObservation{
					{Name: "sidecar", Kind: timeline.KindSidecar, RestartPolicy: "Always"},
					{Name: "app", Kind: timeline.KindApp},
				},
			},
		},
		{
			name: "being deleted",
			pod: func() *corev1.Pod {
				return &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{Name: "sc-c", Namespace: "sc-c", UID: "u", ResourceVersion: "7",
						CreationTimestamp: sec(0), DeletionTimestamp: secPtr(50), DeletionGracePeriodSeconds: ptr.To[int64](30)},
					Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "app"}}},
					Status: corev1.PodStatus{Phase: corev1.PodRunning, Reason: "Evicted"},
				}
			},
			want: &timeline.PodObservation{
				UID: "u", Namespace: "sc-c", Name: "sc-c", ResourceVersion: "7", Created: at(0),
				Deletion: atPtr(50), DeletionGrace: ptr.To[int64](30), GracePeriod: 30,
				Phase: "Running", Reason: "Evicted", Status: "Terminating",
				Containers: []timeline.ContainerObservation{{Name: "app", Kind: timeline.KindApp}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Observe(Item{Time: received, Type: timeline.Modified, Object: tt.pod()})
			if !ok {
				t.Fatal("Observe(pod) = not ok, want ok")
			}
			want := timeline.Observation{Received: received, Type: timeline.Modified, Pod: tt.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Observe(pod) mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestObserveEvent(t *testing.T) {
	killing := time.Date(2026, 12, 2, 8, 35, 11, 514417709, time.UTC) // from the name's hex suffix
	tests := []struct {
		name  string
		event *corev1.Event
		want  *timeline.EventObservation
	}{
		{
			name: "kubelet Event for a sidecar, time in the name",
			event: &corev1.Event{
				ObjectMeta: metav1.ObjectMeta{Name: "sc-c.18ed62d93a311a2d", Namespace: "sc-c", UID: "ev-uid"},
				InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "sc-c", UID: "pod-uid",
					FieldPath: "spec.initContainers{sidecar}"},
				Type: "Normal", Reason: "Killing", Message: "Stopping container sidecar",
				Source: corev1.EventSource{Component: "kubelet", Host: "vm"}, ReportingController: "kubelet",
				Count: 1, FirstTimestamp: sec(20), LastTimestamp: sec(20),
			},
			want: &timeline.EventObservation{
				UID: "ev-uid", Namespace: "sc-c", Name: "sc-c.18ed62d93a311a2d",
				InvolvedKind: "Pod", InvolvedName: "sc-c", InvolvedUID: "pod-uid",
				FieldPath: "spec.initContainers{sidecar}", Container: "sidecar", ContainerKind: timeline.KindInit,
				Type: "Normal", Reason: "Killing", Message: "Stopping container sidecar", Source: "kubelet",
				Count: 1, First: at(20), Last: at(20), NameTime: killing,
			},
		},
		{
			name: "repeated probe failure of an app container, source only in source.component",
			event: &corev1.Event{
				ObjectMeta:     metav1.ObjectMeta{Name: "web", Namespace: "ns"},
				InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "web", FieldPath: "spec.containers{app}"},
				Type:           "Warning", Reason: "Unhealthy", Message: "Readiness probe failed",
				Source: corev1.EventSource{Component: "kubelet"}, Count: 4, FirstTimestamp: sec(5), LastTimestamp: sec(8),
			},
			want: &timeline.EventObservation{
				Namespace: "ns", Name: "web", InvolvedKind: "Pod", InvolvedName: "web",
				FieldPath: "spec.containers{app}", Container: "app", ContainerKind: timeline.KindApp,
				Type: "Warning", Reason: "Unhealthy", Message: "Readiness probe failed", Source: "kubelet",
				Count: 4, First: at(5), Last: at(8),
			},
		},
		{
			name: "scheduler Event with eventTime and a series, no container",
			event: &corev1.Event{
				ObjectMeta:     metav1.ObjectMeta{Name: "sc-c.scheduled", Namespace: "sc-c"},
				InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "sc-c"},
				Type:           "Warning", Reason: "FailedScheduling", ReportingController: "default-scheduler",
				EventTime: metav1.NewMicroTime(at(1).Add(600792 * time.Microsecond)),
				Series:    &corev1.EventSeries{Count: 3, LastObservedTime: metav1.NewMicroTime(at(9).Add(5 * time.Microsecond))},
			},
			want: &timeline.EventObservation{
				Namespace: "sc-c", Name: "sc-c.scheduled", InvolvedKind: "Pod", InvolvedName: "sc-c",
				Type: "Warning", Reason: "FailedScheduling", Source: "default-scheduler", Count: 3,
				Last: at(9).Add(5 * time.Microsecond), EventTime: at(1).Add(600792 * time.Microsecond),
			},
		},
		{
			name: "ephemeral container",
			event: &corev1.Event{
				ObjectMeta: metav1.ObjectMeta{Name: "p.18ed62d7d9c29632", Namespace: "ns"},
				InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "p",
					FieldPath: "spec.ephemeralContainers{debugger}"},
				Reason: "Started", Count: 1, FirstTimestamp: sec(3), LastTimestamp: sec(3),
			},
			want: &timeline.EventObservation{
				Namespace: "ns", Name: "p.18ed62d7d9c29632", InvolvedKind: "Pod", InvolvedName: "p",
				FieldPath: "spec.ephemeralContainers{debugger}", Container: "debugger", ContainerKind: timeline.KindEphemeral,
				Reason: "Started", Count: 1, First: at(3), Last: at(3),
				NameTime: time.Unix(0, 0x18ed62d7d9c29632).UTC(),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Observe(Item{Time: at(30), Type: timeline.Added, Object: tt.event})
			if !ok {
				t.Fatal("Observe(event) = not ok, want ok")
			}
			want := timeline.Observation{Received: at(30), Type: timeline.Added, Event: tt.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Observe(event) mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestObserveEventsV1(t *testing.T) {
	tests := []struct {
		name  string
		event *eventsv1.Event
		want  *timeline.EventObservation
	}{
		{
			name: "regarding a sidecar, with a series",
			event: &eventsv1.Event{
				ObjectMeta: metav1.ObjectMeta{Name: "sc-e.18ed62d93a311a2d", Namespace: "sc-e", UID: "ev"},
				Regarding: corev1.ObjectReference{Kind: "Pod", Name: "sc-e", UID: "pod",
					FieldPath: "spec.initContainers{sidecar}"},
				Type: "Warning", Reason: "BackOff", Note: "Back-off restarting failed container sidecar",
				ReportingController: "kubelet", EventTime: metav1.NewMicroTime(at(4).Add(250 * time.Microsecond)),
				DeprecatedCount: 1, DeprecatedFirstTimestamp: sec(4), DeprecatedLastTimestamp: sec(4),
				Series: &eventsv1.EventSeries{Count: 4, LastObservedTime: metav1.NewMicroTime(at(60).Add(7 * time.Microsecond))},
			},
			want: &timeline.EventObservation{
				UID: "ev", Namespace: "sc-e", Name: "sc-e.18ed62d93a311a2d",
				InvolvedKind: "Pod", InvolvedName: "sc-e", InvolvedUID: "pod",
				FieldPath: "spec.initContainers{sidecar}", Container: "sidecar", ContainerKind: timeline.KindInit,
				Type: "Warning", Reason: "BackOff", Message: "Back-off restarting failed container sidecar",
				Source: "kubelet", Count: 4, First: at(4), Last: at(60).Add(7 * time.Microsecond),
				EventTime: at(4).Add(250 * time.Microsecond),
				NameTime:  time.Date(2026, 12, 2, 8, 35, 11, 514417709, time.UTC),
			},
		},
		{
			name: "no series: the deprecated fields",
			event: &eventsv1.Event{
				ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "ns"},
				Regarding:  corev1.ObjectReference{Kind: "Pod", Name: "p", FieldPath: "spec.containers{app}"},
				Type:       "Normal", Reason: "Pulled", Note: "already present", ReportingController: "kubelet",
				DeprecatedCount: 2, DeprecatedFirstTimestamp: sec(1), DeprecatedLastTimestamp: sec(2),
			},
			want: &timeline.EventObservation{
				Namespace: "ns", Name: "x", InvolvedKind: "Pod", InvolvedName: "p",
				FieldPath: "spec.containers{app}", Container: "app", ContainerKind: timeline.KindApp,
				Type: "Normal", Reason: "Pulled", Message: "already present", Source: "kubelet",
				Count: 2, First: at(1), Last: at(2),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Observe(Item{Time: at(61), Type: timeline.Modified, Object: tt.event})
			if !ok {
				t.Fatal("Observe(events.k8s.io/v1 Event) = not ok, want ok")
			}
			want := timeline.Observation{Received: at(61), Type: timeline.Modified, Event: tt.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Observe(events.k8s.io/v1 Event) mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestObserveJob(t *testing.T) {
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "sc-b1", Namespace: "sc-b1", UID: "job", ResourceVersion: "9",
			CreationTimestamp: sec(0), DeletionTimestamp: secPtr(90)},
		Status: batchv1.JobStatus{
			Active: 1, Succeeded: 2, Failed: 3, Ready: ptr.To[int32](1),
			Conditions: []batchv1.JobCondition{
				{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, Reason: "CompletionsReached",
					Message: "Reached expected number of succeeded pods", LastTransitionTime: sec(36)},
				{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, Reason: "CompletionsReached",
					LastTransitionTime: sec(37)},
			},
		},
	}
	got, ok := Observe(Item{Time: at(38), Type: timeline.Deleted, Object: job})
	if !ok {
		t.Fatal("Observe(job) = not ok, want ok")
	}
	want := timeline.Observation{Received: at(38), Type: timeline.Deleted, Job: &timeline.JobObservation{
		UID: "job", Namespace: "sc-b1", Name: "sc-b1", ResourceVersion: "9", Created: at(0), Deletion: atPtr(90),
		Active: 1, Succeeded: 2, Failed: 3, Ready: 1,
		Conditions: []timeline.Condition{
			{Type: "SuccessCriteriaMet", Status: "True", Reason: "CompletionsReached",
				Message: "Reached expected number of succeeded pods", LastTransition: at(36)},
			{Type: "Complete", Status: "True", Reason: "CompletionsReached", LastTransition: at(37)},
		},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Observe(job) mismatch (-want +got):\n%s", diff)
	}

	// A Job without status.ready (older servers) counts zero ready pods.
	got, _ = Observe(Item{Object: &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "j"}}})
	if got.Job == nil || got.Job.Ready != 0 {
		t.Errorf("Observe(job without status.ready).Job = %+v, want Ready 0", got.Job)
	}
}

func TestObserveUnknownKind(t *testing.T) {
	got, ok := Observe(Item{Time: at(1), Type: timeline.Added, Object: &corev1.ConfigMap{}})
	if ok {
		t.Errorf("Observe(ConfigMap) = %+v, ok; want not ok", got)
	}
}

func TestNameTime(t *testing.T) {
	tests := []struct {
		name string
		want time.Time
	}{
		{"sc-c.18ed62d93a311a2d", time.Date(2026, 12, 2, 8, 35, 11, 514417709, time.UTC)},
		{"web-7d4b9c-x2k9p.18ed62d7d9c29632", time.Unix(0, 0x18ed62d7d9c29632).UTC()},
		{"a.b.18ed62d93a311a2d", time.Date(2026, 12, 2, 8, 35, 11, 514417709, time.UTC)}, // the last dot counts
		{"sc-c", time.Time{}},                   // no suffix
		{"sc-c.", time.Time{}},                  // empty suffix
		{"sc-c.scheduled", time.Time{}},         // not hex
		{"sc-c.18ed62d93a31", time.Time{}},      // too short to be a UnixNano
		{"sc-c.18ed62d93a311a2d0", time.Time{}}, // too long
		{"sc-c.18ed62d93a311a2g", time.Time{}},  // not hex at the end
		{"sc-c.0000000000000001", time.Time{}},  // 1970
		{"sc-c.fffffffffffffff", time.Time{}},   // 15 digits: 2006, before native sidecars existed
		{"sc-c.7fffffffffffffff", time.Time{}},  // 2262
		{"sc-c.8000000000000000", time.Time{}},  // overflows int64
	}
	for _, tt := range tests {
		if got := nameTime(tt.name); !got.Equal(tt.want) {
			t.Errorf("nameTime(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestContainerOf(t *testing.T) {
	tests := []struct {
		fieldPath string
		wantName  string
		wantKind  timeline.ContainerKind
	}{
		{"spec.containers{app}", "app", timeline.KindApp},
		{"spec.initContainers{sidecar}", "sidecar", timeline.KindInit},
		{"spec.ephemeralContainers{debugger}", "debugger", timeline.KindEphemeral},
		{"", "", ""},
		{"spec.containers", "", ""},
		{"spec.volumes{data}", "", ""},
		{"spec.containers}app{", "", ""},
	}
	for _, tt := range tests {
		name, kind := containerOf(tt.fieldPath)
		if name != tt.wantName || kind != tt.wantKind {
			t.Errorf("containerOf(%q) = %q, %q; want %q, %q", tt.fieldPath, name, kind, tt.wantName, tt.wantKind)
		}
	}
}

// TestContainerStatusesByName: each container gets the status of its name, in whatever order
// the kubelet lists them and the last should a name repeat, for a pod of a few containers
// (looked up through the list) and of many (through a map).
func TestContainerStatusesByName(t *testing.T) {
	for _, n := range []int{3, 40} {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u"}}
		for i := range n {
			name := "c" + strconv.Itoa(i)
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: name})
		}
		for i := n - 1; i >= 0; i-- { // in reverse, and c0 twice: the last says restartCount 7
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses,
				corev1.ContainerStatus{Name: "c" + strconv.Itoa(i), RestartCount: int32(100 + i)})
		}
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: "c0", RestartCount: 7})
		o := observePod(p)
		for i, c := range o.Containers {
			want := int32(100 + i)
			if i == 0 {
				want = 7
			}
			if c.Status == nil || c.Status.RestartCount != want {
				t.Fatalf("%d containers: %s has status %+v, want restartCount %d", n, c.Name, c.Status, want)
			}
		}
	}
}
