package watch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestPodRequests: what a pod asks of the scheduler is k8s.io/component-helpers' answer, with
// native sidecars (an init container that keeps running adds to the apps; one that exits only
// raises the init-time maximum) and overhead; a pod that names no request, limit or overhead
// asks nothing, which translation knows without asking the helpers.
func TestPodRequests(t *testing.T) {
	rl := func(cpu, mem string) corev1.ResourceList {
		l := corev1.ResourceList{}
		if cpu != "" {
			l[corev1.ResourceCPU] = resource.MustParse(cpu)
		}
		if mem != "" {
			l[corev1.ResourceMemory] = resource.MustParse(mem)
		}
		return l
	}
	ctr := func(name string, req, lim corev1.ResourceList, policy *corev1.ContainerRestartPolicy) corev1.Container {
		return corev1.Container{Name: name, Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}, RestartPolicy: policy}
	}
	mk := func(spec corev1.PodSpec) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u"}, Spec: spec}
	}
	tests := []struct {
		name     string
		pod      *corev1.Pod
		req, lim map[string]string
	}{
		{"nothing named", mk(corev1.PodSpec{
			InitContainers: []corev1.Container{ctr("proxy", nil, nil, always), ctr("init", corev1.ResourceList{}, nil, nil)},
			Containers:     []corev1.Container{ctr("app", nil, corev1.ResourceList{}, nil)}}), nil, nil},
		{"sidecar adds to the apps", mk(corev1.PodSpec{
			InitContainers: []corev1.Container{ctr("proxy", rl("100m", "64Mi"), rl("", "128Mi"), always)},
			Containers:     []corev1.Container{ctr("app", rl("250m", "128Mi"), rl("500m", "256Mi"), nil)}}),
			map[string]string{"cpu": "350m", "memory": "192Mi"}, map[string]string{"cpu": "500m", "memory": "384Mi"}},
		{"an init container raises the init-time maximum", mk(corev1.PodSpec{
			InitContainers: []corev1.Container{ctr("proxy", rl("100m", ""), nil, always), ctr("migrate", rl("1", ""), nil, nil)},
			Containers:     []corev1.Container{ctr("app", rl("250m", ""), nil, nil)}}),
			map[string]string{"cpu": "1100m"}, nil},
		{"overhead alone", mk(corev1.PodSpec{Overhead: rl("10m", "20Mi"),
			Containers: []corev1.Container{ctr("app", nil, nil, nil)}}),
			map[string]string{"cpu": "10m", "memory": "20Mi"}, nil},
	}
	for _, tt := range tests {
		got := observePod(tt.pod)
		if diff := cmp.Diff(tt.req, got.Requests); diff != "" {
			t.Errorf("%s: requests (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.lim, got.Limits); diff != "" {
			t.Errorf("%s: limits (-want +got):\n%s", tt.name, diff)
		}
	}
}
