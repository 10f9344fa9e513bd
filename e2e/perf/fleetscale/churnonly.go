//go:build linux

package main

import (
	"context"
	"log"
	"runtime"
	"time"

	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/e2e/perf/perfproc"
)

// clusterParts are the processes of the e2e cluster a status update costs CPU in, read from
// /proc when the cluster runs on this machine.
var clusterParts = []string{"kube-apiserver", "etcd"}

// churnOnly writes the updates with nothing watching but the cluster's own controllers, and
// says what the API server and etcd spent a second and per update: whether the rate asked can
// be written on this machine at all.
func churnOnly(ctx context.Context, client kubernetes.Interface, c config, s shape) error {
	apps, err := appStatuses(ctx, client, s, s.total)
	if err != nil {
		return err
	}
	before := make([]float64, len(clusterParts))
	for i, name := range clusterParts {
		before[i], _ = perfproc.CPUOf(name)
	}
	began := time.Now()
	n, err := churn(ctx, client, s, apps, c.rate, c.churn)
	secs := time.Since(began).Seconds()
	log.Printf("%d updates written in %.1f s: %.0f a second of the %d asked; this machine has %d cores",
		n, secs, float64(n)/secs, c.rate, runtime.NumCPU())
	for i, name := range clusterParts {
		after, procs := perfproc.CPUOf(name)
		if procs == 0 || n == 0 {
			continue
		}
		used := after - before[i]
		log.Printf("  %s: %.1f CPU-s, %.2f cores, %.2f ms of CPU per update: %.1f cores at %d a second",
			name, used, used/secs, 1000*used/float64(n), used/float64(n)*float64(c.rate), c.rate)
	}
	return err
}
