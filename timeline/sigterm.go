package timeline

import (
	"sort"
	"time"
)

// crossLane adds what one lane's milestones owe to others: the bound a next container's first
// Event puts on a sidecar's started, and the SIGTERM of sidecars, which nobody reports.
func (d *deriver) crossLane(ps *podState, lanes []*passLane, deleting *Milestone) {
	d.boundStartedByNext(lanes)
	for i := len(lanes) - 1; i >= 0; i-- {
		if lanes[i].kind() == KindSidecar {
			d.inferSidecarSigterm(ps, lanes, i, deleting)
		}
	}
}

// boundStartedByNext: the kubelet starts the container after a sidecar only once the sidecar has
// started, so the next container's first Event (Pulled, Created, Started) bounds started above.
// The kubelet may report started=true in the status after that Event arrives.
func (d *deriver) boundStartedByNext(lanes []*passLane) {
	for i, l := range lanes {
		if l.kind() != KindSidecar {
			continue
		}
		next := nextLane(lanes, i)
		if next == nil {
			continue
		}
		first := firstEventOf(next.ls)
		if first == nil {
			continue
		}
		// The run whose started let the next container start: the last that may have started by
		// then (a sidecar whose startup probe killed its first run starts the app in a later one).
		var m *Milestone
		var run int32
		// Runs are in time order: read back from the first that began after the Event.
		from := sort.Search(len(l.runs), func(j int) bool {
			ms := l.runs[j].Milestones
			return len(ms) > 0 && ms[0].Earliest.After(first.when.hi)
		})
		for j := from - 1; j >= 0 && m == nil; j-- {
			if s := l.find(MStarted, l.runs[j].Attempt); s != nil && !s.Earliest.After(first.when.hi) {
				m, run = s, l.runs[j].Attempt
			}
		}
		if m == nil || !first.when.hi.Before(m.Latest) {
			continue
		}
		if s := l.find(startKind(run), run); s != nil && first.when.hi.Before(s.At) {
			continue // evidence no kubelet makes: the next container's Event before this run began
		}
		d.boundStartedBefore(l, run, first.when.hi, Evidence{What: "before " + next.name() + "'s first Event " + first.ev.Reason,
			NameTime: first.nameTime, API: first.api, Precision: first.apiPrec, Received: first.received,
			Note: "the kubelet starts the next container only after this one has started"})
	}
}

// firstEventOf is a lane's first Pulling, Pulled, Created or Started Event (the earliest bound
// above), not counting repeats; nil if none.
func firstEventOf(ls *laneState) *eventOcc {
	var first *eventOcc
	for _, reason := range []string{"Pulling", "Pulled", "Created", "Started"} {
		list := ls.occs[reason]
		for j := range list {
			oc := &list[j]
			if first != nil && oc.at.After(first.when.hi) {
				break // in time order, and no interval ends before its estimate
			}
			if oc.count == 1 && (first == nil || oc.when.hi.Before(first.when.hi)) {
				first = oc
			}
		}
	}
	return first
}

// inferSidecarSigterm places the SIGTERM of the sidecar lanes[i]'s last run when the pod
// stops (deleted, or all app containers done). The kubelet reports Killing for every container
// at once and runs the preStop hooks then, but signals a sidecar only after every app container
// and every sidecar declared after it has exited, or when the grace period runs out. Nobody
// outside the node sees that signal. A sidecar killed on its own (a probe) already has its SIGTERM.
//
// It reads the facts from the pass's lanes (sidecarStopOf), leaves the rules to sidecarStop's
// methods and sidecarSigterm, and writes what they place into the pass's copy of the run.
func (d *deriver) inferSidecarSigterm(ps *podState, lanes []*passLane, i int, deleting *Milestone) {
	c := lanes[i]
	run := c.lastRun()
	if run < 0 || c.find(MSigterm, run) != nil {
		return
	}
	f := sidecarStopOf(ps, lanes, i, run, deleting)
	if !f.due() {
		return
	}
	began, ok := stopBegan(f.kill, deleting)
	if !ok {
		if f.ended && f.exit != nil {
			sigtermAtEnd(ps, lanes, i, run, f.end, f.exit) // nothing says when it began to stop
		}
		return
	}
	if m, ok := d.sidecarSigterm(&f, began, graceOf(ps, began.iv)); ok {
		addSigterm(c, run, m)
	}
}

// sidecarStop is what the kubelet's rules read to place the SIGTERM of a sidecar's last run as
// its pod stops: the run's own milestones and Killing Event, and the containers it waits for.
type sidecarStop struct {
	name        string
	run         int32
	start, exit *Milestone   // the run's start (or restart) and exit, nil if not seen
	kill        *eventOcc    // its last Killing Event filed under the run, not before it began
	prereqs     []*Milestone // the exits it waits for (sidecarPrereqs)
	pending     bool         // one it waits for has not exited
	stopping    bool         // the pod is deleted, what it waits for has exited, or the apps are done
	ended       bool         // the pod ended on its own, as end says
	end         podEnd
	hasPreStop  bool
}

// sidecarStopOf reads the facts of the sidecar lanes[i]'s run from the pass's lanes.
func sidecarStopOf(ps *podState, lanes []*passLane, i int, run int32, deleting *Milestone) sidecarStop {
	c := lanes[i]
	f := sidecarStop{name: c.name(), run: run, start: c.find(startKind(run), run), exit: c.find(MExit, run),
		hasPreStop: c.ls.spec.HasPreStop}
	f.kill = lastKillingSince(c.ls.cache.occsOf("Killing", c.ls.occs["Killing"], run), f.start) // those filed under the run
	f.prereqs, f.pending = sidecarPrereqs(lanes, i, f.kill, ps.deletion == nil)
	f.stopping = ps.deletion != nil || (len(f.prereqs) > 0 && !f.pending) || appsDone(lanes)
	if !f.stopping || (f.kill == nil && deleting == nil) {
		f.end, f.ended = podEndOf(ps, lanes) // it ended on its own: a failed init container, a Job's pod, a deadline
	}
	return f
}

// lastKillingSince is the last of killing (in time order) not before the run that began at
// start did, or nil.
func lastKillingSince(killing []eventOcc, start *Milestone) *eventOcc {
	for j := len(killing) - 1; j >= 0; j-- {
		if start == nil || !killing[j].when.hi.Before(start.Earliest) {
			return &killing[j]
		}
	}
	return nil
}

// due reports whether the kubelet has signalled the sidecar by now: the pod stops or ended, and
// something (its Killing, its exit) shows the stop reached it, and it does not still wait for
// containers that are running.
func (f *sidecarStop) due() bool {
	if !(f.stopping || f.ended) || (f.kill == nil && f.exit == nil) {
		return false
	}
	return !f.pending || f.exit != nil
}

// sidecarSigterm is the SIGTERM of the sidecar f when its pod began to stop as began says, with
// grace as its grace period: at its turn, once the last container it waits for has exited (or
// when the grace period ran out if one never did), right after it without a preStop hook, not
// before its run began and not after it exited. ok is false when it was not signalled by this
// stop: its run began after the signal's latest, or it exited before its turn.
func (d *deriver) sidecarSigterm(f *sidecarStop, began stopStart, grace time.Duration) (m Milestone, ok bool) {
	iv, at, ev := d.sidecarTurn(f, began, grace)
	if f.start != nil {
		// A run that began while the pod was stopping is signalled no sooner than it began, and
		// not for this stop at all if it began after the latest the signal could have come.
		j, ok := iv.tighten(f.start.Earliest, time.Time{})
		if !ok || j.hi.Before(f.start.At) {
			return Milestone{}, false
		}
		iv, at = j, later(at, f.start.At)
	}
	if f.exit != nil {
		if f.exit.Latest.Before(iv.lo) {
			return Milestone{}, false // it exited before its turn came: on its own, not signalled
		}
		iv = d.bound(iv, time.Time{}, f.exit.Latest)
	}
	if f.hasPreStop {
		at = later(at, iv.mid()) // the hook took some time no one reports
	}
	m = Milestone{Kind: MSigterm, Container: f.name, Attempt: f.run,
		At: iv.clamp(at), Earliest: iv.lo, Latest: iv.hi, Source: SourceInferred, Evidence: ev,
		Message: "inferred: not reported by the API",
		Why:     "the kubelet signals a sidecar after the app containers and the sidecars declared after it have exited"}
	if f.pending {
		m.Why = "a container it waits for never exited: signalled when the grace period ran out"
	}
	return m, true
}

// sidecarTurn is when the sidecar f's turn to be signalled came, from when the pod began to stop
// and the exits it waits for, with the evidence: no later than the grace period allows, and
// right after the last exit (or Killing) when no preStop hook runs first.
func (d *deriver) sidecarTurn(f *sidecarStop, began stopStart, grace time.Duration) (iv interval, at time.Time, ev []Evidence) {
	killIv := began.iv
	at, ev = began.at, began.ev
	// Its turn comes when the last of the containers it waits for has exited.
	var turn interval
	for _, pr := range f.prereqs {
		turn.lo, turn.hi = later(turn.lo, pr.Earliest), later(turn.hi, pr.Latest)
		at = later(at, pr.At)
		ev = append(ev, Evidence{What: "after " + pr.Container + " exited", API: pr.At,
			Note: "sidecars stop after app containers, then in reverse order of definition"})
	}
	iv = interval{lo: killIv.lo, hi: killIv.hi.Add(grace + second + signalAllowance)} // the turn is not waited for longer
	switch {
	case f.pending:
		// One of them never exited: signalled when the grace period ran out.
		iv = d.bound(iv, killIv.lo.Add(max(grace-second, 0)), time.Time{})
	case len(f.prereqs) > 0:
		iv = d.bound(iv, earlier(turn.lo, killIv.lo.Add(max(grace-second, 0))), time.Time{})
	}
	if !f.pending && !f.hasPreStop {
		// Signalled as soon as its turn came, right after Killing if it came before.
		hi := killIv.hi.Add(signalAllowance)
		if len(f.prereqs) > 0 {
			hi = later(hi, turn.hi.Add(turnAllowance))
		}
		iv = d.bound(iv, time.Time{}, hi)
	}
	return iv, at, ev
}

// addSigterm adds m, a SIGTERM, to the pass's copy of the sidecar c's run, and places the run's
// exit after it.
func addSigterm(c *passLane, run int32, m Milestone) {
	exitAfter(findMilestone(c.edit(run), MExit, run), &m)
	c.add(run, m)
}

// stopStart is when the pod began to stop for a sidecar, and the evidence that says so.
type stopStart struct {
	iv interval
	at time.Time
	ev []Evidence
}

// stopBegan is when the pod began to stop, as the sidecar's Killing Event says, else the
// deletion request; ok is false when neither does.
func stopBegan(kill *eventOcc, deleting *Milestone) (s stopStart, ok bool) {
	switch {
	case kill != nil:
		ev := []Evidence{kill.evidence(kill.ev.Reason)}
		ev[0].Note = "the kubelet reports Killing for a sidecar when the pod starts to stop, before it signals it"
		return stopStart{kill.when, kill.at, ev}, true
	case deleting != nil:
		ev := []Evidence{{What: "deletion requested", Note: "no Killing Event seen"}}
		return stopStart{interval{deleting.Earliest, deleting.Latest}, deleting.At, ev}, true
	}
	return stopStart{}, false
}

// sidecarPrereqs are the exits a sidecar waits for when the pod stops: of app containers that
// were running when it began, and of later sidecars. pending says one of them has not exited.
// When the pod was not deleted, an app container the kubelet did not stop exited on its own,
// which is why the pod ended (a Job's pod completed): it is before the sidecar's Killing, and not
// waited for. One the kubelet stopped (it has a SIGTERM: a deadline, the kubelet's eviction) is.
func sidecarPrereqs(lanes []*passLane, i int, kill *eventOcc, notDeleted bool) (exits []*Milestone, pending bool) {
	for j, c := range lanes {
		if !(c.kind() == KindApp || (c.kind() == KindSidecar && j > i)) {
			continue
		}
		run := c.lastRun()
		if run < 0 || (notDeleted && c.kind() == KindApp && c.find(MSigterm, run) == nil) {
			continue
		}
		exit := c.find(MExit, run)
		switch {
		case exit == nil:
			pending = true
		case kill == nil || !exit.Latest.Before(kill.when.lo) || c.kind() == KindSidecar:
			exits = append(exits, exit)
		}
	}
	return exits, pending
}

// appsDone reports whether every app container's last run has exited.
func appsDone(lanes []*passLane) bool {
	any := false
	for _, c := range lanes {
		if c.kind() != KindApp {
			continue
		}
		any = true
		if run := c.lastRun(); run < 0 || c.find(MExit, run) == nil {
			return false
		}
	}
	return any
}

func latestLatest(ms []*Milestone) time.Time {
	var t time.Time
	for _, m := range ms {
		t = later(t, m.Latest)
	}
	return t
}

func latestEarliest(ms []*Milestone) time.Time {
	var t time.Time
	for _, m := range ms {
		t = later(t, m.Earliest)
	}
	return t
}

func findMilestone(ms []Milestone, kind MilestoneKind, attempt int32) *Milestone {
	for i := range ms {
		if ms[i].Kind == kind && ms[i].Attempt == attempt {
			return &ms[i]
		}
	}
	return nil
}

// nextLane is the lane the kubelet starts after lanes[i]: the next init container, or after the
// last one the first app container.
func nextLane(lanes []*passLane, i int) *passLane {
	for j := i + 1; j < len(lanes); j++ {
		k := lanes[j].kind()
		if k == KindInit || k == KindSidecar || k == KindApp {
			return lanes[j]
		}
	}
	return nil
}
