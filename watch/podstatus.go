package watch

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
)

// podStatus is kubectl's STATUS column for a pod: a port of printPod in
// k8s.io/kubernetes/pkg/printers/internalversion/printers.go (v1.37), which the API server
// uses to answer `kubectl get pods`. Ported, not imported: that package pulls in all of
// Kubernetes. Native sidecars count as containers once started; their exit does not end init.
//
// The steps are printPod's, in its order, each in a function of its own: the phase (or the
// pod's reason, or SchedulingGated), then the init containers, then the containers once the
// pod is past init, then deletion. Restarts and the READY column, which printPod computes in
// the same loops, are not ported.
func podStatus(pod *corev1.Pod) string {
	reason := phaseReason(pod)
	reason, initializing := initContainersReason(pod, reason)
	if !initializing || podInitialized(pod) {
		reason = containersReason(pod, reason)
	}
	return deletionReason(pod, reason)
}

// phaseReason is where printPod starts: the pod's phase, replaced by the pod's reason if it
// has one, and by SchedulingGated if the PodScheduled condition says so.
func phaseReason(pod *corev1.Pod) string {
	reason := string(pod.Status.Phase)
	if pod.Status.Reason != "" {
		reason = pod.Status.Reason
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Reason == corev1.PodReasonSchedulingGated {
			reason = corev1.PodReasonSchedulingGated
		}
	}
	return reason
}

// initContainersReason is printPod's loop over the init container statuses. Those that exited
// 0, and native sidecars that have started, are done; the first that is neither names the
// status ("Init:" and its reason, or "Init:i/n") and means the pod is still initializing.
// With none such, reason is returned as it came.
func initContainersReason(pod *corev1.Pod, reason string) (string, bool) {
	initContainers := newByName(pod.Spec.InitContainers, containerName)
	for i, cs := range pod.Status.InitContainerStatuses {
		switch {
		case cs.State.Terminated != nil && cs.State.Terminated.ExitCode == 0:
			continue
		case isSidecar(initContainers.of(cs.Name)) && cs.Started != nil && *cs.Started:
			continue
		case cs.State.Terminated != nil: // initialization failed
			return "Init:" + terminatedReason(cs.State.Terminated), true
		case cs.State.Waiting != nil && cs.State.Waiting.Reason != "" && cs.State.Waiting.Reason != "PodInitializing":
			return "Init:" + cs.State.Waiting.Reason, true
		default:
			return fmt.Sprintf("Init:%d/%d", i, len(pod.Spec.InitContainers)), true
		}
	}
	return reason, false
}

// containersReason is printPod's loop over the container statuses, last to first, so that the
// first container with a waiting reason or a termination names the status. A pod whose status
// came out "Completed" while a container still runs is corrected by completedButRunning.
func containersReason(pod *corev1.Pod, reason string) string {
	hasRunning := false
	errorReason := ""
	for i := len(pod.Status.ContainerStatuses) - 1; i >= 0; i-- {
		cs := pod.Status.ContainerStatuses[i]
		switch {
		case cs.State.Waiting != nil && cs.State.Waiting.Reason != "":
			reason = cs.State.Waiting.Reason
		case cs.State.Terminated != nil:
			reason = terminatedReason(cs.State.Terminated)
			if cs.State.Terminated.ExitCode != 0 {
				errorReason = reason
			}
		case cs.Ready && cs.State.Running != nil:
			hasRunning = true
		}
	}
	if reason == "Completed" {
		return completedButRunning(pod, hasRunning, errorReason)
	}
	return reason
}

// completedButRunning is printPod's correction of a "Completed" status: back to "Running" if a
// container is still running and ready and the pod is Ready; else a failed container's reason,
// if one failed; else "NotReady" if a container still runs.
func completedButRunning(pod *corev1.Pod, hasRunning bool, errorReason string) string {
	switch {
	case hasRunning && podReady(pod):
		return "Running"
	case errorReason != "":
		return errorReason
	case hasRunning:
		return "NotReady"
	}
	return "Completed"
}

// terminatedReason names a container's termination as printPod does: by its reason, else by
// the signal that killed it, else by its exit code.
func terminatedReason(t *corev1.ContainerStateTerminated) string {
	switch {
	case t.Reason != "":
		return t.Reason
	case t.Signal != 0:
		return fmt.Sprintf("Signal:%d", t.Signal)
	}
	return fmt.Sprintf("ExitCode:%d", t.ExitCode)
}

// deletionReason is printPod's last step: a deleted pod on a lost node is "Unknown", and one
// deleted before reaching a terminal phase is "Terminating".
func deletionReason(pod *corev1.Pod, reason string) string {
	terminal := pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed
	switch {
	case pod.DeletionTimestamp != nil && pod.Status.Reason == "NodeLost":
		return "Unknown"
	case pod.DeletionTimestamp != nil && !terminal:
		return "Terminating"
	}
	return reason
}

func isSidecar(c *corev1.Container) bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
}

func podInitialized(pod *corev1.Pod) bool { return podCondition(pod, corev1.PodInitialized) }
func podReady(pod *corev1.Pod) bool       { return podCondition(pod, corev1.PodReady) }

func podCondition(pod *corev1.Pod, t corev1.PodConditionType) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == t {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
