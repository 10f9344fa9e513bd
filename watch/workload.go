package watch

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// workloadSelector is the label selector of a workload target's pods: its spec.selector, read
// once when the watch starts (a workload's selector is immutable).
func workloadSelector(ctx context.Context, client kubernetes.Interface, t Target) (string, error) {
	apps := client.AppsV1()
	var sel *metav1.LabelSelector
	var err error
	switch t.Kind {
	case TargetDeployment:
		d, e := apps.Deployments(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
		if err = e; err == nil {
			sel = d.Spec.Selector
		}
	case TargetStateful:
		s, e := apps.StatefulSets(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
		if err = e; err == nil {
			sel = s.Spec.Selector
		}
	case TargetDaemonSet:
		d, e := apps.DaemonSets(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
		if err = e; err == nil {
			sel = d.Spec.Selector
		}
	case TargetReplicaSet:
		r, e := apps.ReplicaSets(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
		if err = e; err == nil {
			sel = r.Spec.Selector
		}
	default:
		return "", fmt.Errorf("%s is not a workload", t)
	}
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", t.Kind, t.Name, err)
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return "", fmt.Errorf("%s %s has a bad selector: %w", t.Kind, t.Name, err)
	}
	return s.String(), nil
}

// workloadResource is the resource Preflight asks to get for a workload target.
func workloadResource(k TargetKind) string {
	switch k {
	case TargetStateful:
		return "statefulsets"
	case TargetDaemonSet:
		return "daemonsets"
	case TargetReplicaSet:
		return "replicasets"
	}
	return "deployments"
}
