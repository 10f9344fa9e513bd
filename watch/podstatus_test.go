package watch

import (
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// nativeSpec is the shape of the recordings' pods: an init container, a native sidecar, an app.
var nativeSpec = corev1.PodSpec{
	InitContainers: []corev1.Container{{Name: "init"}, {Name: "sidecar", RestartPolicy: always}},
	Containers:     []corev1.Container{{Name: "app"}},
}

// classicSpec is a Job's pod with the sidecar among the app containers.
var classicSpec = corev1.PodSpec{Containers: []corev1.Container{{Name: "main"}, {Name: "sidecar"}}}

func waitingStatus(name, reason string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Started: ptr.To(false),
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}}
}

func runningStatus(name string, started, ready bool) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Started: ptr.To(started), Ready: ready,
		State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: sec(1)}}}
}

func terminatedStatus(name string, exitCode, signal int32, reason string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Started: ptr.To(false),
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
			ExitCode: exitCode, Signal: signal, Reason: reason, StartedAt: sec(1), FinishedAt: sec(2)}}}
}

// conditions are the pod conditions the kubelet sets, Initialized and Ready as given.
func conditions(initialized, ready bool) []corev1.PodCondition {
	status := func(b bool) corev1.ConditionStatus {
		if b {
			return corev1.ConditionTrue
		}
		return corev1.ConditionFalse
	}
	return []corev1.PodCondition{
		{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
		{Type: corev1.PodInitialized, Status: status(initialized)},
		{Type: corev1.PodReady, Status: status(ready)},
	}
}

func TestPodStatus(t *testing.T) {
	initDone := terminatedStatus("init", 0, 0, "Completed")
	deleted := metav1.ObjectMeta{Name: "p", DeletionTimestamp: secPtr(60)}
	tests := []struct {
		name string
		meta metav1.ObjectMeta
		spec corev1.PodSpec
		st   corev1.PodStatus
		want string
	}{
		{
			name: "just created",
			spec: nativeSpec,
			st:   corev1.PodStatus{Phase: corev1.PodPending},
			want: "Pending",
		},
		{
			name: "scheduling gated",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{
				{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonSchedulingGated}}},
			want: "SchedulingGated",
		},
		{
			name: "init container running",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodPending, Conditions: conditions(false, false),
				InitContainerStatuses: []corev1.ContainerStatus{runningStatus("init", true, false), waitingStatus("sidecar", "PodInitializing")},
				ContainerStatuses:     []corev1.ContainerStatus{waitingStatus("app", "PodInitializing")}},
			want: "Init:0/2",
		},
		{
			name: "init done, sidecar waiting",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodPending, Conditions: conditions(false, false),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, waitingStatus("sidecar", "PodInitializing")},
				ContainerStatuses:     []corev1.ContainerStatus{waitingStatus("app", "PodInitializing")}},
			want: "Init:1/2",
		},
		{
			name: "init done, sidecar running but its startup probe has not passed",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodPending, Conditions: conditions(false, false),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, runningStatus("sidecar", false, false)},
				ContainerStatuses:     []corev1.ContainerStatus{waitingStatus("app", "PodInitializing")}},
			want: "Init:1/2",
		},
		{
			name: "sidecar creating",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodPending, Conditions: conditions(false, false),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, waitingStatus("sidecar", "ContainerCreating")},
				ContainerStatuses:     []corev1.ContainerStatus{waitingStatus("app", "PodInitializing")}},
			want: "Init:ContainerCreating",
		},
		{
			name: "sidecar started, app not yet",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodPending, Conditions: conditions(false, false),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, runningStatus("sidecar", true, false)},
				ContainerStatuses:     []corev1.ContainerStatus{waitingStatus("app", "PodInitializing")}},
			want: "PodInitializing",
		},
		{
			name: "running",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: conditions(true, true),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, runningStatus("sidecar", true, true)},
				ContainerStatuses:     []corev1.ContainerStatus{runningStatus("app", true, true)}},
			want: "Running",
		},
		{
			name: "classic sidecar Job: main exited 0, sidecar still running",
			spec: classicSpec,
			st: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: conditions(true, false),
				ContainerStatuses: []corev1.ContainerStatus{terminatedStatus("main", 0, 0, "Completed"), runningStatus("sidecar", true, true)}},
			want: "NotReady",
		},
		{
			name: "classic pod, one container exited 0 and the pod still Ready",
			spec: classicSpec,
			st: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: conditions(true, true),
				ContainerStatuses: []corev1.ContainerStatus{terminatedStatus("main", 0, 0, "Completed"), runningStatus("sidecar", true, true)}},
			want: "Running",
		},
		{
			name: "native sidecar Job: main exited 0, sidecar still stopping",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: conditions(true, false),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, runningStatus("sidecar", true, true)},
				ContainerStatuses:     []corev1.ContainerStatus{terminatedStatus("app", 0, 0, "Completed")}},
			want: "Completed",
		},
		{
			name: "native sidecar Job done: the sidecar's SIGKILL does not make it an error",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodSucceeded, Conditions: conditions(true, false),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, terminatedStatus("sidecar", 137, 0, "Error")},
				ContainerStatuses:     []corev1.ContainerStatus{terminatedStatus("app", 0, 0, "Completed")}},
			want: "Completed",
		},
		{
			name: "deleted while running",
			meta: deleted,
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: conditions(true, true),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, runningStatus("sidecar", true, true)},
				ContainerStatuses:     []corev1.ContainerStatus{runningStatus("app", true, true)}},
			want: "Terminating",
		},
		{
			name: "deleted and succeeded",
			meta: deleted,
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodSucceeded, Conditions: conditions(true, false),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, terminatedStatus("sidecar", 0, 0, "Completed")},
				ContainerStatuses:     []corev1.ContainerStatus{terminatedStatus("app", 0, 0, "Completed")}},
			want: "Completed",
		},
		{
			name: "deleted on a lost node",
			meta: deleted,
			spec: nativeSpec,
			st:   corev1.PodStatus{Phase: corev1.PodRunning, Reason: "NodeLost"},
			want: "Unknown",
		},
		{
			name: "sidecar exited 1 after initialization",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: conditions(true, false),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, terminatedStatus("sidecar", 1, 0, "Error")},
				ContainerStatuses:     []corev1.ContainerStatus{runningStatus("app", true, true)}},
			want: "Init:Error",
		},
		{
			name: "sidecar in back-off after initialization",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: conditions(true, false),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, waitingStatus("sidecar", "CrashLoopBackOff")},
				ContainerStatuses:     []corev1.ContainerStatus{runningStatus("app", true, true)}},
			want: "Init:CrashLoopBackOff",
		},
		{
			name: "init container failed",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodPending, Conditions: conditions(false, false),
				InitContainerStatuses: []corev1.ContainerStatus{terminatedStatus("init", 1, 0, "Error"), waitingStatus("sidecar", "PodInitializing")},
				ContainerStatuses:     []corev1.ContainerStatus{waitingStatus("app", "PodInitializing")}},
			want: "Init:Error",
		},
		{
			name: "init container killed by a signal, no reason",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodPending, Conditions: conditions(false, false),
				InitContainerStatuses: []corev1.ContainerStatus{terminatedStatus("init", 137, 9, ""), waitingStatus("sidecar", "PodInitializing")}},
			want: "Init:Signal:9",
		},
		{
			name: "init container exit code, no reason",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodPending, Conditions: conditions(false, false),
				InitContainerStatuses: []corev1.ContainerStatus{terminatedStatus("init", 3, 0, ""), waitingStatus("sidecar", "PodInitializing")}},
			want: "Init:ExitCode:3",
		},
		{
			name: "app in back-off",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: conditions(true, false),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, runningStatus("sidecar", true, true)},
				ContainerStatuses:     []corev1.ContainerStatus{waitingStatus("app", "CrashLoopBackOff")}},
			want: "CrashLoopBackOff",
		},
		{
			name: "app exited 1",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodFailed, Conditions: conditions(true, false),
				InitContainerStatuses: []corev1.ContainerStatus{initDone, terminatedStatus("sidecar", 0, 0, "Completed")},
				ContainerStatuses:     []corev1.ContainerStatus{terminatedStatus("app", 1, 0, "Error")}},
			want: "Error",
		},
		{
			name: "one app container failed, the other completed",
			spec: classicSpec,
			st: corev1.PodStatus{Phase: corev1.PodFailed, Conditions: conditions(true, false),
				ContainerStatuses: []corev1.ContainerStatus{terminatedStatus("main", 2, 0, ""), terminatedStatus("sidecar", 0, 0, "Completed")}},
			want: "ExitCode:2",
		},
		{
			name: "the last container failed, the first completed: the failure, not Completed",
			spec: classicSpec,
			st: corev1.PodStatus{Phase: corev1.PodFailed, Conditions: conditions(true, false),
				ContainerStatuses: []corev1.ContainerStatus{terminatedStatus("main", 0, 0, "Completed"), terminatedStatus("sidecar", 1, 0, "Error")}},
			want: "Error",
		},
		{
			name: "app killed by a signal, no reason",
			spec: nativeSpec,
			st: corev1.PodStatus{Phase: corev1.PodFailed, Conditions: conditions(true, false),
				ContainerStatuses: []corev1.ContainerStatus{terminatedStatus("app", 143, 15, "")}},
			want: "Signal:15",
		},
		// Ported from kubectl's TestPrintPodWithRestartableInitContainer (printers_test.go, v1.37.2).
		{
			name: "kubectl: two sidecars, the first running but not started",
			spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "s1", RestartPolicy: always}, {Name: "s2", RestartPolicy: always}},
				Containers: []corev1.Container{{Name: "c"}}},
			st: corev1.PodStatus{Phase: corev1.PodPending, Conditions: conditions(false, false),
				InitContainerStatuses: []corev1.ContainerStatus{runningStatus("s1", false, false),
					{Name: "s2", Started: ptr.To(false), State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}}},
				ContainerStatuses: []corev1.ContainerStatus{{Name: "c", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}}}},
			want: "Init:0/2",
		},
		{
			name: "kubectl: two sidecars, the second running but not started",
			spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "s1", RestartPolicy: always}, {Name: "s2", RestartPolicy: always}},
				Containers: []corev1.Container{{Name: "c"}}},
			st: corev1.PodStatus{Phase: corev1.PodPending, Conditions: conditions(false, false),
				InitContainerStatuses: []corev1.ContainerStatus{runningStatus("s1", true, false), runningStatus("s2", false, false)},
				ContainerStatuses:     []corev1.ContainerStatus{{Name: "c", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}}}},
			want: "Init:1/2",
		},
		{
			name: "kubectl: statuses for containers not in the spec",
			spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "init1"}, {Name: "sidecar1", RestartPolicy: always}},
				Containers: []corev1.Container{{Name: "container1"}}},
			st: corev1.PodStatus{Phase: corev1.PodRunning,
				InitContainerStatuses: []corev1.ContainerStatus{{Name: "initinvalid"}, {Name: "init1"}, {Name: "sidecar1"}},
				ContainerStatuses:     []corev1.ContainerStatus{{Name: "containerinvalid"}, {Name: "container1"}}},
			want: "Init:0/2",
		},
		{
			// A name given twice counts as its last container (kubectl's map of them does too).
			name: "an init container's name twice, the last a sidecar",
			spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "s"}, {Name: "s", RestartPolicy: always}}},
			st: corev1.PodStatus{Phase: corev1.PodPending,
				InitContainerStatuses: []corev1.ContainerStatus{runningStatus("s", true, true), waitingStatus("s", "ImagePullBackOff")}},
			want: "Init:ImagePullBackOff",
		},
		{
			name: "many init containers (found through a map), the started one a sidecar",
			spec: corev1.PodSpec{InitContainers: manyInits(20, 17)},
			st: corev1.PodStatus{Phase: corev1.PodPending,
				InitContainerStatuses: []corev1.ContainerStatus{runningStatus("c17", true, true), waitingStatus("c3", "ErrImagePull")}},
			want: "Init:ErrImagePull",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &corev1.Pod{ObjectMeta: tt.meta, Spec: tt.spec, Status: tt.st}
			if got := podStatus(pod); got != tt.want {
				t.Errorf("podStatus() = %q, want %q", got, tt.want)
			}
		})
	}
}

// manyInits are n init containers c0, c1, ..., c<sidecar> a sidecar.
func manyInits(n, sidecar int) []corev1.Container {
	out := make([]corev1.Container, n)
	for i := range out {
		out[i].Name = "c" + strconv.Itoa(i)
	}
	out[sidecar].RestartPolicy = always
	return out
}

// TestCompletedButRunning is printPod's correction of "Completed" on its own: each of its
// outcomes, and their order when more than one applies.
func TestCompletedButRunning(t *testing.T) {
	tests := []struct {
		name        string
		ready       bool
		hasRunning  bool
		errorReason string
		want        string
	}{
		{name: "nothing running, nothing failed", want: "Completed"},
		{name: "nothing running, pod Ready", ready: true, want: "Completed"},
		{name: "running and Ready", ready: true, hasRunning: true, want: "Running"},
		{name: "running and Ready wins over a failure", ready: true, hasRunning: true, errorReason: "Error", want: "Running"},
		{name: "a failure, nothing running", errorReason: "Error", want: "Error"},
		{name: "a failure wins over running but not Ready", hasRunning: true, errorReason: "OOMKilled", want: "OOMKilled"},
		{name: "running, not Ready", hasRunning: true, want: "NotReady"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &corev1.Pod{Status: corev1.PodStatus{Conditions: conditions(true, tt.ready)}}
			if got := completedButRunning(pod, tt.hasRunning, tt.errorReason); got != tt.want {
				t.Errorf("completedButRunning() = %q, want %q", got, tt.want)
			}
		})
	}
}
