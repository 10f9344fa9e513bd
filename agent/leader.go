package agent

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// Election says how replicas elect their leader on a coordination.k8s.io Lease.
type Election struct {
	Namespace, Name string
	Identity        string // this replica's, unique among them (its pod's name)
	// LeaseDuration, RenewDeadline and RetryPeriod are client-go's; zero means 15 s, 10 s, 2 s.
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
}

func (e Election) withDefaults() Election {
	if e.LeaseDuration <= 0 {
		e.LeaseDuration = 15 * time.Second
	}
	if e.RenewDeadline <= 0 {
		e.RenewDeadline = 10 * time.Second
	}
	if e.RetryPeriod <= 0 {
		e.RetryPeriod = 2 * time.Second
	}
	return e
}

// Elect runs for leader until ctx ends, telling a when it leads and when it stops: a replica
// that loses the Lease stands by and runs again. When ctx ends it gives the Lease up, so that
// another replica leads at once rather than after the Lease's duration; Elect returns then.
func Elect(ctx context.Context, client kubernetes.Interface, e Election, a *Agent) error {
	e = e.withDefaults()
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: e.Namespace, Name: e.Name},
		Client:     client.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: e.Identity},
	}
	cfg := leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   e.LeaseDuration,
		RenewDeadline:   e.RenewDeadline,
		RetryPeriod:     e.RetryPeriod,
		ReleaseOnCancel: true,
		Name:            e.Name,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) {
				a.SetLeader(true)
				a.cfg.Log.Info("leading", "lease", e.Namespace+"/"+e.Name, "identity", e.Identity)
			},
			OnStoppedLeading: func() {
				a.SetLeader(false)
				a.cfg.Log.Info("standing by", "lease", e.Namespace+"/"+e.Name, "identity", e.Identity)
			},
			OnNewLeader: func(id string) {
				if id != e.Identity {
					a.cfg.Log.Info("leader", "identity", id)
				}
			},
		},
	}
	for ctx.Err() == nil {
		le, err := leaderelection.NewLeaderElector(cfg) // a new one each round: one runs once
		if err != nil {
			return fmt.Errorf("leader election: %w", err)
		}
		le.Run(ctx) // returns when the Lease is lost, or ctx ends (after giving it up)
		select {
		case <-ctx.Done():
		case <-time.After(e.RetryPeriod):
		}
	}
	return nil
}
