//go:build linux

package main

import (
	"context"
	"log"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// nodeName is the Node the benchmark's pods are bound to. No kubelet runs for it: the pods
// never run, and the benchmark writes their statuses through pods/status as a kubelet would.
const nodeName = "scale-node"

// makeNode registers the node, Ready, with what a kubelet reports of itself, and keeps it
// Ready by renewing its Lease as a kubelet's heartbeat does (every 10 s) until ctx ends. Without
// the heartbeat the node lifecycle controller marks the node NotReady after its grace period
// and then every pod on it not ready: 20,000 status writes the benchmark did not ask for.
func makeNode(ctx context.Context, c kubernetes.Interface) error {
	// Tainted NoSchedule: the scheduler would otherwise bind other tests' pods to a node that runs
	// nothing (the benchmark's own pods are bound already, and tolerate everything).
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: nodeName, Labels: map[string]string{
		"kubernetes.io/hostname": nodeName, "kubernetes.io/os": "linux", "sidecar-top.dev/scale": "yes"}},
		Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "sidecar-top.dev/scale", Effect: corev1.TaintEffectNoSchedule}}}}
	if _, err := c.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	// The node lifecycle controller writes the new node too: take its changes and try again.
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error { return nodeReady(ctx, c) }); err != nil {
		return err
	}
	if err := renewLease(ctx, c); err != nil {
		return err
	}
	go func() {
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := renewLease(ctx, c); err != nil && ctx.Err() == nil {
					log.Printf("renewing %s's lease: %v", nodeName, err)
				}
			}
		}
	}()
	return nil
}

// nodeReady writes the node's status: Ready, with room for every pod.
func nodeReady(ctx context.Context, c kubernetes.Interface) error {
	n, err := c.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	now := metav1.Now()
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue,
		Reason: "KubeletReady", Message: "kubelet is posting ready status", LastHeartbeatTime: now, LastTransitionTime: now}}
	n.Status.Capacity = corev1.ResourceList{corev1.ResourcePods: mustQuantity("100000"),
		corev1.ResourceCPU: mustQuantity("1000"), corev1.ResourceMemory: mustQuantity("4Ti")}
	n.Status.Allocatable = n.Status.Capacity
	_, err = c.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{})
	return err
}

// renewLease is a kubelet's heartbeat: the node's Lease in kube-node-lease, renewed now.
func renewLease(ctx context.Context, c kubernetes.Interface) error {
	leases := c.CoordinationV1().Leases(corev1.NamespaceNodeLease)
	now := metav1.NewMicroTime(time.Now())
	l, err := leases.Get(ctx, nodeName, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = leases.Create(ctx, &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: nodeName},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr(nodeName), LeaseDurationSeconds: ptr(int32(40)), RenewTime: &now}},
			metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return err
	}
	l.Spec.RenewTime = &now
	_, err = leases.Update(ctx, l, metav1.UpdateOptions{})
	return err
}

// dropNode deletes the node and its Lease.
func dropNode(ctx context.Context, c kubernetes.Interface) {
	_ = c.CoordinationV1().Leases(corev1.NamespaceNodeLease).Delete(ctx, nodeName, metav1.DeleteOptions{})
	_ = c.CoreV1().Nodes().Delete(ctx, nodeName, metav1.DeleteOptions{})
}

func ptr[T any](v T) *T { return &v }
