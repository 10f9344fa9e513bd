package timeline

import (
	"sort"
	"time"
)

// laneState is what the Builder keeps of one container: its spec and every run (instance) seen.
type laneState struct {
	spec      ContainerObservation // the latest, Status cleared
	instances []*instance          // by attempt
	waits     []waitChange
	last      string // the last state seen, e.g. "waiting/CrashLoopBackOff", "running/<id>"
	status    *ContainerStatus
}

// instance is one run of a container: one container ID, one attempt.
type instance struct {
	attempt    int32
	id         string
	startedAt  time.Time // API, whole seconds
	run        *seen     // first seen running (or terminated, if never seen running)
	term       *Terminated
	termSeen   *seen
	started    []flagChange
	ready      []flagChange
	lastReady  bool
	lastStartd bool
}

type flagChange struct {
	value bool
	seen
}

type waitChange struct {
	reason, message string
	attempt         int32
	seen
}

func (ls *laneState) observe(c *ContainerObservation, s seen) {
	spec := *c
	spec.Status = nil
	ls.spec = spec
	cs := c.Status
	if cs == nil {
		return
	}
	ls.status = cs
	if lt := cs.LastTerminated; lt != nil {
		attempt := cs.RestartCount
		if cs.Running != nil || cs.Terminated != nil {
			attempt--
		}
		if attempt >= 0 {
			in := ls.instance(lt.ContainerID, attempt)
			in.sawRun(lt.StartedAt, s)
			in.sawTerminated(lt, s)
		}
	}
	switch {
	case cs.Running != nil:
		id := cs.Running.ContainerID
		if id == "" {
			id = cs.ContainerID
		}
		in := ls.instance(id, cs.RestartCount)
		in.sawRun(cs.Running.StartedAt, s)
		in.sawFlags(cs, s)
		ls.last = "running/" + id
	case cs.Terminated != nil:
		id := cs.Terminated.ContainerID
		if id == "" {
			id = cs.ContainerID
		}
		in := ls.instance(id, cs.RestartCount)
		in.sawRun(cs.Terminated.StartedAt, s)
		in.sawTerminated(cs.Terminated, s)
		ls.last = "terminated/" + id
	case cs.Waiting != nil:
		state := "waiting/" + cs.Waiting.Reason
		if ls.last != state {
			next := cs.RestartCount // the run it waits for
			if cs.LastTerminated != nil {
				next++
			}
			ls.waits = append(ls.waits, waitChange{cs.Waiting.Reason, cs.Waiting.Message, next, s})
			ls.last = state
		}
	}
}

// instance finds the run with this container ID (or, without one, this attempt), adding it.
func (ls *laneState) instance(id string, attempt int32) *instance {
	for _, in := range ls.instances {
		if (id != "" && in.id == id) || (in.attempt == attempt && (id == "" || in.id == "")) {
			if in.id == "" {
				in.id = id
			}
			return in
		}
	}
	in := &instance{attempt: attempt, id: id}
	ls.instances = append(ls.instances, in)
	sort.SliceStable(ls.instances, func(i, j int) bool { return ls.instances[i].attempt < ls.instances[j].attempt })
	return in
}

func (in *instance) sawRun(startedAt time.Time, s seen) {
	if in.startedAt.IsZero() {
		in.startedAt = startedAt
	}
	if in.run == nil {
		in.run = &s
	}
}

func (in *instance) sawTerminated(t *Terminated, s seen) {
	if in.term == nil {
		tc := *t
		in.term, in.termSeen = &tc, &s
	}
}

func (in *instance) sawFlags(cs *ContainerStatus, s seen) {
	started := cs.Started != nil && *cs.Started
	if started != in.lastStartd {
		in.started = append(in.started, flagChange{started, s})
		in.lastStartd = started
	}
	if cs.Ready != in.lastReady {
		in.ready = append(in.ready, flagChange{cs.Ready, s})
		in.lastReady = cs.Ready
	}
}
