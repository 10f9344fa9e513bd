package timeline

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Findings that need the spec and the timeline together.

// probeTimedOut matches a probe failure that was a timeout, as the kubelet words it.
var probeTimedOut = regexp.MustCompile(`(?i)timed out|timeout|context deadline exceeded`)

// sidecarRaced: a sidecar with no startupProbe counts as started as soon as it runs, so the
// kubelet starts the next container at once, before the sidecar is ready to serve it.
func sidecarRaced(p *Pod, f *podFacts) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		next := nextContainer(p, i)
		if c.Kind != KindSidecar || next == nil || f.spec(i, c.Name).HasStartupProbe {
			continue
		}
		start, ready, nextStart := c.Find(MStart, 0), c.Find(MReady, 0), next.Find(MStart, 0)
		if !raceSeen(start, ready, nextStart) {
			continue
		}
		when := "before it was ready"
		if ready == nil {
			when = "and it never became ready"
		}
		out = append(out, Finding{Severity: SeverityWarning, Container: c.Name, Text: fmt.Sprintf(
			"%s started %.1fs after sidecar %s, %s: with no startupProbe the kubelet starts the next container as "+
				"soon as the sidecar runs. Give %s a startupProbe that passes when it serves.",
			quote(next.Name), nextStart.At.Sub(start.At).Seconds(), quote(c.Name), when, quote(c.Name))})
	}
	return out
}

// raceSeen reports whether the next container (nextStart) was seen started after the sidecar
// (start) and before the sidecar was ready (ready, nil if it never was): a status showed it
// running and the sidecar not ready, which bounds the sidecar's ready below a second before that
// status (the kubelet may show readiness that late). Of a pod listed after both were up, only the
// list bounds the sidecar's ready: no race is known. A start before the sidecar's is no
// kubelet's order but statuses or Events that contradict each other.
func raceSeen(start, ready, nextStart *Milestone) bool {
	if start == nil || nextStart == nil || nextStart.At.Before(start.At) {
		return false
	}
	return ready == nil || nextStart.At.Before(ready.At) && !ready.Earliest.Add(second).Before(nextStart.Latest)
}

// startupProbeTimedOut: a startupProbe with the default timeoutSeconds of 1 that timed out.
func startupProbeTimedOut(p *Pod, f *podFacts) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		spec := f.spec(i, c.Name)
		if !f.timedOut(i, c.Name) || spec.Startup.Timeout <= 0 || spec.Startup.Timeout > time.Second {
			continue
		}
		out = append(out, Finding{Severity: SeverityWarning, Container: c.Name, Text: fmt.Sprintf(
			"the startupProbe of %s timed out with timeoutSeconds %s (the default): a probe that takes longer "+
				"than that fails however healthy the container is. Raise timeoutSeconds.", quote(c.Name), spec.Startup.Timeout)})
	}
	return out
}

// sidecarTeardownExit: a sidecar that exits 143 (SIGTERM) when the pod stops did what it was asked.
func sidecarTeardownExit(p *Pod, f *podFacts) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		run := c.lastRun()
		exit, sig := c.Find(MExit, run), c.Find(MSigterm, run)
		if c.Kind != KindSidecar || exit == nil || sig == nil || deref(exit.ExitCode) != 143 {
			continue
		}
		out = append(out, Finding{Severity: SeverityInfo, Container: c.Name, Text: fmt.Sprintf(
			"sidecar %s exited 143 (SIGTERM) at teardown: expected, not a failure.", quote(c.Name))})
	}
	return out
}

// graceSpentByApps: the kubelet signals sidecars only after the apps exit, within the one grace
// period that runs from the deletion: apps that exit late in it leave the sidecars little (the
// kubelet's minimum of 2 s), and a sidecar that needs more is killed. The sidecar's SIGTERM is
// inferred (nobody reports it), and the kubelet reports Killing for every container at the
// start: that the apps exited late, and the sidecar was killed after them, is the evidence.
func graceSpentByApps(p *Pod, f *podFacts) []Finding {
	// The grace period runs from the deletion; without one (a Job's pod ending by itself) a
	// sidecar gets a whole grace period after the apps, and nothing was taken from it.
	del, last := p.Find("", MDeleting, 0), lastAppExit(p)
	if f.grace <= 0 || del == nil || last == nil {
		return nil
	}
	used := spanBetween(del, last, true)
	if used.Min < f.grace/2 {
		return nil // the apps may have left the sidecars half of it or more
	}
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		run := c.lastRun()
		exit, sig := c.Find(MExit, run), c.Find(MSigterm, run)
		if c.Kind != KindSidecar || exit == nil || sig == nil || exit.Signal != "SIGKILL" || exit.Latest.Before(last.Earliest) {
			continue
		}
		left := "next to none of it"
		if l := f.grace - used.Value; l >= 100*time.Millisecond {
			left = fmt.Sprintf("~%.1fs of it", l.Seconds())
		}
		out = append(out, Finding{Severity: SeverityWarning, Container: c.Name, Text: fmt.Sprintf(
			"the app containers took the grace period: %s exited %.1fs ±%.1f after the deletion, with a grace period "+
				"of %s; sidecar %s, signalled only after it, had %s left and was killed (SIGKILL). Shorten the apps' "+
				"shutdown or raise terminationGracePeriodSeconds.",
			quote(last.Container), used.Value.Seconds(), used.Plus().Seconds(), f.grace, quote(c.Name), left)})
	}
	return out
}

// preStopUsedGrace: a preStop hook runs inside the grace period, before SIGTERM; one that takes
// most of it leaves the container little time to shut down before the SIGKILL. The API does not
// say when a hook returns: only the kubelet's log (--node-logs) places the SIGTERM; without it
// the SIGTERM lies anywhere between the hook's start and the exit. What is certain then is how
// far into the grace period the container exited, a time its hook and its shutdown share.
func preStopUsedGrace(p *Pod, f *podFacts) []Finding {
	if f.grace <= 0 {
		return nil
	}
	del := p.Find("", MDeleting, 0)
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Kind == KindSidecar {
			continue // its SIGTERM also waits for its turn: the gap is not the hook's alone
		}
		run := c.lastRun()
		hook, sig, exit := c.Find(MPreStop, run), c.Find(MSigterm, run), c.Find(MExit, run)
		if hook == nil || sig == nil {
			continue
		}
		if took := spanBetween(hook, sig, true); took.Min >= f.grace/2 {
			out = append(out, Finding{Severity: SeverityWarning, Container: c.Name, Text: fmt.Sprintf(
				"the preStop hook of %s took %.1fs ±%.1f of the %s grace period before SIGTERM; the rest is all the "+
					"container had to exit before SIGKILL. Shorten the hook or raise terminationGracePeriodSeconds.",
				quote(c.Name), took.Value.Seconds(), took.Plus().Seconds(), f.grace)})
			continue
		}
		if del == nil || exit == nil || sig.Source == SourceKubelet {
			continue // not stopped by the deletion, or the kubelet's log said the hook took less
		}
		if used := spanBetween(del, exit, true); used.Min >= f.grace/2 {
			out = append(out, Finding{Severity: SeverityInfo, Container: c.Name, Text: fmt.Sprintf(
				"%s has a preStop hook and exited %.1fs ±%.1f after the deletion, of the %s grace period: the hook and "+
					"the shutdown after SIGTERM share it, and when the hook returned is not reported (--node-logs tells "+
					"the SIGTERM). If the hook takes most of it, shorten the hook or raise terminationGracePeriodSeconds.",
				quote(c.Name), used.Value.Seconds(), used.Plus().Seconds(), f.grace)})
		}
	}
	return out
}

func lastAppExit(p *Pod) *Milestone {
	var last *Milestone
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Kind != KindApp {
			continue
		}
		if e := c.Find(MExit, c.lastRun()); e != nil && (last == nil || e.At.After(last.At)) {
			last = e
		}
	}
	return last
}

// restartPolicyOnApp: restartPolicy on a regular container is the ContainerRestartRules feature,
// not a sidecar: it restarts, but does not start before the apps or outlive them.
func restartPolicyOnApp(p *Pod, f *podFacts) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		if rp := f.spec(i, c.Name).RestartPolicy; c.Kind == KindApp && rp != "" {
			out = append(out, Finding{Severity: SeverityInfo, Container: c.Name, Text: fmt.Sprintf(
				"%s has restartPolicy: %s, but it is a regular container: that sets how it restarts, it does not make it "+
					"a sidecar. A native sidecar is an initContainer with restartPolicy: Always.", quote(c.Name), rp)})
		}
	}
	return out
}

// appCrashedPodRunning: an app container failed while another regular container (a helper in
// containers, not a native sidecar) keeps the pod Running, so the pod neither fails nor restarts it.
func appCrashedPodRunning(p *Pod, f *podFacts) []Finding {
	if f.restartPolicy == "Always" || p.Phase != "Running" || f.deleting {
		return nil
	}
	var crashed *Milestone
	var running []string
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Kind != KindApp {
			continue
		}
		run := c.lastRun()
		if e := c.Find(MExit, run); e != nil && deref(e.ExitCode) != 0 {
			crashed = e
		} else if e == nil && run >= 0 {
			running = append(running, c.Name)
		}
	}
	if crashed == nil || len(running) == 0 {
		return nil
	}
	return []Finding{{Severity: SeverityWarning, Container: crashed.Container, Text: fmt.Sprintf(
		"%s failed (exit %d) at %s, but the pod is still Running because %s, a regular container, still runs. "+
			"If %s is a helper, make it a native sidecar: the kubelet then stops it and the pod fails.",
		quote(crashed.Container), deref(crashed.ExitCode), p.offset(crashed.At), strings.Join(quoteAll(running), ", "),
		strings.Join(quoteAll(running), ", "))}}
}

// postStartDelays: the kubelet runs a postStart hook to its end before it counts the container
// started (a sidecar with no startup probe) and before it starts the next container, so a hook
// that takes long holds back every container after it. Only where nothing else is waited for (no
// startup probe) and the next container certainly started more than a second after this one.
func postStartDelays(p *Pod, f *podFacts) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		spec := f.spec(i, c.Name)
		next := nextContainer(p, i)
		if !spec.HasPostStart || spec.HasStartupProbe || next == nil || c.Kind == KindInit ||
			(c.Kind == KindApp && next.Kind != KindApp) {
			continue
		}
		start, nextStart := c.Find(MStart, 0), next.Find(MStart, 0)
		if start == nil || nextStart == nil {
			continue
		}
		s := spanBetween(start, nextStart, true)
		if s.Min < time.Second {
			continue
		}
		out = append(out, Finding{Severity: SeverityInfo, Container: c.Name, Text: fmt.Sprintf(
			"the postStart hook of %s %s held back %s, which started %.1fs ±%.1f after it: the kubelet runs the hook "+
				"to its end before it counts the container started and starts the next one. Keep slow work out of the "+
				"hook (a startupProbe can hold the next container back instead).",
			c.Kind, quote(c.Name), quote(next.Name), s.Value.Seconds(), s.Plus().Seconds())})
	}
	return out
}
