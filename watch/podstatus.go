package watch

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
)

// podStatus is kubectl's STATUS column for a pod: a port of printPod in
// k8s.io/kubernetes/pkg/printers/internalversion/printers.go (v1.37), which the API server
// uses to answer `kubectl get pods`. Ported, not imported: that package pulls in all of
// Kubernetes. Native sidecars count as containers once started; their exit does not end init.
func podStatus(pod *corev1.Pod) string {
	reason := string(pod.Status.Phase)
	if pod.Status.Reason != "" {
		reason = pod.Status.Reason
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Reason == corev1.PodReasonSchedulingGated {
			reason = corev1.PodReasonSchedulingGated
		}
	}
	initContainers := newByName(pod.Spec.InitContainers, containerName)
	initializing := false
	for i, cs := range pod.Status.InitContainerStatuses {
		sidecar := isSidecar(initContainers.of(cs.Name))
		switch {
		case cs.State.Terminated != nil && cs.State.Terminated.ExitCode == 0:
			continue
		case sidecar && cs.Started != nil && *cs.Started:
			continue
		case cs.State.Terminated != nil:
			switch {
			case cs.State.Terminated.Reason != "":
				reason = "Init:" + cs.State.Terminated.Reason
			case cs.State.Terminated.Signal != 0:
				reason = fmt.Sprintf("Init:Signal:%d", cs.State.Terminated.Signal)
			default:
				reason = fmt.Sprintf("Init:ExitCode:%d", cs.State.Terminated.ExitCode)
			}
			initializing = true
		case cs.State.Waiting != nil && cs.State.Waiting.Reason != "" && cs.State.Waiting.Reason != "PodInitializing":
			reason = "Init:" + cs.State.Waiting.Reason
			initializing = true
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(pod.Spec.InitContainers))
			initializing = true
		}
		break
	}
	if !initializing || podInitialized(pod) {
		hasRunning := false
		errorReason := ""
		for i := len(pod.Status.ContainerStatuses) - 1; i >= 0; i-- {
			cs := pod.Status.ContainerStatuses[i]
			switch {
			case cs.State.Waiting != nil && cs.State.Waiting.Reason != "":
				reason = cs.State.Waiting.Reason
			case cs.State.Terminated != nil:
				switch {
				case cs.State.Terminated.Reason != "":
					reason = cs.State.Terminated.Reason
				case cs.State.Terminated.Signal != 0:
					reason = fmt.Sprintf("Signal:%d", cs.State.Terminated.Signal)
				default:
					reason = fmt.Sprintf("ExitCode:%d", cs.State.Terminated.ExitCode)
				}
				if cs.State.Terminated.ExitCode != 0 {
					errorReason = reason
				}
			case cs.Ready && cs.State.Running != nil:
				hasRunning = true
			}
		}
		if reason == "Completed" {
			switch {
			case hasRunning && podReady(pod):
				reason = "Running"
			case errorReason != "":
				reason = errorReason
			case hasRunning:
				reason = "NotReady"
			}
		}
	}
	terminal := pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed
	switch {
	case pod.DeletionTimestamp != nil && pod.Status.Reason == "NodeLost":
		reason = "Unknown"
	case pod.DeletionTimestamp != nil && !terminal:
		reason = "Terminating"
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
