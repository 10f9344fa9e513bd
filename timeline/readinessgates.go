package timeline

import (
	"fmt"
	"strings"
	"time"
)

// Readiness gates (spec.readinessGates): the kubelet makes the pod Ready only once every
// container is ready and each gate's condition, which a controller sets (a load balancer's, a
// mesh's), is True. Until then it reports Ready False with reason ReadinessGatesNotReady; the
// containers' reasons come first, so that reason says every container is ready. What holds the
// pod then is a gate, not a container: the pod row says which, and no sidecar is blamed.

// reasonGatesNotReady is the Ready condition's reason while only readiness gates hold it.
const reasonGatesNotReady = "ReadinessGatesNotReady"

// gatesNotTrue names the readiness gates of p whose condition is not True in p, "" for none.
func gatesNotTrue(p *PodObservation) string {
	var held []string
	for _, g := range p.ReadinessGates {
		ok := false
		for i := range p.Conditions {
			if c := &p.Conditions[i]; c.Type == g {
				ok = c.Status == "True"
				break
			}
		}
		if !ok {
			held = append(held, g)
		}
	}
	return strings.Join(held, ", ")
}

// gatesHeldText says which gates hold the pod, as the pod row's milestone says it.
func gatesHeldText(gates string) string {
	if strings.Contains(gates, ", ") {
		return "readiness gates " + gates + " not True"
	}
	return "readiness gate " + gates + " not True"
}

// heldByGatesAnew reports whether c, a Ready condition, says the gates hold the pod where the
// latest Ready change kept did not: the status stays False and the transition time with it, so
// only the reason tells.
func heldByGatesAnew(list *seqBuilder[conditionChange], c Condition) bool {
	if c.Status != "False" || c.Reason != reasonGatesNotReady {
		return false
	}
	for i := list.len() - 1; i >= 0; i-- {
		if l := list.at(i); l.Type == "Ready" {
			return l.Reason != reasonGatesNotReady
		}
	}
	return true
}

// readyState is what the pod row's Ready milestones carry from one to the next: whether the pod
// has been Ready, and the gates that held it at the last change if they did.
type readyState struct {
	ever   bool
	heldBy string
}

// gatesHeldMilestone is the pod row's not-ready when the gates hold the pod: placed when seen,
// since the condition's transition time is that of its status, False since before.
func (d *deriver) gatesHeldMilestone(c *conditionChange) Milestone {
	m := d.observedMilestone(MNotReady, c.seen, "condition Ready reason "+reasonGatesNotReady, time.Time{})
	m.Reason, m.Message = c.Reason, c.Message
	m.Why = "every container is ready; the pod's readinessGates hold it until a controller sets their conditions True"
	return m
}

// gatesReadyWhy says why a Ready that came after the gates held the pod came then.
func gatesReadyWhy(heldBy string) string {
	return "after the readinessGates: " + heldBy + " until its condition was set True (by a controller, not the kubelet)"
}

// readinessGateHeld: a pod held NotReady by its readiness gates after every container was ready,
// until they became True (info) or still (warning).
func readinessGateHeld(p *Pod, f *podFacts) []Finding {
	var out []Finding
	var hold *Milestone
	for _, m := range p.Milestones.All() {
		switch {
		case m.Kind == MNotReady && m.Reason == reasonGatesNotReady:
			hold = m
		case m.Kind == MReady && hold != nil:
			s := spanBetween(hold, m, true)
			out = append(out, Finding{Severity: SeverityInfo, Text: fmt.Sprintf(
				"the Pod was held not Ready by its readinessGates (%s, seen at %s) after every container was ready, "+
					"for %.1fs ±%.1f until Ready at %s: a controller sets a gate's condition, not the kubelet.",
				hold.Message, p.offset(hold.At), s.Value.Seconds(), s.Plus().Seconds(), p.offset(m.At))})
			hold = nil
		case m.Kind == MReady || m.Kind == MNotReady:
			hold = nil
		}
	}
	if f.readyNow == "False" && p.Phase == "Running" && f.gatesHeld != "" && allRunningReady(f) {
		out = append(out, Finding{Severity: SeverityWarning, Text: fmt.Sprintf(
			"the Pod is not Ready because of its readinessGates: %s; every container is ready. A controller sets "+
				"a gate's condition (kubectl get pod -o yaml shows status.conditions), not the kubelet.",
			gatesHeldText(f.gatesHeld))})
	}
	return out
}

// allRunningReady reports whether every container that runs is ready, and one does.
func allRunningReady(f *podFacts) bool {
	any := false
	for _, l := range f.lanes {
		if l.hasStatus && l.running {
			if !l.ready && l.spec.Kind != KindEphemeral {
				return false
			}
			any = true
		}
	}
	return any
}
