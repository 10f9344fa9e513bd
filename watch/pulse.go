package watch

import (
	"context"
	"errors"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// A watch that receives nothing cannot tell a quiet target from a server that stopped answering
// (a process stopped, a network that drops packets, a load balancer that holds the connection):
// its connection stays open. So a Live asks the server for its version every PulseInterval, and
// counts that answer, or any item received, as a sign of life. Silent says how long it has been
// without one; the player shows the view as stale past StaleAfter.
const (
	PulseInterval = 2 * time.Second
	// pulseTimeout bounds one question; an unanswered one is asked again.
	pulseTimeout = 10 * time.Second
	// StaleAfter is the silence after which the watch is said to be stale: more than twice
	// PulseInterval, so that one slow answer does not count.
	StaleAfter = 5 * time.Second
)

// pulse is when the API server last answered: by this machine's clock, with its monotonic
// reading, for the length of a silence; and as a receive time, for the note that tells of one.
type pulse struct {
	mu     sync.Mutex
	last   time.Time
	lastAt time.Time
}

// answered records an answer when the clock read now, received at at. If the silence before it
// was long enough to be called stale, it returns the note that says so; it is enqueued by the
// caller, in order.
func (p *pulse) answered(now, at time.Time) *Note {
	p.mu.Lock()
	defer p.mu.Unlock()
	since, sinceAt := p.last, p.lastAt
	if !now.After(p.last) {
		return nil
	}
	p.last, p.lastAt = now, at
	if since.IsZero() || now.Sub(since) < StaleAfter {
		return nil
	}
	n := NewNote(NoAnswer, "")
	n.Since, n.Until = sinceAt, at
	return n
}

// silent is how long the server has not answered at now.
func (p *pulse) silent(now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last.IsZero() || !now.After(p.last) {
		return 0
	}
	return now.Sub(p.last)
}

// Silent is how long the API server has not answered: zero while it answers within
// PulseInterval or so.
func (l *Live) Silent() time.Duration { return l.pulse.silent(time.Now()) }

// beat asks the server for its version until ctx ends. Any answer counts, an error status too:
// only a server that answers can refuse.
func (l *Live) beat(ctx context.Context) {
	for {
		ask, cancel := context.WithTimeout(ctx, pulseTimeout)
		_, err := l.client.Discovery().ServerVersionWithContext(ask)
		cancel()
		if ctx.Err() != nil {
			return
		}
		var st apierrors.APIStatus
		if err == nil || errors.As(err, &st) {
			l.mu.Lock()
			l.answer()
			l.mu.Unlock()
		}
		if !sleep(ctx, PulseInterval) {
			return
		}
	}
}

// answer records that the server answered now, and says so in a note after a long silence;
// l.mu is held.
func (l *Live) answer() {
	if n := l.pulse.answered(time.Now(), l.now()); n != nil {
		l.q.put(entry{item: Item{Time: n.Until, Type: timeline.Added, Object: n}})
	}
}
