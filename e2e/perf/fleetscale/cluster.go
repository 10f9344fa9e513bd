//go:build linux

package main

import (
	"context"
	"log"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/e2e/perf/perfproc"
)

// makeNamespaces makes the namespaces the pods go in.
func makeNamespaces(ctx context.Context, c kubernetes.Interface, s shape) error {
	for i := range s.namespaces {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: s.namespaceN(i)}}
		if _, err := c.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	return nil
}

// cleanup deletes the namespaces (their pods go at once: they are on a node with no kubelet, so
// they are deleted with no grace) and the node.
func cleanup(c kubernetes.Interface, s shape) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	log.Printf("deleting the benchmark's namespaces and node")
	var wg sync.WaitGroup
	for i := range s.namespaces {
		ns := s.namespaceN(i)
		wg.Go(func() {
			if err := deletePods(ctx, c, ns); err != nil {
				log.Printf("deleting the pods of %s: %v", ns, err)
			}
			_ = c.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{})
		})
	}
	wg.Wait()
	dropNode(ctx, c)
}

// deletePods deletes every pod of ns at once (grace 0: no kubelet would confirm it), one request
// a pod: a DeleteCollection of 2,000 pods outlasted the API server's request timeout.
func deletePods(ctx context.Context, c kubernetes.Interface, ns string) error {
	pods, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	zero := int64(0)
	return perfproc.Parallel(ctx, 32, len(pods.Items), "deletions in "+ns, func(ctx context.Context, i int) error {
		err := c.CoreV1().Pods(ns).Delete(ctx, pods.Items[i].Name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	})
}

// listTime is how long a bare list of every pod and every Event takes, each from the API
// server's watch cache (resourceVersion 0) as a reflector's first list does; with the count of
// pods. It is the anchor of "first full table after the list arrived".
func listTime(ctx context.Context, c kubernetes.Interface) (time.Duration, int, error) {
	began := time.Now()
	pods, err := c.CoreV1().Pods("").List(ctx, metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return 0, 0, err
	}
	if _, err := c.CoreV1().Events("").List(ctx, metav1.ListOptions{ResourceVersion: "0"}); err != nil {
		return 0, 0, err
	}
	return time.Since(began), len(pods.Items), nil
}

// namespacesGone waits until the benchmark's namespaces, deleted, are gone: pods cannot be made
// in a namespace being deleted.
func namespacesGone(ctx context.Context, c kubernetes.Interface, s shape) error {
	for i := range s.namespaces {
		ns := s.namespaceN(i)
		for {
			_, err := c.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				break
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
	}
	return nil
}
