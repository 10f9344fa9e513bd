package agent

import (
	"time"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/source"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// tombstone is what the agent keeps of a pod it has forgotten: that it was done with it, so
// that the pod brought back (a relist, a late update, its late Events) is not taken for new.
type tombstone struct {
	deleted bool      // the pod is gone from the API: nothing of it but late Events will come
	at      time.Time // when it was forgotten
}

// tombstoneGrace is how long a deleted pod's UID is kept, at least, once forgotten: its late
// Events, and a watch relisted from before its deletion, may still bring it back.
const tombstoneGrace = 10 * time.Minute

// forget lets go of the pods final for KeepFinished or more: the engine forgets their
// timelines and the agent keeps their UIDs only. A deleted pod's UID goes after KeepFinished
// more (tombstoneGrace at least); an undeleted one's when the API deletes the pod.
func (a *Agent) forget(now time.Time) {
	var uids []string
	for uid, t := range a.pods {
		if t.done && now.Sub(t.doneAt) >= a.cfg.KeepFinished {
			uids = append(uids, uid)
			a.tombs[uid] = tombstone{deleted: t.pod.Deleted, at: now}
			delete(a.pods, uid)
		}
	}
	a.e.Forget(uids...)
	for uid, tb := range a.tombs {
		if tb.deleted && now.Sub(tb.at) >= max(a.cfg.KeepFinished, tombstoneGrace) {
			delete(a.tombs, uid)
		}
	}
}

// filtered is the feed with what is about a forgotten pod left out, before the engine.
type filtered struct {
	*source.Feed
	tombs map[string]tombstone // the agent's; read and written on Run's goroutine only
}

var _ play.Observer = filtered{}

// Observe is the feed's observation, unless it is about a forgotten pod. The pod's deletion
// ends its tombstone: the API will not bring it back.
func (f filtered) Observe(in play.Input) (timeline.Observation, bool) {
	o, ok := f.Feed.Observe(in)
	if !ok || len(f.tombs) == 0 {
		return o, ok
	}
	switch {
	case o.Pod != nil:
		if _, gone := f.tombs[o.Pod.UID]; gone {
			if o.Type == timeline.Deleted {
				delete(f.tombs, o.Pod.UID)
			}
			return o, false
		}
	case o.Event != nil:
		if _, gone := f.tombs[o.Event.InvolvedUID]; gone && o.Event.InvolvedKind == "Pod" {
			return o, false
		}
	}
	return o, ok
}
