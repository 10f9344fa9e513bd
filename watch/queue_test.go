package watch

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQueueFIFO(t *testing.T) {
	q := newQueue[int]()
	for i := range 5 {
		q.put(i)
	}
	var got []int
	for range 5 {
		v, err := q.get(context.Background())
		if err != nil {
			t.Fatalf("get: %v", err)
		}
		got = append(got, v)
	}
	if diff := cmp.Diff([]int{0, 1, 2, 3, 4}, got); diff != "" {
		t.Errorf("get order mismatch (-want +got):\n%s", diff)
	}
}

// TestQueueGetBlocks checks that get waits for a put instead of returning the zero value.
func TestQueueGetBlocks(t *testing.T) {
	q := newQueue[int]()
	type result struct {
		v   int
		err error
	}
	done := make(chan result)
	go func() {
		v, err := q.get(context.Background())
		done <- result{v, err}
	}()
	q.put(42)
	if got := <-done; got.v != 42 || got.err != nil {
		t.Errorf("get = %d, %v; want 42, nil", got.v, got.err)
	}
}

func TestQueueGetCancelled(t *testing.T) {
	q := newQueue[int]()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := q.get(ctx)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("get after cancel = %v, want context.Canceled", err)
	}
}

// TestQueueConcurrent has several producers and one consumer; run it with -race. Each
// producer's items come out in the order it put them, and none is lost.
func TestQueueConcurrent(t *testing.T) {
	const producers, each = 4, 1000
	type item struct{ producer, seq int }
	q := newQueue[item]()
	var wg sync.WaitGroup
	for p := range producers {
		wg.Go(func() {
			for i := range each {
				q.put(item{p, i})
			}
		})
	}
	next := make([]int, producers)
	for range producers * each {
		it, err := q.get(context.Background())
		if err != nil {
			t.Fatalf("get: %v", err)
		}
		if it.seq != next[it.producer] {
			t.Fatalf("producer %d: got item %d, want %d", it.producer, it.seq, next[it.producer])
		}
		next[it.producer]++
	}
	wg.Wait()
}
