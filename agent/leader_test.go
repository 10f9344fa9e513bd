package agent

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

// TestElection: of two replicas on one Lease, one leads and the other stands by; when the
// leader stops, it gives the Lease up and the other leads, well within the Lease's duration.
func TestElection(t *testing.T) {
	client := fake.NewClientset()
	e := Election{Namespace: "mon", Name: "sidecar-top-agent", LeaseDuration: 3 * time.Second, RenewDeadline: 2 * time.Second, RetryPeriod: 100 * time.Millisecond}
	start := func(id string) (*Agent, context.CancelFunc, chan error) {
		a := New(Config{MaxOwners: 1, Log: quiet(t)}, NewMetrics("test"))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		e := e
		e.Identity = id
		go func() { done <- Elect(ctx, client, e, a) }()
		return a, cancel, done
	}
	first, stopFirst, firstDone := start("first")
	waitFor(t, "the first replica to lead", first.Leader)
	second, stopSecond, secondDone := start("second")
	defer func() { stopSecond(); <-secondDone }()
	time.Sleep(500 * time.Millisecond)
	if second.Leader() {
		t.Fatal("two replicas lead at once")
	}
	stopped := time.Now()
	stopFirst()
	if err := <-firstDone; err != nil {
		t.Fatal(err)
	}
	if first.Leader() {
		t.Error("the stopped replica still says it leads")
	}
	waitFor(t, "the second replica to lead", second.Leader)
	if took := time.Since(stopped); took >= e.LeaseDuration {
		t.Errorf("the second replica led %s after the first stopped: the Lease was not given up", took)
	}
	lease, err := client.CoordinationV1().Leases("mon").Get(context.Background(), "sidecar-top-agent", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if h := lease.Spec.HolderIdentity; h == nil || *h != "second" {
		t.Errorf("the Lease's holder is %v, want second", h)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
