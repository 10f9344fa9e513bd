package timeline

import (
	"strconv"
	"time"
)

// When a pod ends without being deleted, the kubelet stops the containers still running on its
// own (kuberuntime's computePodActions: KillPod), as it does for a deletion: the app containers
// first, then the sidecars in reverse order, each after its Killing Event and preStop hook. It
// does so when
//   - an init container failed and the pod restarts nothing (restartPolicy Never): the pod fails
//     while initialising, and the sidecars started before it are stopped;
//   - every app container has exited and none will run again (a Job's pod: restartPolicy Never,
//     or OnFailure with every exit 0);
//   - the pod failed for a reason of the kubelet's (activeDeadlineSeconds: DeadlineExceeded; its
//     eviction: Evicted; a node shutdown): it kills what still runs.
// The API says when the first two came (an exit), not when the kubelet acted on them: that is a
// bound below, and a sidecar's exit one above. Of the third it says only that it came.

// podEnd is why a pod that was not deleted ended, as far as the API shows it, and the earliest
// its containers can have been stopped for it.
type podEnd struct {
	lo, at time.Time  // no signal before lo (zero: nothing known); at, its estimate
	exit   *Milestone // the exit it rests on, if any
	ev     Evidence
}

// podEndOf is why the pod ended, if it did (ok), from its spec, phase and the lanes' last runs.
func podEndOf(ps *podState, lanes []*passLane) (end podEnd, ok bool) {
	never := ps.last.RestartPolicy == "Never"
	if never {
		if e, name := failedInit(lanes); e != nil {
			return podEnd{lo: e.Earliest, at: e.At, exit: e, ev: Evidence{What: "after init container " + name + " failed",
				API: e.At, Note: "exit " + strconv.Itoa(int(deref(e.ExitCode))) + " with restartPolicy Never: the pod fails, and the kubelet stops its sidecars"}}, true
		}
	}
	if last, name, done := appsEnded(lanes, ps.last.RestartPolicy); done {
		return podEnd{lo: last.Earliest, at: last.At, exit: last, ev: Evidence{What: "after " + name + " exited", API: last.At,
			Note: "the app containers are done and will not run again: the kubelet stops the sidecars"}}, true
	}
	if ph := ps.last.Phase; ph == "Failed" || ph == "Succeeded" {
		note := "the kubelet stopped what still ran; when it began, the API does not say"
		if r := ps.last.Reason; r != "" {
			note = "reason " + r + ": " + note
		}
		return podEnd{ev: Evidence{What: "the pod " + ph, Note: note}}, true
	}
	return podEnd{}, false
}

// failedInit is the exit of the init container (not a sidecar) whose last run failed, if any.
func failedInit(lanes []*passLane) (*Milestone, string) {
	for _, l := range lanes {
		if l.kind() != KindInit {
			continue
		}
		if run := l.lastRun(); run >= 0 {
			if e := l.find(MExit, run); e != nil && deref(e.ExitCode) != 0 {
				return e, l.name()
			}
		}
	}
	return nil, ""
}

// appsEnded is the latest exit of the app containers' last runs, when every one has exited and
// none will run again under restartPolicy; done is false otherwise.
func appsEnded(lanes []*passLane, restartPolicy string) (last *Milestone, name string, done bool) {
	for _, l := range lanes {
		if l.kind() != KindApp {
			continue
		}
		run := l.lastRun()
		if run < 0 {
			return nil, "", false
		}
		e := l.find(MExit, run)
		if e == nil || restartPolicy == "Always" || (restartPolicy == "OnFailure" && deref(e.ExitCode) != 0) {
			return nil, "", false
		}
		if last == nil || e.Latest.After(last.Latest) {
			last, name = e, l.name()
		}
	}
	return last, name, last != nil
}

// sigtermAtEnd places the SIGTERM of the sidecar lanes[i]'s run, which exited at exit, when its
// pod ended (end) and no Killing Event of it or deletion says when the kubelet began to stop it:
// after the end, after the app containers and the sidecars declared after it exited (its turn),
// and before its own exit.
func sigtermAtEnd(ps *podState, lanes []*passLane, i int, run int32, end podEnd, exit *Milestone) {
	c := lanes[i]
	lo, at := end.lo, end.at
	ev := []Evidence{end.ev}
	prereqs, pending := sidecarPrereqs(lanes, i, nil, false)
	for _, pr := range prereqs {
		if pr == end.exit || pr.Signal == "SIGKILL" {
			continue // the end's own; or killed when the grace period ran out, about when the sidecar was signalled
		}
		lo, at = later(lo, pr.Earliest), later(at, pr.At)
		ev = append(ev, Evidence{What: "after " + pr.Container + " exited", API: pr.At,
			Note: "sidecars stop after app containers, then in reverse order of definition"})
	}
	if pending && !end.lo.IsZero() {
		// One of them never exited: signalled when the grace period ran out.
		lo = later(lo, end.lo.Add(max(seconds(ps.last.GracePeriod)-second, 0)))
	}
	if start := c.find(startKind(run), run); start != nil {
		lo, at = later(lo, start.Earliest), later(at, start.At)
	}
	if lo.After(exit.Latest) {
		return // it exited before its turn came: on its own, not signalled
	}
	iv := interval{lo: lo, hi: exit.Latest}
	if at.IsZero() || c.ls.spec.HasPreStop {
		at = later(at, iv.mid()) // the hook, or the moment the kubelet acted, no one reports
	}
	m := Milestone{Kind: MSigterm, Container: c.name(), Attempt: run, At: iv.clamp(at), Earliest: iv.lo, Latest: iv.hi,
		Source: SourceInferred, Evidence: ev, Message: "inferred: not reported by the API",
		Why: "the pod ended: the kubelet signals a sidecar after the app containers and the sidecars declared after it have exited"}
	addSigterm(c, run, m)
}
