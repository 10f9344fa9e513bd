//go:build linux

package perfproc

import (
	"context"
	"fmt"
	"log"
	"sync"
	"sync/atomic"
	"time"
)

// Parallel runs fn for 0..n-1 on workers goroutines, logs progress every 5,000, and returns
// the first error: how the scale scripts fill the cluster as fast as the API server takes it.
func Parallel(ctx context.Context, workers, n int, what string, fn func(context.Context, int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := fn(ctx, i); err != nil {
					cancel(fmt.Errorf("%s %d: %w", what, i, err))
					return
				}
				if d := done.Add(1); d%5000 == 0 {
					log.Printf("  %d/%d %s", d, n, what)
				}
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil && ctx.Err() != nil {
		return err
	}
	log.Printf("  %d %s in %.0f s", n, what, time.Since(start).Seconds())
	return nil
}
