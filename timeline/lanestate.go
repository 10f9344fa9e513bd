package timeline

import (
	"sort"
	"strings"
	"time"
)

// laneState is what the Builder keeps of one container: its spec, every run (instance) seen, the
// waits, and its Events' occurrences by reason. It also caches what was derived from them, so
// that a new observation re-derives only the runs it touched.
type laneState struct {
	// spec is the latest, Status cleared: replaced, never changed, when it changes, so that
	// snapshots share it. Nil until the pod shows the container (its Events can come first).
	spec      *ContainerObservation
	instances []*instance // by attempt
	byID      map[string]*instance
	waits     []waitChange // in the order seen; attempts never decrease
	// waiting says the last state seen was waiting, for waitReason: a wait is noted when it
	// begins, not at every update that repeats it.
	waiting    bool
	waitReason string
	status     *ContainerStatus
	// state is stateText of the status whose stateKey is stateOf: a lane is shown at each frame
	// that derives its pod, and what the phrase says changes far less often than the status.
	stateOf stateKey
	state   string
	occs    map[string][]eventOcc // by reason, in time order
	shown   bool                  // the pod has shown this container (Events can come first)
	// list is the pod spec's list the container is in (listOf), seenIn the observation that
	// showed it last, and dup says another container of its name came first (see laneOf).
	list   ContainerKind
	seenIn int
	dup    bool

	waitsUnsorted bool // waits' attempts went back once: they are searched one by one

	oddCount countFix // how a restart count the status gave was out of range, if it was

	startupTimedOut bool // a startup probe failure said it timed out (for the findings)

	logs  map[string]*logRun             // the runs' logs, by container ID (or #attempt)
	stops map[string]*KubeletObservation // the kubelet's log of stopping a run, by container ID

	what *fieldNames // the names of its status fields, for evidence: shared by lanes of one name

	// dirtyFrom is the first attempt whose run must be derived again; noDirty when none.
	dirtyFrom int32
	// recheck is a run derived again only if its window for Started Events now files others
	// (see touchStart); noDirty when none.
	recheck int32
	cache   laneCache
	final   *laneFinal // what the final pass made last time; nil until it ran (see fin)
}

// stateText is the lane's latest state as a short phrase (see stateText).
func (ls *laneState) stateText() string {
	if k := stateKeyOf(ls.status); k != ls.stateOf || ls.state == "" {
		ls.stateOf, ls.state = k, stateText(ls.status)
	}
	return ls.state
}

// stateKey is what stateText reads of a status.
type stateKey struct {
	status, waiting, running, ready, started, terminated bool
	reason                                               string // waiting's, or terminated's
	exitCode, signal                                     int32
}

func stateKeyOf(cs *ContainerStatus) stateKey {
	if cs == nil {
		return stateKey{}
	}
	k := stateKey{status: true, waiting: cs.Waiting != nil, running: cs.Running != nil, ready: cs.Ready,
		started: cs.Started != nil && *cs.Started, terminated: cs.Terminated != nil}
	switch {
	case cs.Waiting != nil:
		k.reason = cs.Waiting.Reason
	case cs.Terminated != nil:
		k.reason, k.exitCode, k.signal = cs.Terminated.Reason, cs.Terminated.ExitCode, cs.Terminated.Signal
	}
	return k
}

// fin is what the final pass made last time, made when it first runs: a replay of a file derives
// its pods only at the end, and a Job's thousands of lanes need none until then.
func (ls *laneState) fin() *laneFinal {
	if ls.final == nil {
		ls.final = &laneFinal{}
	}
	return ls.final
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

func newLaneState() *laneState {
	return &laneState{byID: map[string]*instance{}, occs: map[string][]eventOcc{}, dirtyFrom: 0, recheck: noDirty}
}

// observe takes in the container c as a pod's update seen as s showed it: its spec, then what
// its status says of its last run, its current run and its wait.
func (ls *laneState) observe(c *ContainerObservation, s seen, names laneNames) {
	if ls.spec == nil || !sameSpec(ls.spec, c) {
		if ls.spec == nil || ls.spec.Kind != c.Kind || ls.spec.Name != c.Name {
			ls.what = names.of(c.Kind, c.Name)
		}
		spec := *c
		spec.Status = nil
		ls.spec = &spec
		ls.touch(0)
	}
	cs := c.Status
	if cs == nil {
		return
	}
	cs, fix := readCount(cs)
	ls.oddCount |= fix
	ls.status = cs
	if cs.LastTerminated != nil {
		ls.observeLastRun(cs, s)
	}
	switch {
	case cs.Running != nil:
		in := ls.instance(orID(cs.Running.ContainerID, cs.ContainerID), cs.RestartCount)
		ran, flags := in.sawRun(cs.Running.StartedAt, s), in.sawFlags(cs, s)
		switch {
		case ran:
			ls.touchStart(in)
		case flags:
			ls.touch(in.attempt)
		}
		ls.waiting = false
	case cs.Terminated != nil:
		in := ls.instance(orID(cs.Terminated.ContainerID, cs.ContainerID), cs.RestartCount)
		ls.touchSeen(in, in.sawRun(cs.Terminated.StartedAt, s), in.sawTerminated(cs.Terminated, s))
		ls.waiting = false
	case cs.Waiting != nil:
		ls.observeWait(cs, s)
	}
}

// orID is a state's container ID, else the status's.
func orID(stateID, statusID string) string {
	if stateID == "" {
		return statusID
	}
	return stateID
}

// observeLastRun takes in the run before the current one (lastState.terminated): the attempt
// before the restart count when a run is current, else the restart count's.
func (ls *laneState) observeLastRun(cs *ContainerStatus, s seen) {
	lt := cs.LastTerminated
	attempt := cs.RestartCount
	if cs.Running != nil || cs.Terminated != nil {
		attempt--
	}
	if attempt >= 0 {
		in := ls.instance(lt.ContainerID, attempt)
		ls.touchSeen(in, in.sawRun(lt.StartedAt, s), in.sawTerminated(lt, s))
	}
}

// observeWait keeps a wait when it begins or its reason changes, filed under the run it waits
// for: the restart count's, or the next after the last run.
func (ls *laneState) observeWait(cs *ContainerStatus, s seen) {
	if ls.waiting && ls.waitReason == cs.Waiting.Reason {
		return
	}
	next := cs.RestartCount // the run it waits for
	if cs.LastTerminated != nil {
		next = nextAttempt(next)
	}
	if n := len(ls.waits); n > 0 && ls.waits[n-1].attempt > next {
		ls.waitsUnsorted = true // restart counts went back: the status is odd
	}
	ls.waits = append(ls.waits, waitChange{cs.Waiting.Reason, cs.Waiting.Message, next, s})
	ls.waiting, ls.waitReason = true, cs.Waiting.Reason
	ls.touch(next)
}

// sawRun notes the run's start; it reports whether that was news.
func (in *instance) sawRun(startedAt time.Time, s seen) bool {
	changed := false
	if in.startedAt.IsZero() && !startedAt.IsZero() {
		in.startedAt, changed = startedAt, true
	}
	if in.run == nil {
		seen := s // a copy made here: taking s's address would copy it at every call
		in.run, changed = &seen, true
	}
	return changed
}

// sawTerminated notes the run's end; it reports whether that was news.
func (in *instance) sawTerminated(t *Terminated, s seen) bool {
	if in.term != nil {
		return false
	}
	tc, seen := *t, s // copies made here, not at every call (see sawRun)
	in.term, in.termSeen = &tc, &seen
	return true
}

// sawFlags notes changes of started and ready; it reports whether there were any.
func (in *instance) sawFlags(cs *ContainerStatus, s seen) bool {
	changed := false
	started := cs.Started != nil && *cs.Started
	if started != in.lastStartd {
		in.started = append(in.started, flagChange{started, s})
		in.lastStartd, changed = started, true
	}
	if cs.Ready != in.lastReady {
		in.ready = append(in.ready, flagChange{cs.Ready, s})
		in.lastReady, changed = cs.Ready, true
	}
	return changed
}

// addOcc files an Event occurrence under its reason, in time order, and marks the runs from the
// one it belongs to for derivation again.
func (ls *laneState) addOcc(oc eventOcc) {
	reason := oc.ev.Reason
	list := ls.occs[reason]
	last := len(list) == 0 || !occKey(&list[len(list)-1]).After(occKey(&oc)) // it goes at the end
	ls.occs[reason] = insertOcc(list, oc)
	if reason == "Unhealthy" && !ls.startupTimedOut && strings.HasPrefix(oc.message, "Startup probe") &&
		probeTimedOut.MatchString(oc.message) {
		ls.startupTimedOut = true
	}
	a := ls.cache.attemptAt(reason, occKey(&oc))
	if startsRun(reason) && ls.boundsRunBefore(reason, a, &oc, last) {
		a--
	}
	ls.touch(a)
}

// insertOcc puts oc in a list in order (of occKey), after every occurrence at or before it.
func insertOcc(list []eventOcc, oc eventOcc) []eventOcc {
	k := occKey(&oc)
	i := searchFromEnd(len(list), func(i int) bool { return occKey(&list[i]).After(k) })
	if len(list) == cap(list) {
		// Doubled: append grows a long list by a quarter, and a crash loop's lists of Created,
		// Started and BackOff were copied five times their length over as they grew. From one:
		// most of a Job pod's lists (its Pulled, Created, Started, Killing) have one occurrence,
		// and room for four of each (896 bytes) was an eighth of the Job's timeline.
		list = append(make([]eventOcc, 0, max(2*len(list), 1)), list...)
	}
	list = append(list, eventOcc{})
	copy(list[i+1:], list[i:])
	list[i] = oc
	return list
}

// occKey is the time an occurrence is filed by: for an Event that comes before a run starts, the
// earliest it may have happened (a whole-second Event is placed when it arrived, which can be
// after the start it came before); for the others, its estimate.
func occKey(oc *eventOcc) time.Time { return occKeyAs(oc, startsRun(oc.ev.Reason)) }

// occKeyAs is occKey for an occurrence of a reason that startsRun said of already (a list of
// one reason asks once, not at every comparison).
func occKeyAs(oc *eventOcc, starts bool) time.Time {
	if starts && !oc.when.lo.IsZero() {
		return oc.when.lo
	}
	return oc.at
}

// waitsOf are the waits before attempt a's run, in the order seen.
func (ls *laneState) waitsOf(a int32) []waitChange {
	if ls.waitsUnsorted {
		var out []waitChange
		for _, w := range ls.waits {
			if w.attempt == a {
				out = append(out, w)
			}
		}
		return out
	}
	lo := sort.Search(len(ls.waits), func(i int) bool { return ls.waits[i].attempt >= a })
	hi := sort.Search(len(ls.waits), func(i int) bool { return ls.waits[i].attempt > a })
	return ls.waits[lo:hi]
}

// appendWaitAttempts appends to out the attempts from `from` on that waits belong to.
func (ls *laneState) appendWaitAttempts(out []int32, from int32) []int32 {
	if ls.waitsUnsorted {
		for _, w := range ls.waits {
			if w.attempt >= from {
				out = append(out, w.attempt)
			}
		}
		return out
	}
	for i := len(ls.waits) - 1; i >= 0 && ls.waits[i].attempt >= from; i-- {
		out = append(out, ls.waits[i].attempt)
	}
	return out
}

// sameSpec reports whether c says what spec does, its status aside.
func sameSpec(spec, c *ContainerObservation) bool {
	s := *c
	s.Status = nil
	return s == *spec
}

// fieldNames name a container status's fields, for evidence.
type fieldNames struct{ startedAt, finishedAt, started, ready string }

// laneNames are the fieldNames of each kind and name of container, made once for every pod
// that has one: the 2,200 pods of a Job share two.
type laneNames map[laneName]*fieldNames

type laneName struct {
	kind ContainerKind
	name string
}

func (ln laneNames) of(kind ContainerKind, name string) *fieldNames {
	k := laneName{kind, name}
	if f, ok := ln[k]; ok {
		return f
	}
	field := "status." + statusField(kind) + "[" + name + "]"
	f := &fieldNames{
		startedAt:  field + ".state.running.startedAt",
		finishedAt: field + ".state.terminated.finishedAt",
		started:    field + ".started",
		ready:      field + ".ready",
	}
	ln[k] = f
	return f
}
