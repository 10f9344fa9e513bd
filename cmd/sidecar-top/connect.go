package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/watch"
)

// connect makes sure the API server answers, checks that the watch can work (watch.Preflight)
// and starts the informers, all within ctx, which record's --timeout bounds. A server that does
// not answer in time is reported with the time really waited, whichever limit ran out: the
// --timeout, watch.PreflightTimeout, --request-timeout, or client-go's 10 s for a TLS handshake.
// (watch.Explain words any timeout as watch.PreflightTimeout; so the first request is made here,
// where its error is still whole.)
func connect(ctx context.Context, client kubernetes.Interface, t watch.Target, host string, recording bool) (string, *watch.Live, error) {
	return connectWith(ctx, client, t, host, watch.LiveOptions{Recording: recording}, nil)
}

// connectWith is connect with the Live's options; setup, if set, adjusts them once the server
// has answered and the watch can work (the logs' access checks, logs.go).
func connectWith(ctx context.Context, client kubernetes.Interface, t watch.Target, host string, opts watch.LiveOptions, setup func(context.Context, *watch.LiveOptions)) (string, *watch.Live, error) {
	start := time.Now()
	// explain words err, which ended a step run under ctx; worded is how watch says it.
	explain := func(ctx context.Context, err, worded error) error {
		var nerr net.Error
		switch {
		case errors.Is(ctx.Err(), context.Canceled):
			return fmt.Errorf("interrupted while connecting to the API server at %s", host)
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			deadline, _ := ctx.Deadline()
			return fmt.Errorf("the API server at %s did not answer within %s", host, waited(deadline.Sub(start)))
		case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &nerr) && nerr.Timeout():
			return fmt.Errorf("the API server at %s did not answer within %s", host, waited(time.Since(start)))
		}
		return worded
	}
	probe, cancel := context.WithTimeout(ctx, watch.PreflightTimeout)
	defer cancel()
	if _, err := client.Discovery().ServerVersionWithContext(probe); err != nil {
		return "", nil, explain(probe, err, watch.Explain(err, host))
	}
	serverVersion, err := watch.Preflight(ctx, client, t, host)
	if err != nil {
		return "", nil, explain(ctx, err, err)
	}
	if setup != nil {
		setup(ctx, &opts)
	}
	scopeHeap(t)
	// Not recording, the informers keep only what translation reads.
	live := watch.NewLiveWithOptions(client, t, opts)
	if err := live.Start(ctx); err != nil {
		return "", nil, explain(ctx, err, watch.Explain(err, host))
	}
	return serverVersion, live, nil
}

// waited is a time waited, as a message states it: to the second from 2 s, else to the tenth.
func waited(d time.Duration) time.Duration {
	if d >= 2*time.Second {
		return d.Round(time.Second)
	}
	return d.Round(100 * time.Millisecond)
}
