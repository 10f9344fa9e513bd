//go:build linux

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// churn writes rate pod status updates a second for d, as kubelets do when readiness probes
// flap: a random pod's app goes not ready, or ready again, with its pod's Ready and
// ContainersReady conditions, through pods/status. It returns how many it wrote.
func churn(ctx context.Context, c kubernetes.Interface, s shape, pods, rate int, d time.Duration) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	work := make(chan int, rate)
	go func() { // the pace: rate/100 updates every 10 ms
		defer close(work)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		r := rand.New(rand.NewPCG(1, 2))
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				for range max(1, rate/100) {
					select {
					case work <- r.IntN(pods):
					default: // the API server is behind: this update is not written
					}
				}
			}
		}
	}()
	var wrote atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for i := range work {
				if err := flap(ctx, c, s, i); err != nil && ctx.Err() == nil {
					once.Do(func() { firstErr = fmt.Errorf("pod %s: %w", s.name(i), err) })
					continue
				}
				wrote.Add(1)
			}
		})
	}
	wg.Wait()
	return int(wrote.Load()), firstErr
}

// flap turns pod i's readiness over: ready pods become not ready and the other way round,
// decided by the second, so that each update changes something.
func flap(ctx context.Context, c kubernetes.Interface, s shape, i int) error {
	now := time.Now().UTC()
	ready := now.Unix()%2 == 0
	st := "False"
	if ready {
		st = "True"
	}
	at := now.Format(time.RFC3339)
	patch := fmt.Sprintf(`{"status":{"conditions":[{"type":"Ready","status":%q,"lastTransitionTime":%q},`+
		`{"type":"ContainersReady","status":%q,"lastTransitionTime":%q}],"containerStatuses":[{"name":"app","ready":%t}]}}`,
		st, at, st, at, ready)
	_, err := c.CoreV1().Pods(s.namespace(i)).Patch(ctx, s.name(i), types.StrategicMergePatchType, []byte(patch),
		metav1.PatchOptions{}, "status")
	return err
}
