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
		if c.Kind != KindSidecar || next == nil || f.specs[c.Name].HasStartupProbe {
			continue
		}
		start, ready, nextStart := c.Find(MStart, 0), c.Find(MReady, 0), next.Find(MStart, 0)
		if start == nil || nextStart == nil || (ready != nil && !nextStart.At.Before(ready.At)) {
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

// startupProbeTimedOut: a startupProbe with the default timeoutSeconds of 1 that timed out.
func startupProbeTimedOut(p *Pod, f *podFacts) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		spec := f.specs[c.Name]
		if !f.probeTimeouts[c.Name] || spec.Startup.Timeout <= 0 || spec.Startup.Timeout > time.Second {
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

// graceSpentByApps: the kubelet signals sidecars only after the apps exit, within one grace
// period: apps that take most of it leave the sidecars too little, and they are killed.
func graceSpentByApps(p *Pod, f *podFacts) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		run := c.lastRun()
		exit, sig := c.Find(MExit, run), c.Find(MSigterm, run)
		if c.Kind != KindSidecar || exit == nil || sig == nil || exit.Signal != "SIGKILL" || f.grace <= 0 {
			continue
		}
		last := lastAppExit(p)
		if last == nil || !sig.Earliest.After(last.Earliest) {
			continue
		}
		// The grace period runs from the deletion; without one (a Job's pod ending by itself) a
		// sidecar gets a whole grace period after the apps, and nothing was taken from it.
		del := p.Find("", MDeleting, 0)
		if del == nil {
			continue
		}
		left := f.grace - sig.At.Sub(del.At)
		if left > f.grace/2 {
			continue
		}
		out = append(out, Finding{Severity: SeverityWarning, Container: c.Name, Text: fmt.Sprintf(
			"the app containers took the grace period: sidecar %s got SIGTERM only after %s exited, with ~%.1fs of "+
				"the %s left, and was killed (SIGKILL). Shorten the apps' shutdown or raise terminationGracePeriodSeconds.",
			quote(c.Name), quote(last.Container), max(left.Seconds(), 0), f.grace)})
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
		if rp := f.specs[c.Name].RestartPolicy; c.Kind == KindApp && rp != "" {
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
