package timeline

import (
	"strings"
	"time"
)

// How the kubelet stops a container (kuberuntime's killContainer): it records the Killing
// Event, runs the preStop hook if there is one (at most for the grace period), waits for its turn
// if it is a sidecar of a stopping pod (after the app containers and the sidecars declared after
// it), then has the runtime send SIGTERM, and SIGKILL when the rest of the grace period is over.
// Every container of a stopping pod goes through this at once; a container killed by a failed
// probe goes through it alone.

// stopOf adds how run a stopped when the kubelet stopped it and said so (a Killing Event filed
// under the run): its preStop hook's start, and its SIGTERM, unless it is a sidecar of a stopping
// pod, whose SIGTERM waits for other lanes (the final pass infers it). ms are the run's
// milestones so far; the exit among them is moved after the SIGTERM.
func (d *deriver) stopOf(ps *podState, spec ContainerObservation, a int32, ms []Milestone, kills, fails []eventOcc, stop *KubeletObservation) []Milestone {
	if stop != nil {
		// The kubelet's own log says when it had the runtime signal the run: no need to infer.
		if spec.HasPreStop && len(kills) > 0 {
			ms = append(ms, preStopMilestone(spec, a, kills[0]))
		}
		exit := findMilestone(ms, MExit, a)
		m := kubeletSigterm(spec, a, stop)
		exitAfter(exit, &m)
		return append(ms, m)
	}
	if start := findMilestone(ms, startKind(a), a); start != nil {
		for len(kills) > 0 && kills[0].when.hi.Before(start.Earliest) {
			kills = kills[1:] // not of this run: it had not started
		}
	}
	if len(kills) == 0 {
		return ms
	}
	kill := kills[0]
	if spec.HasPreStop {
		m := preStopMilestone(spec, a, kill)
		if exit := findMilestone(ms, MExit, a); exit != nil {
			// The hook began before the signal, so before the exit.
			iv := d.bound(interval{m.Earliest, m.Latest}, time.Time{}, exit.Latest)
			m.Latest, m.At = iv.hi, iv.clamp(m.At)
		}
		ms = append(ms, m)
	}
	if spec.Kind == KindSidecar && !killedAlone(kill) {
		return ms
	}
	exit := findMilestone(ms, MExit, a)
	m := d.directSigterm(ps, spec, a, kill, fails, exit)
	return append(ms, m)
}

// killedAlone reports whether a Killing Event stops one container on its own (a failed liveness
// or startup probe, a changed spec) rather than a stopping pod, whose Killing Events say only
// "Stopping container NAME".
func killedAlone(kill eventOcc) bool { return !strings.HasPrefix(kill.message, "Stopping container") }

// preStopMilestone is the start of the run's preStop hook: the kubelet runs it right after it
// records the Killing Event (the hook's process may take a few hundred milliseconds to start).
func preStopMilestone(spec ContainerObservation, a int32, kill eventOcc) Milestone {
	m := eventMilestone(MPreStop, spec.Name, a, kill)
	m.Latest = kill.when.hi.Add(signalAllowance)
	m.Message = "preStop hook"
	m.Evidence[0].Note = "the kubelet runs the preStop hook right after it reports Killing"
	return m
}

// graceOf is the grace period the kubelet gave a container it began to stop at kill: the
// deletion's when the pod was being deleted, else the pod's.
func graceOf(ps *podState, kill interval) time.Duration {
	if ps.deletion != nil {
		grace := seconds(ps.deletionGrace)
		if !kill.hi.Before(ps.deletionAt.Add(-grace)) {
			return grace
		}
	}
	return seconds(ps.last.GracePeriod)
}

// directSigterm is the SIGTERM of a container the kubelet signals as soon as its preStop hook is
// done (an app or init container, or a container killed on its own): right after Killing without
// a hook; with one, after the hook returned, at the latest when the grace period ran out. A hook
// that failed is reported (FailedPreStopHook) when it returned, or after the signal if it ran
// out of time: either way the SIGTERM is not after the report.
func (d *deriver) directSigterm(ps *podState, spec ContainerObservation, a int32, kill eventOcc, fails []eventOcc, exit *Milestone) Milestone {
	m := eventMilestone(MSigterm, spec.Name, a, kill)
	iv := kill.when
	at := kill.at
	if !spec.HasPreStop {
		iv.hi = kill.when.hi.Add(signalAllowance)
	} else {
		iv.hi = kill.when.hi.Add(graceOf(ps, kill.when) + second + signalAllowance)
		m.Evidence = append(m.Evidence, Evidence{What: "preStop hook", Note: "SIGTERM follows the preStop hook, within the grace period"})
		if len(fails) > 0 {
			f := fails[0]
			iv = d.bound(iv, time.Time{}, f.when.hi.Add(signalAllowance))
			m.Evidence = append(m.Evidence, f.evidence("FailedPreStopHook"))
		}
	}
	if exit != nil {
		iv = d.bound(iv, time.Time{}, exit.Latest)
	}
	if spec.HasPreStop {
		// The hook began at about the Killing and took some time no one reports.
		at = interval{iv.clamp(kill.at), iv.hi}.mid()
	}
	m.Earliest, m.Latest, m.At = iv.lo, iv.hi, iv.clamp(at)
	exitAfter(exit, &m)
	return m
}

// killsBefore are the Killing Events filed under a run that may have come before its exit: the
// kubelet reports Killing before it stops a container. One that came after belongs to the next
// run, which the status does not show yet (the next run's Created Event implied this one's
// exit); until it does, this run's window, open while the status says it runs, files it here.
func killsBefore(kills []eventOcc, exit *Milestone) []eventOcc {
	if exit == nil {
		return kills
	}
	n := 0
	for n < len(kills) && !kills[n].when.lo.After(exit.Latest) {
		n++
	}
	return kills[:n]
}

// afterKill puts an implied exit after the Killing Event of its run: the kubelet reports it
// before it stops the container.
func afterKill(exit, sig *Milestone) {
	if exit == nil || sig == nil || sig.Source != SourceEvent || !sig.Earliest.After(exit.Earliest) || sig.Earliest.After(exit.Latest) {
		return
	}
	exit.Earliest = sig.Earliest
	exit.At = interval{exit.Earliest, exit.Latest}.clamp(exit.At)
	exit.Evidence = append(exit.Evidence, Evidence{What: "after Event Killing", NameTime: sig.Evidence[0].NameTime,
		API: sig.Evidence[0].API, Precision: sig.Evidence[0].Precision, Note: "the kubelet reports Killing before it stops the container"})
	exitAfter(exit, sig)
}

// sigtermAfterStart has a run's SIGTERM read after its start, moving it within its interval: a
// whole-second Killing Event is placed when it arrived, which can be before the start in the
// same second that the status put at the middle of that second.
func sigtermAfterStart(ms []Milestone, a int32) {
	s, sig := findMilestone(ms, startKind(a), a), findMilestone(ms, MSigterm, a)
	if s == nil || sig == nil || !sig.At.Before(s.At) {
		return
	}
	sig.At = interval{sig.Earliest, sig.Latest}.clamp(s.At)
	exitAfter(findMilestone(ms, MExit, a), sig)
}
