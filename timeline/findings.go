package timeline

import (
	"fmt"
	"strings"
	"time"
)

// findings says in words what the timeline shows that a sidecar user should know: a Job that
// cannot complete, a sidecar killed after ignoring SIGTERM, readiness held by a sidecar, a crash
// loop, a slow startup probe, containers that stopped together when one serves the other.
func findings(p *Pod, ps *podState) []Finding {
	var out []Finding
	for _, rule := range []func(*Pod, *podState) []Finding{
		classicSidecarBlocks, killedAfterGrace, readinessHeldBySidecar, crashLoop, slowStartup, stoppedTogether,
	} {
		out = append(out, rule(p, ps)...)
	}
	return out
}

// offset formats a time as an offset from the pod's creation.
func (p *Pod) offset(t time.Time) string { return fmt.Sprintf("+%.1fs", t.Sub(p.Created).Seconds()) }

// classicSidecarBlocks: with restartPolicy Never or OnFailure, a pod finishes only when all its
// regular containers have; a helper left running in containers keeps it (and its Job) open.
func classicSidecarBlocks(p *Pod, ps *podState) []Finding {
	if ps.last.RestartPolicy == "Always" || p.Phase != "Running" || ps.deletion != nil {
		return nil
	}
	var done, running []*Container
	var doneAt time.Time
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Kind != KindApp {
			continue
		}
		run := lastRun(c.Milestones)
		if run < 0 {
			return nil
		}
		if exit := findMilestone(c.Milestones, MExit, run); exit != nil {
			done, doneAt = append(done, c), later(doneAt, exit.At)
		} else {
			running = append(running, c)
		}
	}
	if len(done) == 0 || len(running) == 0 {
		return nil
	}
	who := "the pod"
	if p.Owner != "" {
		who = "the pod and " + p.Owner
	}
	r := running[0].Name
	return []Finding{{Severity: "warning", Container: r, Text: fmt.Sprintf(
		"%s finished at %s but %s is a regular container and still running, so %s cannot complete "+
			"(STATUS %s). If %s is a helper, make it a native sidecar: an initContainer with restartPolicy: Always.",
		names(done), p.offset(doneAt), quote(r), who, p.Status, quote(r))}}
}

// killedAfterGrace: exit code 137 after a SIGTERM means the container ignored SIGTERM and the
// runtime killed it when the grace period ran out.
func killedAfterGrace(p *Pod, _ *podState) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		for j := range c.Milestones {
			exit := &c.Milestones[j]
			if exit.Kind != MExit || exit.Signal != "SIGKILL" {
				continue
			}
			sig := findMilestone(c.Milestones, MSigterm, exit.Attempt)
			if sig == nil {
				continue
			}
			text := fmt.Sprintf("%s did not exit on SIGTERM: killed (SIGKILL, exit 137) %.0fs later, at %s. "+
				"A shell or sleep as PID 1 ignores SIGTERM unless it traps it.", quote(c.Name),
				exit.At.Sub(sig.At).Seconds(), p.offset(exit.At))
			if c.Kind == KindSidecar {
				text += " For a sidecar this 137 is teardown, not a failure, but it held the pod open."
			}
			out = append(out, Finding{Severity: "warning", Container: c.Name, Text: text})
		}
	}
	return out
}

// readinessHeldBySidecar: a native sidecar's readiness counts toward the Pod's Ready condition.
func readinessHeldBySidecar(p *Pod, ps *podState) []Finding {
	var out []Finding
	var waitedFor []string // sidecars the Pod's Ready waited for, once each
	times := map[string][]string{}
	for _, m := range p.Milestones {
		if m.Kind != MReady {
			continue
		}
		last := lastReadyBefore(p, m.Latest.Add(second))
		if last == nil || kindOf(p, last.Container) != KindSidecar {
			continue
		}
		if times[last.Container] == nil {
			waitedFor = append(waitedFor, last.Container)
		}
		times[last.Container] = append(times[last.Container], p.offset(last.At))
	}
	for _, c := range waitedFor {
		when := "at " + times[c][0]
		if n := len(times[c]); n > 1 {
			when = fmt.Sprintf("%d times, last at %s", n, times[c][n-1])
		}
		out = append(out, Finding{Severity: "info", Container: c, Text: fmt.Sprintf(
			"Pod Ready waited for sidecar %s to become ready (%s): a native sidecar's readiness counts toward the Pod's.",
			quote(c), when)})
	}
	if c := ps.firstConditionNow("Ready"); c != nil && c.Status == "False" && p.Phase == "Running" {
		var notReady []string
		appsReady := true
		for _, l := range ps.orderedLanes() {
			cs := l.status
			if cs == nil || cs.Running == nil {
				continue
			}
			switch {
			case l.spec.Kind == KindApp && !cs.Ready:
				appsReady = false
			case l.spec.Kind == KindSidecar && !cs.Ready:
				notReady = append(notReady, l.spec.Name)
			}
		}
		if appsReady && len(notReady) > 0 {
			out = append(out, Finding{Severity: "warning", Container: notReady[0], Text: fmt.Sprintf(
				"the Pod is not Ready only because sidecar %s is not ready; the app containers are ready.",
				strings.Join(quoteAll(notReady), ", "))})
		}
	}
	return out
}

// lastReadyBefore is the container ready milestone closest before t.
func lastReadyBefore(p *Pod, t time.Time) *Milestone {
	var best *Milestone
	for i := range p.Containers {
		for j := range p.Containers[i].Milestones {
			m := &p.Containers[i].Milestones[j]
			if m.Kind == MReady && !m.Earliest.After(t) && (best == nil || m.At.After(best.At)) {
				best = m
			}
		}
	}
	return best
}

// crashLoop: a container restarted over and over, with the kubelet backing off between runs.
func crashLoop(p *Pod, _ *podState) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.RestartCount < 2 {
			continue
		}
		var lastExit *Milestone
		for j := range c.Milestones {
			if m := &c.Milestones[j]; m.Kind == MExit {
				lastExit = m
			}
		}
		text := fmt.Sprintf("%s %s restarted %d times; the kubelet backs off between runs (10 s, doubling, up to 5 min).",
			c.Kind, quote(c.Name), c.RestartCount)
		if lastExit != nil {
			text += fmt.Sprintf(" Last exit: code %d (%s).", deref(lastExit.ExitCode), lastExit.Reason)
		}
		if c.Kind == KindSidecar {
			var apps []string
			for _, a := range p.Containers {
				if a.Kind == KindApp {
					apps = append(apps, fmt.Sprintf("%s %d", quote(a.Name), a.RestartCount))
				}
			}
			text += " A native sidecar restarts on its own; app restart counts: " + strings.Join(apps, ", ") + "."
		}
		out = append(out, Finding{Severity: "warning", Container: c.Name, Text: text})
	}
	return out
}

// slowStartup: a sidecar whose startup probe took long held back every container after it.
func slowStartup(p *Pod, _ *podState) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		start, started := findMilestone(c.Milestones, MStart, 0), findMilestone(c.Milestones, MStarted, 0)
		next := nextContainer(p, i)
		if c.Kind != KindSidecar || start == nil || started == nil || next == nil {
			continue
		}
		s := spanBetween(start, started, true)
		if s.Value < 2*time.Second {
			continue
		}
		out = append(out, Finding{Severity: "info", Container: c.Name, Text: fmt.Sprintf(
			"sidecar %s took %.1fs ±%.1f to start (startup probe); %s could not start until then.",
			quote(c.Name), s.Value.Seconds(), s.Plus().Seconds(), quote(next.Name))})
	}
	return out
}

// stoppedTogether: regular containers are signalled at the same time, so a helper among them
// (a proxy) can exit while another is still draining.
func stoppedTogether(p *Pod, ps *podState) []Finding {
	if ps.deletion == nil {
		return nil
	}
	var first, last *Milestone
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Kind != KindApp {
			continue
		}
		run := lastRun(c.Milestones)
		if findMilestone(c.Milestones, MSigterm, run) == nil {
			continue
		}
		exit := findMilestone(c.Milestones, MExit, run)
		if exit == nil {
			continue
		}
		if first == nil || exit.At.Before(first.At) {
			first = exit
		}
		if last == nil || exit.At.After(last.At) {
			last = exit
		}
	}
	if first == nil || first == last || !first.Latest.Before(last.Earliest) {
		return nil
	}
	return []Finding{{Severity: "info", Container: first.Container, Text: fmt.Sprintf(
		"app containers are signalled together: %s exited %.1fs before %s. If %s serves %s (a proxy), "+
			"make it a native sidecar so it stops after %s exits.", quote(first.Container),
		last.At.Sub(first.At).Seconds(), quote(last.Container), quote(first.Container), quote(last.Container),
		quote(last.Container))}}
}

func (ps *podState) firstConditionNow(typ string) *Condition {
	for i := range ps.last.Conditions {
		if ps.last.Conditions[i].Type == typ {
			return &ps.last.Conditions[i]
		}
	}
	return nil
}

func kindOf(p *Pod, name string) ContainerKind {
	for _, c := range p.Containers {
		if c.Name == name {
			return c.Kind
		}
	}
	return ""
}

func names(cs []*Container) string {
	var n []string
	for _, c := range cs {
		n = append(n, c.Name)
	}
	return strings.Join(quoteAll(n), ", ")
}

func quote(s string) string { return "`" + s + "`" }

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = quote(s)
	}
	return out
}
