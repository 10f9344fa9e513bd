package timeline

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Why a milestone came when it did, in the kubelet's terms: its probes' timing, the back-off
// ladder, an image pull, the grace period, a preStop hook, the order it stops containers in.
// Each explanation is what the spec and the timeline together say, not a guess: where they say
// nothing, there is none.

// backOff is the wait the kubelet puts before restart a of a container that keeps exiting: the
// first restart at once, then 10 s, doubling, up to 5 min.
func backOff(a int32) time.Duration {
	if a <= 1 {
		return 0
	}
	d := 10 * time.Second
	for i := int32(2); i < a && d < 5*time.Minute; i++ {
		d *= 2
	}
	return min(d, 5*time.Minute)
}

// pulledIn reads how long the kubelet took to pull an image, from its Pulled Event.
var pulledIn = regexp.MustCompile(`Successfully pulled image .* in ([0-9.]+[µnm]?s)`)

// pulledSubmatch is pulledIn's match of msg; the common "already present on machine" is told
// without the regular expression.
func pulledSubmatch(msg string) []string {
	if !strings.Contains(msg, "Successfully pulled image ") {
		return nil
	}
	return pulledIn.FindStringSubmatch(msg)
}

// explainRun sets the why of the milestones of run a that its own facts explain. prev is run a
// as derived last time, if it was: a why that rests on the attempt alone is taken from it.
func explainRun(spec ContainerObservation, a int32, ms []Milestone, pulled []eventOcc, prev *Run) {
	for i := range ms {
		m := &ms[i]
		switch m.Kind {
		case MStarted:
			m.Why = startedWhy(spec, ms)
		case MReady:
			if spec.HasReadinessProbe {
				m.Why = probeWhy("readinessProbe", spec.Readiness, probeFailures(ms, "Readiness"))
			}
		case MRestart:
			m.Why = restartWhy(prev, a)
		case MCreated:
			if why, ok := createdWhy(pulled); ok {
				m.Why = why
			}
		case MExit:
			if m.Signal == "SIGKILL" && findMilestone(ms, MSigterm, a) != nil {
				m.Why = "the grace period ran out: SIGKILL"
			}
		case MSigterm:
			if spec.HasPreStop && m.Why == "" {
				m.Why = "after the preStop hook returned (or the grace period ran out)"
			}
		case MPreStop:
			m.Why = "the kubelet runs the preStop hook first"
		}
	}
}

// probeFailures is how many times the run ms failed the probe: a milestone each.
func probeFailures(ms []Milestone, probe string) int32 {
	n := int32(0)
	for i := range ms {
		if ms[i].Kind == MProbeFailed && ms[i].Reason == probe {
			n++
		}
	}
	return n
}

// startedWhy says when a run passed its startup probe, or that it has none.
func startedWhy(spec ContainerObservation, ms []Milestone) string {
	if !spec.HasStartupProbe {
		return noProbeStartedWhy(spec)
	}
	return probeWhy("startupProbe", spec.Startup, probeFailures(ms, "Startup"))
}

// noProbeStartedWhy says when a container with no startup probe counts as started: as soon as
// it runs, or once its postStart hook has returned.
func noProbeStartedWhy(spec ContainerObservation) string {
	if spec.HasPostStart {
		return "no startupProbe, a postStart hook: started once the hook returned (the kubelet runs it to its end " +
			"before it counts the container started and starts the next one)"
	}
	return "no startupProbe: started as soon as it ran"
}

// restartWhy says what the kubelet waited before restart a: last time's why when prev is run a
// as derived before (made once per run: a crash loop's last run is derived at each frame).
func restartWhy(prev *Run, a int32) string {
	if p := prevRestart(prev, a); p != nil {
		return p.Why
	}
	if b := backOff(a); b > 0 {
		return "back-off " + b.String() + " before restart " + strconv.Itoa(int(a)) + " (the kubelet waits 10s, doubling, up to 5m)"
	}
	return "the first restart comes at once"
}

// createdWhy says how long the image pull before a container's creation took, as the last
// Pulled Event says; ok is false without one.
func createdWhy(pulled []eventOcc) (why string, ok bool) {
	if len(pulled) == 0 {
		return "", false
	}
	if sub := pulledSubmatch(pulled[len(pulled)-1].message); sub != nil {
		return "image pulled in " + sub[1], true
	}
	return "image already present", true
}

// prevRestart is the restart milestone of prev if it is attempt a's run, else nil.
func prevRestart(prev *Run, a int32) *Milestone {
	if prev == nil || prev.Attempt != a {
		return nil
	}
	return prev.find(MRestart)
}

// probeWhy says how a probe's timing explains when it passed.
func probeWhy(name string, p ProbeSpec, failed int32) string {
	s := fmt.Sprintf("%s: first after initialDelaySeconds %s, then every %s", name, p.InitialDelay, p.Period)
	if failed > 0 {
		s += fmt.Sprintf("; failed %d× before it passed (≈ %s)", failed, p.InitialDelay+time.Duration(failed)*p.Period)
	}
	if p.Timeout <= time.Second && failed > 0 {
		s += "; timeoutSeconds " + p.Timeout.String()
	}
	return s
}

// gapWhy says what explains a named gap, if anything does: the kubelet's order as containers
// start, or as they stop.
func gapWhy(from, to *Milestone, specOf func(string) ContainerObservation, grace time.Duration, tx *gapTexts) string {
	if why := startGapWhy(from, to, specOf); why != "" {
		return why
	}
	return stopGapWhy(from, to, grace, tx)
}

// startGapWhy explains a gap between starts: a probe, or the kubelet's next sync.
func startGapWhy(from, to *Milestone, specOf func(string) ContainerObservation) string {
	switch {
	case from.Kind == MStart && to.Kind == MStarted:
		if spec := specOf(to.Container); !spec.HasStartupProbe {
			return noProbeStartedWhy(spec)
		}
		return to.Why
	case from.Kind == MStarted && (to.Kind == MStart || to.Kind == MRestart):
		return "the kubelet starts the next container in its next sync after this one started (it notices up to ~1s late)"
	case from.Kind == MExit && to.Kind == MStart:
		return "the kubelet starts the next container in its next sync after this one exited"
	}
	return ""
}

// stopGapWhy explains a gap as containers stop: the sidecars' order, the preStop hook, the
// grace period.
func stopGapWhy(from, to *Milestone, grace time.Duration, tx *gapTexts) string {
	switch {
	case from.Kind == MExit && to.Kind == MSigterm && to.At.Before(from.At):
		return tx.withGrace("a sidecar waits for the app containers (and the sidecars after it) only until the grace period (%s) runs out, when they are killed", grace)
	case from.Kind == MExit && to.Kind == MSigterm:
		return "the kubelet signals a sidecar only after the app containers (and the sidecars after it) have exited"
	case from.Kind == MPreStop && to.Kind == MSigterm:
		return tx.withGrace("the preStop hook runs before SIGTERM, within the grace period (%s)", grace)
	case from.Kind == MSigterm && to.Kind == MExit:
		if to.Signal == "SIGKILL" {
			return tx.withGrace("it did not exit on SIGTERM: SIGKILL when the grace period (%s) ran out", grace)
		}
		return "the container's own shutdown after SIGTERM"
	case from.Kind == MDeleting:
		return tx.withGrace("grace period %s: the containers stop in the kubelet's order within it", grace)
	}
	return ""
}
