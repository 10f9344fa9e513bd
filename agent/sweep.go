package agent

import (
	"errors"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// sweep looks at the pods that changed since the last sweep: a pod seen final for the first
// time is counted if this replica leads and the first list is in, else skipped for good. Then
// it cuts the traces of pods open too long and sets the gauges.
func (a *Agent) sweep() {
	s := a.e.Snapshot()
	counting := a.listed && a.Leader()
	for _, pp := range s.Pods.ChangedSince(a.last.Pods) {
		p := *pp
		t := a.pods[p.UID]
		if t == nil {
			t = &podTrack{}
			a.pods[p.UID] = t
		}
		if t.pod == p {
			continue
		}
		t.pod = p
		if !a.e.Finished(p, a.cfg.Now()) {
			continue
		}
		if counting {
			a.count(p, t)
		}
		a.e.Refresh(p.UID) // counted or skipped: its brief will do from now on (keep)
	}
	a.last = s
	open := 0
	now := a.cfg.Now()
	for uid, t := range a.pods {
		if a.e.Done(uid) {
			continue
		}
		open++
		if counting && a.traceDue(t.pod, t, now) {
			if t.pod.Brief {
				a.e.Refresh(t.pod.UID) // whole at the next sweep (keep), then sent
				continue
			}
			t.cut = true
			t.traceID = a.cfg.Traces.Send(t.pod)
		}
	}
	for _, uid := range a.e.Sweep(now) {
		delete(a.pods, uid)
	}
	a.m.PodsWatched.Set(float64(len(a.pods)))
	a.m.PodsOpen.Set(float64(open))
}

// count observes a final pod: its gaps and their bounds' widths, the pod, its findings and its
// containers' restarts. Its trace is sent first, so that the observations carry its ID, unless
// it was cut and sent already (one trace per pod; the exemplar is the cut trace's then).
func (a *Agent) count(p *timeline.Pod, t *podTrack) {
	if a.cfg.Traces != nil && !t.cut {
		t.traceID = a.cfg.Traces.Send(p)
	}
	kind, owner := a.owners.label(p.Namespace, p.Owner)
	var exemplar prometheus.Labels
	if t.traceID != "" {
		exemplar = prometheus.Labels{"trace_id": t.traceID}
	}
	for _, g := range p.Gaps {
		lv := []string{valid(p.Namespace), valid(kind), valid(owner), roleOf(p, g.To), valid(gapLabel(g.Name))}
		observe(a.m.Gap.WithLabelValues(lv...), g.Span.Value.Seconds(), exemplar)
		if g.Span.Bounded() {
			observe(a.m.Uncertainty.WithLabelValues(lv...), (g.Span.Max - g.Span.Min).Seconds(), exemplar)
		}
	}
	a.m.PodsFinal.WithLabelValues(valid(p.Namespace), valid(kind), valid(owner)).Inc()
	for _, f := range p.Findings() {
		a.m.Findings.WithLabelValues(valid(p.Namespace), string(f.ID)).Inc()
	}
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.RestartCount > 0 {
			a.m.Restarts.WithLabelValues(valid(p.Namespace), valid(string(c.Kind))).Add(float64(c.RestartCount))
		}
	}
}

// observe observes v, with the exemplar if there is one.
func observe(o prometheus.Observer, v float64, exemplar prometheus.Labels) {
	if eo, ok := o.(prometheus.ExemplarObserver); ok && exemplar != nil {
		eo.ObserveWithExemplar(v, exemplar)
		return
	}
	o.Observe(v)
}

// valid is a label value as Prometheus takes it: valid UTF-8 (a recording may hold anything;
// the library refuses the rest). Every other character is the library's to quote.
func valid(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// transient reports whether err says it is transient (a watch that retries on its own).
func transient(err error) bool {
	var t interface{ Transient() bool }
	return errors.As(err, &t) && t.Transient()
}

// keep is the agent's brief mode (timeline.Builder.Brief): a pod is kept whole while it may yet
// be counted or traced, and as its brief once it is done (its facts are kept either way): the
// metrics read a pod's gaps, findings and lanes, which its brief holds; a trace reads it whole.
func (a *Agent) keep(p *timeline.Pod) bool {
	if a.e.Done(p.UID) {
		return false
	}
	return play.Final(p) || a.traceDue(p, a.pods[p.UID], a.cfg.Now())
}

// traceDue reports whether the pod, open this long, is to have its trace cut now (TraceAfter).
func (a *Agent) traceDue(p *timeline.Pod, t *podTrack, now time.Time) bool {
	return a.cfg.Traces != nil && a.cfg.TraceAfter > 0 && (t == nil || !t.cut) && now.Sub(p.Created) >= a.cfg.TraceAfter
}
