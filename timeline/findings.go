package timeline

import (
	"fmt"
	"strings"
	"time"
)

// Findings says in words what the timeline shows that a sidecar user should know: a Job that
// cannot complete, a sidecar killed after ignoring SIGTERM, readiness held by a sidecar, a crash
// loop, a slow startup probe, containers that stopped together when one serves the other. They
// are worked out on the first call and kept.
func (p *Pod) Findings() []Finding {
	m := p.memoized()
	m.findingsOnce.Do(func() {
		if m.facts == nil {
			return // decoded: the findings came with it
		}
		for _, r := range findingRules {
			for _, f := range r.rule(p, m.facts) {
				if f.ID == "" {
					f.ID = r.id
				}
				f.Pod = p.Name
				m.findings = append(m.findings, f)
			}
		}
	})
	return m.findings
}

// findingRules are the rules, in the order their findings are listed, each with the ID of what
// it finds (a rule that finds more than one kind of thing sets the others' itself).
var findingRules = []struct {
	id   FindingID
	rule func(*Pod, *podFacts) []Finding
}{
	{FindingClassicSidecarBlocks, classicSidecarBlocks},
	{FindingKilledAfterGrace, killedAfterGrace},
	{FindingReadinessHeld, readinessHeldBySidecar},
	{FindingReadinessGateHeld, readinessGateHeld},
	{FindingCrashLoop, crashLoop},
	{FindingSlowStartup, slowStartup},
	{FindingStoppedTogether, stoppedTogether},
	{FindingPreStopUsedGrace, preStopUsedGrace},
	{FindingSidecarRaced, sidecarRaced},
	{FindingStartupProbeTimedOut, startupProbeTimedOut},
	{FindingSidecarTeardownExit, sidecarTeardownExit},
	{FindingGraceSpentByApps, graceSpentByApps},
	{FindingRestartPolicyOnApp, restartPolicyOnApp},
	{FindingAppCrashedPodRunning, appCrashedPodRunning},
	{FindingPostStartDelays, postStartDelays},
}

// podFacts are what the finding rules read beyond the Pod: taken when it is derived.
type podFacts struct {
	grace         time.Duration // the grace period the pod was stopped with
	restartPolicy string
	deleting      bool
	readyNow      string    // the Ready condition's status now; "" without one
	gatesHeld     string    // the readiness gates whose condition is not True now
	lanes         []laneNow // in the pod's order
}

// laneNow is a container's spec and status now.
type laneNow struct {
	spec            *ContainerObservation // no status; replaced, never changed, when the spec changes
	hasStatus       bool
	running, ready  bool
	startupTimedOut bool // a startup probe failure said it timed out
}

// lane is container i's lane, named name: the lanes are in the pod's order, so that a rule that
// reads each container's did not scan them all for each (a pod of 10,000 containers read 10^8).
// Nil when there is none (a Pod the facts were not taken of).
func (f *podFacts) lane(i int, name string) *laneNow {
	if i < len(f.lanes) && f.lanes[i].spec.Name == name {
		return &f.lanes[i]
	}
	for j := range f.lanes {
		if f.lanes[j].spec.Name == name {
			return &f.lanes[j]
		}
	}
	return nil
}

// spec is container i's spec (named name), or a zero one.
func (f *podFacts) spec(i int, name string) ContainerObservation {
	if l := f.lane(i, name); l != nil {
		return *l.spec
	}
	return ContainerObservation{}
}

// timedOut reports whether container i's (named name) startup probe failed by timing out.
func (f *podFacts) timedOut(i int, name string) bool {
	l := f.lane(i, name)
	return l != nil && l.startupTimedOut
}

// newPodFacts sets f to ps's facts now, with lanes (as long as ps's) for the lanes'.
func newPodFacts(f *podFacts, ps *podState, lanes []laneNow) {
	*f = podFacts{restartPolicy: ps.last.RestartPolicy, deleting: ps.deletion != nil, readyNow: ps.readyNow,
		gatesHeld: ps.gatesHeld, grace: seconds(ps.last.GracePeriod), lanes: lanes}
	if ps.deletion != nil {
		f.grace = seconds(ps.deletionGrace)
	}
	for i, l := range ps.laneOrder {
		n := laneNow{spec: l.spec, startupTimedOut: l.startupTimedOut}
		if cs := l.status; cs != nil {
			n.hasStatus, n.running, n.ready = true, cs.Running != nil, cs.Ready
		}
		f.lanes[i] = n
	}
}

// offset formats a time as an offset from the pod's creation.
func (p *Pod) offset(t time.Time) string { return fmt.Sprintf("+%.1fs", t.Sub(p.Created).Seconds()) }

// classicSidecarBlocks: with restartPolicy Never or OnFailure, a pod finishes only when all its
// regular containers have; a helper left running in containers keeps it (and its Job) open.
func classicSidecarBlocks(p *Pod, f *podFacts) []Finding {
	if f.restartPolicy == "Always" || p.Phase != "Running" || f.deleting {
		return nil
	}
	var done, running []*Container
	var doneAt time.Time
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Kind != KindApp {
			continue
		}
		run := c.lastRun()
		if run < 0 {
			return nil
		}
		if exit := c.Find(MExit, run); exit != nil {
			done, doneAt = append(done, c), later(doneAt, exit.At)
		} else {
			running = append(running, c)
		}
	}
	if len(done) == 0 || len(running) == 0 {
		return nil
	}
	who := "the pod"
	if p.Owner != nil {
		who = "the pod and " + p.Owner.String()
	}
	r := running[0].Name
	return []Finding{{Severity: SeverityWarning, Container: r, Text: fmt.Sprintf(
		"%s finished at %s but %s is a regular container and still running, so %s cannot complete "+
			"(STATUS %s). If %s is a helper, make it a native sidecar: an initContainer with restartPolicy: Always.",
		names(done), p.offset(doneAt), quote(r), who, p.Status, quote(r))}}
}

// killedAfterGrace: exit code 137 after a SIGTERM means the container ignored SIGTERM and the
// runtime killed it when the grace period ran out.
func killedAfterGrace(p *Pod, f *podFacts) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		for k, r := range c.Runs.Items() {
			exit := r.find(MExit)
			if exit == nil || exit.Signal != "SIGKILL" {
				continue
			}
			sig := r.find(MSigterm)
			if sig == nil {
				continue
			}
			grace := time.Duration(0) // the deletion's grace, for the run the deletion stopped only
			if f.deleting && k == c.Runs.Len()-1 {
				grace = f.grace
			}
			text := fmt.Sprintf("%s did not exit on SIGTERM: killed (SIGKILL, exit 137) %.0fs later, at %s. "+
				"A shell or sleep as PID 1 ignores SIGTERM unless it traps it.", quote(c.Name),
				killedAfter(c, f.spec(i, c.Name), sig, exit, grace).Seconds(), p.offset(exit.At))
			if c.Kind == KindSidecar {
				text += " For a sidecar this 137 is teardown, not a failure, but it held the pod open."
			}
			out = append(out, Finding{Severity: SeverityWarning, Container: c.Name, Text: text})
		}
	}
	return out
}

// killedAfter is how long after its SIGTERM container c was killed: the grace period the pod's
// deletion gave (0: none), when c is an app container with no preStop hook (the kubelet kills it
// when that runs out) and the milestones' bounds allow it, else their estimates' difference. A
// kill for a failed liveness probe may have a grace of the probe's own: not said so. From
// the estimates alone a 3 s grace came out as "4s later" (SIGTERM at +2.96, the exit in
// [+6.0, +6.93]: 3.5 s).
func killedAfter(c *Container, spec ContainerObservation, sig, exit *Milestone, grace time.Duration) time.Duration {
	d := exit.At.Sub(sig.At)
	if c.Kind != KindApp || spec.HasPreStop || grace <= 0 || sig.Earliest.IsZero() || sig.Latest.IsZero() ||
		exit.Earliest.IsZero() || exit.Latest.IsZero() {
		return d
	}
	if lo, hi := exit.Earliest.Sub(sig.Latest), exit.Latest.Sub(sig.Earliest); lo <= grace && grace <= hi {
		return grace
	}
	return d
}

// crashLoop: a container restarted over and over, with the kubelet backing off between runs.
func crashLoop(p *Pod, _ *podFacts) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.RestartCount < 2 {
			continue
		}
		var lastExit *Milestone
		for j := c.Runs.Len() - 1; j >= 0 && lastExit == nil; j-- {
			lastExit = c.Runs.At(j).find(MExit)
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
		out = append(out, Finding{Severity: SeverityWarning, Container: c.Name, Text: text})
	}
	return out
}

// slowStartup: a sidecar whose startup probe took long held back every container after it.
func slowStartup(p *Pod, _ *podFacts) []Finding {
	var out []Finding
	for i := range p.Containers {
		c := &p.Containers[i]
		start, started := c.Find(MStart, 0), c.Find(MStarted, 0)
		next := nextContainer(p, i)
		if c.Kind != KindSidecar || start == nil || started == nil || next == nil {
			continue
		}
		s := spanBetween(start, started, true)
		if s.Value < 2*time.Second {
			continue
		}
		out = append(out, Finding{Severity: SeverityInfo, Container: c.Name, Text: fmt.Sprintf(
			"sidecar %s took %.1fs ±%.1f to start (startup probe); %s could not start until then.",
			quote(c.Name), s.Value.Seconds(), s.Plus().Seconds(), quote(next.Name))})
	}
	return out
}

// stoppedTogether: regular containers are signalled at the same time, so a helper among them
// (a proxy) can exit while another is still draining.
func stoppedTogether(p *Pod, f *podFacts) []Finding {
	if !f.deleting {
		return nil
	}
	var first, last *Milestone
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Kind != KindApp {
			continue
		}
		run := c.lastRun()
		if c.Find(MSigterm, run) == nil {
			continue
		}
		exit := c.Find(MExit, run)
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
	return []Finding{{Severity: SeverityInfo, Container: first.Container, Text: fmt.Sprintf(
		"app containers are signalled together: %s exited %.1fs before %s. If %s serves %s (a proxy), "+
			"make it a native sidecar so it stops after %s exits.", quote(first.Container),
		last.At.Sub(first.At).Seconds(), quote(last.Container), quote(first.Container), quote(last.Container),
		quote(last.Container))}}
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
