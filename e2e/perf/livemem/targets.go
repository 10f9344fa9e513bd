//go:build linux

package main

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
)

// targetLabel marks every pod of the small target: pod x, Job x's two pods and Deployment x's
// two. `-l targetLabel=yes` selects the five of them.
const targetLabel = "perf-target"

// createNamespace makes ns and waits until pods can go in it (its default ServiceAccount).
func createNamespace(ctx context.Context, c kubernetes.Interface, ns string) error {
	_, err := c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := c.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	})
}

// targetSpec is a pod with a native sidecar and an app container, both sleeping.
func targetSpec(restart corev1.RestartPolicy) corev1.PodSpec {
	always := corev1.ContainerRestartPolicyAlways
	sleep := func(name string) corev1.Container {
		return corev1.Container{Name: name, Image: "docker.io/library/busybox:1.35", ImagePullPolicy: corev1.PullNever,
			Command: []string{"sleep", "3600"}}
	}
	sidecar := sleep("proxy")
	sidecar.RestartPolicy = &always
	return corev1.PodSpec{RestartPolicy: restart, TerminationGracePeriodSeconds: ptr(int64(1)),
		InitContainers: []corev1.Container{sidecar}, Containers: []corev1.Container{sleep("app")}}
}

// createTargets makes pod x, Job x (2 pods) and Deployment x (2 replicas), and waits until
// their five pods run.
func createTargets(ctx context.Context, c kubernetes.Interface, ns string) error {
	labels := map[string]string{targetLabel: "yes"}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "x", Labels: labels}, Spec: targetSpec(corev1.RestartPolicyAlways)}
	if _, err := c.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("pod x: %w", err)
	}
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "x"}, Spec: batchv1.JobSpec{
		Parallelism: ptr(int32(2)), Completions: ptr(int32(2)), BackoffLimit: ptr(int32(0)),
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: targetSpec(corev1.RestartPolicyNever)},
	}}
	if _, err := c.BatchV1().Jobs(ns).Create(ctx, job, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("job x: %w", err)
	}
	deployLabels := map[string]string{targetLabel: "yes", "app": "x"}
	deploy := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "x"}, Spec: appsv1.DeploymentSpec{
		Replicas: ptr(int32(2)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}},
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: deployLabels}, Spec: targetSpec(corev1.RestartPolicyAlways)},
	}}
	if _, err := c.AppsV1().Deployments(ns).Create(ctx, deploy, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("deployment x: %w", err)
	}
	return wait.PollUntilContextTimeout(ctx, time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		pods, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: targetLabel + "=yes"})
		if err != nil {
			return false, nil
		}
		running := 0
		for _, p := range pods.Items {
			if p.Status.Phase == corev1.PodRunning {
				running++
			}
		}
		return running == 5, nil
	})
}
