package play

import (
	"sync"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Focus runs a live scope in brief mode (Options.Brief; timeline.Builder.Brief): of its pods
// only the one in focus is kept whole, the others as their briefs (with their gaps and
// findings), which is what the fleet table reads. The view sets the focus to the pod a user opens; the run derives
// that pod whole at once, in a frame of its own. Safe for use by the view and the run at once.
type Focus struct {
	mu      sync.Mutex
	uid     string
	changed chan struct{} // holds a token while a change has not been taken
}

// NewFocus returns a focus on no pod.
func NewFocus() *Focus { return &Focus{changed: make(chan struct{}, 1)} }

// Set puts the focus on the pod with this UID; "" on none.
func (f *Focus) Set(uid string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if uid == f.uid {
		return
	}
	f.uid = uid
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

// get is the pod in focus.
func (f *Focus) get() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.uid
}

// keep is brief mode's rule: a pod is kept whole if it is in focus. A pod is derived whole at
// each change, and its brief keeps its findings: a pod with findings is briefed as any other, so
// that a cluster where many pods have one (an info of a slow start) is not kept whole.
func (f *Focus) keep(p *timeline.Pod) bool { return p.UID == f.get() }

// follow has the engine derive again the pod that was in focus and the one now in focus (was is
// the first; the second is returned): the one left goes back to its brief, the one opened comes
// whole.
func (f *Focus) follow(e *Engine, was string) string {
	now := f.get()
	if now != was {
		e.Refresh(was, now)
	}
	return now
}
