//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// churn writes rate pod status updates a second for d, as kubelets do when readiness probes
// flap: a random pod's app goes not ready, or ready again, with its pod's Ready and
// ContainersReady conditions, through pods/status (flap). apps are the pods' app statuses
// (appStatuses), read before: the churn's time is its writes'. It returns how many it wrote.
func churn(ctx context.Context, c kubernetes.Interface, s shape, apps []corev1.ContainerStatus, rate int, d time.Duration) (int, error) {
	pods := len(apps)
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
	locks := make([]sync.Mutex, pods) // two writers never turn the same pod at once
	for range 32 {
		wg.Go(func() {
			for i := range work {
				locks[i].Lock()
				err := flap(ctx, c, s, i, &apps[i])
				locks[i].Unlock()
				if err != nil && ctx.Err() == nil {
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

// appStatuses reads each pod's app container status once, before the churn: a patch of pods/status
// replaces the whole containerStatuses list (it has no merge key), so each update carries the
// app's whole status with only its readiness turned, as a kubelet's does. A patch of
// {name, ready} alone once left the app with no state, which no kubelet writes.
func appStatuses(ctx context.Context, c kubernetes.Interface, s shape, pods int) ([]corev1.ContainerStatus, error) {
	byName := make(map[string]corev1.ContainerStatus, pods)
	for ns := range s.namespaces {
		list, err := c.CoreV1().Pods(s.namespaceN(ns)).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for _, p := range list.Items {
			for _, st := range p.Status.ContainerStatuses {
				if st.Name == "app" {
					byName[p.Namespace+"/"+p.Name] = st
				}
			}
		}
	}
	out := make([]corev1.ContainerStatus, pods)
	for i := range out {
		st, ok := byName[s.namespace(i)+"/"+s.name(i)]
		if !ok {
			return nil, fmt.Errorf("pod %s/%s has no app status to churn", s.namespace(i), s.name(i))
		}
		out[i] = st
	}
	return out, nil
}

// flap turns pod i's readiness over: a ready pod becomes not ready and the other way round, its
// app's status and the pod's Ready and ContainersReady conditions together, each condition with
// the time of the change, as a kubelet writes them. app is its app's status, which flap keeps
// as written. Deciding readiness by the clock instead once wrote a new lastTransitionTime with
// the same status (no kubelet does), and a live view took it for the Pod becoming ready again.
func flap(ctx context.Context, c kubernetes.Interface, s shape, i int, app *corev1.ContainerStatus) error {
	ready := !app.Ready
	st := "False"
	if ready {
		st = "True"
	}
	at := time.Now().UTC().Format(time.RFC3339)
	next := *app
	next.Ready = ready
	status, err := json.Marshal(next)
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`{"status":{"conditions":[{"type":"Ready","status":%q,"lastTransitionTime":%q},`+
		`{"type":"ContainersReady","status":%q,"lastTransitionTime":%q}],"containerStatuses":[%s]}}`,
		st, at, st, at, status)
	_, err = c.CoreV1().Pods(s.namespace(i)).Patch(ctx, s.name(i), types.StrategicMergePatchType, []byte(patch),
		metav1.PatchOptions{}, "status")
	if err == nil {
		*app = next
	}
	return err
}
