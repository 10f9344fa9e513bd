package export

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// scope names the instrumentation that makes the spans.
const scope = "github.com/sidecar-top/sidecar-top/export"

// Attribute keys of sidecar-top's own, beside OpenTelemetry's semantic conventions (k8s.*).
const (
	keyStatus    = attribute.Key("sidecar_top.pod.status")
	keyPhase     = attribute.Key("sidecar_top.pod.phase")
	keyDeleted   = attribute.Key("sidecar_top.pod.deleted")
	keyOwner     = attribute.Key("sidecar_top.pod.owner")
	keyFindings  = attribute.Key("sidecar_top.findings")
	keyGaps      = attribute.Key("sidecar_top.gaps")
	keyKind      = attribute.Key("sidecar_top.container.kind")
	keyAttempt   = attribute.Key("sidecar_top.container.attempt")
	keyState     = attribute.Key("sidecar_top.state")
	keyReason    = attribute.Key("sidecar_top.state.reason")
	keyOpen      = attribute.Key("sidecar_top.state.open")
	keyMKind     = attribute.Key("sidecar_top.milestone.kind")
	keySource    = attribute.Key("sidecar_top.milestone.source")
	keyOffset    = attribute.Key("sidecar_top.milestone.offset")
	keyEarliest  = attribute.Key("sidecar_top.milestone.earliest")
	keyLatest    = attribute.Key("sidecar_top.milestone.latest")
	keyBoundMS   = attribute.Key("sidecar_top.milestone.bound_ms")
	keyDetail    = attribute.Key("sidecar_top.milestone.detail")
	keyMessage   = attribute.Key("sidecar_top.milestone.message")
	keyEvidence  = attribute.Key("sidecar_top.milestone.evidence")
	keyExitCode  = attribute.Key("sidecar_top.milestone.exit_code")
	keySignal    = attribute.Key("sidecar_top.milestone.signal")
	keyServerVer = attribute.Key("sidecar_top.kubernetes.version")
)

// podTrace makes pod p's trace with the SDK and returns its spans:
//   - a root span "pod NAME" over the pod's life, with the pod's milestones as span events and
//     its findings and named gaps as attributes (each gap's seconds and bounds as numbers too);
//   - under it a span per container run ("NAME", or "NAME restart N" for a later run), with the
//     run's milestones as span events;
//   - under each run a span per stretch of its lane in one state (pending, waiting, running,
//     started, ready, terminating, terminated).
//
// Every span event is a milestone at its best estimate, with its bounds, source and evidence as
// attributes. The resource is the pod (k8s.namespace.name, k8s.pod.name, k8s.pod.uid, ...).
func podTrace(ctx context.Context, in Input, p *timeline.Pod, serviceName string) ([]sdktrace.ReadOnlySpan, error) {
	res := podResource(in, p, serviceName)
	ids, col := &fixedIDs{}, &collector{}
	limits := sdktrace.NewSpanLimits()
	limits.EventCountLimit = max(limits.EventCountLimit, 10000) // a crash loop's pod row has many
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithIDGenerator(ids),
		sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithSpanProcessor(col), sdktrace.WithRawSpanLimits(limits))
	defer tp.Shutdown(context.Background())
	tr := tp.Tracer(scope, trace.WithInstrumentationVersion(in.About.ExportedBy))

	s, tid := podSpan(p), traceID(p.UID)
	var start starter = func(parent context.Context, id trace.SpanID, name string, from time.Time, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
		ids.next(tid, id)
		return tr.Start(parent, name, trace.WithTimestamp(from), trace.WithAttributes(attrs...), trace.WithSpanKind(trace.SpanKindInternal))
	}

	var gaps, findings []string
	for _, g := range p.Gaps {
		gaps = append(gaps, g.Name+": "+textfmt.Gap(g.Span))
	}
	for _, f := range p.Findings() {
		findings = append(findings, string(f.Severity)+": "+f.Line(p.Name))
	}
	attrs := []attribute.KeyValue{keyStatus.String(p.Status), keyPhase.String(p.Phase), keyDeleted.Bool(p.Deleted)}
	if p.Owner != nil {
		attrs = append(attrs, keyOwner.String(p.Owner.String()))
	}
	if len(gaps) > 0 {
		attrs = append(attrs, keyGaps.StringSlice(gaps))
	}
	for _, g := range p.Gaps {
		attrs = append(attrs, gapAttrs(g)...)
	}
	if len(findings) > 0 {
		attrs = append(attrs, keyFindings.StringSlice(findings))
	}
	podCtx, root := start(ctx, spanID(p.UID, "pod"), "pod "+p.Name, s.origin, attrs...)
	for _, m := range p.Milestones.All() {
		if s.placed(m.At) {
			addMilestone(root, m)
		}
	}
	for ci := range p.Containers {
		containerSpans(podCtx, &p.Containers[ci], p.UID, s, start)
	}
	if p.Phase == "Failed" {
		root.SetStatus(codes.Error, "phase Failed")
	}
	root.End(trace.WithTimestamp(s.end))
	if err := tp.ForceFlush(ctx); err != nil {
		return nil, err
	}
	return col.spans, nil
}

// starter starts a span with the given ID as a child of parent.
type starter func(parent context.Context, id trace.SpanID, name string, from time.Time, attrs ...attribute.KeyValue) (context.Context, trace.Span)

// containerSpans makes a span per run of container c and, under each, a span per stretch of its
// lane in one state. A stretch belongs to the run whose first state change it follows; the
// lane's first stretch (pending from the pod's creation) to the first run.
func containerSpans(ctx context.Context, c *timeline.Container, uid string, s span, start starter) {
	runs := c.Runs.Slice()
	if len(runs) == 0 {
		runs = []*timeline.Run{{}}
	}
	segs := segmentsByRun(c, runs, s)
	for ri, r := range runs {
		from, to, ok := runExtent(r, segs[ri], s)
		if !ok {
			continue // nothing of this run is on the axis
		}
		runCtx, run := startRun(ctx, c, r, uid, from, start)
		runMilestones(run, r, s)
		stateSpans(runCtx, c, r, segs[ri], uid, s, start)
		run.End(trace.WithTimestamp(to))
	}
}

// segmentsByRun is, for each of runs, the stretches of c's lane on the axis that belong to it.
func segmentsByRun(c *timeline.Container, runs []*timeline.Run, s span) [][]timeline.Segment {
	segs := make([][]timeline.Segment, len(runs))
	for _, g := range c.Segments() {
		if !s.placed(g.From) {
			continue
		}
		i := 0
		for j := 1; j < len(runs); j++ {
			if ch := runs[j].Changes; len(ch) > 0 && !g.From.Before(ch[0].At) {
				i = j
			}
		}
		segs[i] = append(segs[i], g)
	}
	return segs
}

// runExtent is the time run r's span covers: its stretches segs and its milestones on the axis.
// ok is false when none of them is on the axis.
func runExtent(r *timeline.Run, segs []timeline.Segment, s span) (from, to time.Time, ok bool) {
	widen := func(a, b time.Time) {
		if from.IsZero() || a.Before(from) {
			from = a
		}
		if b.After(to) {
			to = b
		}
	}
	for _, g := range segs {
		widen(g.From, segmentEnd(g, s))
	}
	for i := range r.Milestones {
		if m := &r.Milestones[i]; s.placed(m.At) {
			widen(m.At, m.At)
		}
	}
	return from, to, !from.IsZero()
}

// startRun starts the span of container c's run r at from: "NAME", or "NAME restart N" for a
// later run.
func startRun(ctx context.Context, c *timeline.Container, r *timeline.Run, uid string, from time.Time, start starter) (context.Context, trace.Span) {
	name := c.Name
	if r.Attempt > 0 {
		name = fmt.Sprintf("%s restart %d", c.Name, r.Attempt)
	}
	return start(ctx, spanID(uid, "run", c.Name, itoa(r.Attempt)), name, from,
		semconv.K8SContainerName(c.Name), semconv.K8SContainerRestartCount(int(r.Attempt)),
		keyKind.String(string(c.Kind)), keyAttempt.Int(int(r.Attempt)))
}

// runMilestones adds run r's milestones on the axis to its span as events; a failed exit makes
// the span's status an error.
func runMilestones(run trace.Span, r *timeline.Run, s span) {
	for i := range r.Milestones {
		m := &r.Milestones[i]
		if !s.placed(m.At) {
			continue
		}
		addMilestone(run, m)
		if m.Kind == timeline.MExit && m.Failed() {
			run.SetStatus(codes.Error, m.Detail())
		}
	}
}

// stateSpans makes a span under the run's (ctx) per stretch segs of container c's run r.
func stateSpans(ctx context.Context, c *timeline.Container, r *timeline.Run, segs []timeline.Segment, uid string, s span, start starter) {
	for gi, g := range segs {
		attrs := []attribute.KeyValue{keyState.String(string(g.State))}
		if g.Reason != "" {
			attrs = append(attrs, keyReason.String(g.Reason))
		}
		if g.To.IsZero() {
			attrs = append(attrs, keyOpen.Bool(true)) // still so when the timeline ended
		}
		_, seg := start(ctx, spanID(uid, "state", c.Name, itoa(r.Attempt), itoa(gi)), string(g.State), g.From, attrs...)
		seg.End(trace.WithTimestamp(segmentEnd(g, s)))
	}
}

// addMilestone adds milestone m to span sp as an event at its best estimate, with its bounds.
func addMilestone(sp trace.Span, m *timeline.Milestone) {
	attrs := []attribute.KeyValue{
		keyMKind.String(string(m.Kind)), keySource.String(string(m.Source)), keyOffset.String(textfmt.Span(m.Offset)),
	}
	if m.Offset.Bounded() {
		attrs = append(attrs, keyBoundMS.Float64(float64(m.Offset.Plus().Microseconds())/1e3))
	}
	if m.Container != "" {
		attrs = append(attrs, semconv.K8SContainerName(m.Container), keyAttempt.Int(int(m.Attempt)))
	}
	if !m.Earliest.IsZero() {
		attrs = append(attrs, keyEarliest.String(rfc3339(m.Earliest)))
	}
	if !m.Latest.IsZero() {
		attrs = append(attrs, keyLatest.String(rfc3339(m.Latest)))
	}
	if d := m.Detail(); d != "" {
		attrs = append(attrs, keyDetail.String(d))
	}
	if m.Message != "" {
		attrs = append(attrs, keyMessage.String(m.Message))
	}
	if m.ExitCode != nil {
		attrs = append(attrs, keyExitCode.Int(int(*m.ExitCode)))
	}
	if m.Signal != "" {
		attrs = append(attrs, keySignal.String(m.Signal))
	}
	if ev := evidenceSummary(m); ev != "" {
		attrs = append(attrs, keyEvidence.String(ev))
	}
	sp.AddEvent(eventName(m), trace.WithTimestamp(m.At), trace.WithAttributes(attrs...))
}

// podResource describes the pod as OpenTelemetry's semantic conventions do. It holds only what
// a live watch and a replay of its recording both know (not the container runtime, which only a
// recording's raw objects name), so that either sends the same spans.
func podResource(in Input, p *timeline.Pod, serviceName string) *resource.Resource {
	attrs := []attribute.KeyValue{semconv.ServiceName(serviceName),
		semconv.K8SNamespaceName(p.Namespace), semconv.K8SPodName(p.Name), semconv.K8SPodUID(p.UID)}
	if p.Node != "" {
		attrs = append(attrs, semconv.K8SNodeName(p.Node))
	}
	if p.Owner != nil && p.Owner.Kind == "Job" {
		attrs = append(attrs, semconv.K8SJobName(p.Owner.Name))
	}
	if v := in.About.ServerVersion; v != "" {
		attrs = append(attrs, keyServerVer.String(v))
	}
	return resource.NewWithAttributes(semconv.SchemaURL, attrs...)
}

// eventName names a milestone's span event by its kind, as JSON output does (a backend's
// queries match it), not by the view's shortened label; an inferred one ends in "?".
func eventName(m *timeline.Milestone) string {
	if m.Kind == timeline.MContainersReady {
		k := string(m.Kind)
		if m.Source == timeline.SourceInferred {
			k += "?"
		}
		return k
	}
	return m.KindName()
}
