package agent

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/sidecar-top/sidecar-top/export"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TraceOptions say how traces are made and queued.
type TraceOptions struct {
	// ExportedBy is the traces' instrumentation version, as export's About says it.
	ExportedBy string
	// Queue is how many pods' traces wait to be sent, at most; zero means 1000. Beyond it a
	// trace is dropped (and counted), never waited for: the watch does not slow down.
	Queue int
	// Exporter, if set, is used instead of the endpoint's (tests).
	Exporter sdktrace.SpanExporter
	Log      *slog.Logger
}

// maxBatch is the most spans sent in one request, as export sends them.
const maxBatch = 512

// Traces sends pods' traces over OTLP, each made by export's mapping (export.WriteTraces) so
// that a pod's trace is the one `export --format otlp` makes of a recording of it. Traces are
// queued and sent by one goroutine in batches of several pods; the exporter retries as the
// SDK does. A nil *Traces sends nothing.
type Traces struct {
	exp   sdktrace.SpanExporter
	about export.About
	log   *slog.Logger
	q     chan []sdktrace.ReadOnlySpan
	done  chan struct{}

	sent, dropped prometheus.Counter
}

// NewTraces is a sender to endpoint (see --otlp-endpoint); nil, with no error, when endpoint is
// empty and no exporter is given.
func NewTraces(ctx context.Context, endpoint string, o TraceOptions) (*Traces, error) {
	exp := o.Exporter
	if exp == nil {
		if endpoint == "" {
			return nil, nil
		}
		var err error
		if exp, err = newExporter(ctx, endpoint); err != nil {
			return nil, err
		}
	}
	if o.Queue <= 0 {
		o.Queue = 1000
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	t := &Traces{exp: exp, about: export.About{Name: "live", ExportedBy: o.ExportedBy}, log: o.Log,
		q: make(chan []sdktrace.ReadOnlySpan, o.Queue), done: make(chan struct{}),
		sent: prometheus.NewCounter(prometheus.CounterOpts{}), dropped: prometheus.NewCounter(prometheus.CounterOpts{})}
	go t.run()
	return t, nil
}

// newExporter is the OTLP exporter an endpoint names: http:// or https:// (OTLP/HTTP, with
// /v1/traces added when the URL has no path), grpc:// (OTLP/gRPC, plain) or grpcs:// (with TLS).
func newExporter(ctx context.Context, endpoint string) (sdktrace.SpanExporter, error) {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("--otlp-endpoint %q: want http://HOST:4318, https://HOST:4318, grpc://HOST:4317 or grpcs://HOST:4317", endpoint)
	}
	switch u.Scheme {
	case "http", "https":
		if u.Path == "" || u.Path == "/" {
			u.Path = "/v1/traces"
		}
		return otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(u.String()))
	case "grpc":
		return otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(u.Host), otlptracegrpc.WithInsecure())
	case "grpcs":
		return otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(u.Host))
	}
	return nil, fmt.Errorf("--otlp-endpoint %q: the scheme is http, https, grpc or grpcs", endpoint)
}

// Count counts the traces sent and dropped in m.
func (t *Traces) Count(m *Metrics) {
	if t != nil {
		t.sent, t.dropped = m.TracesSent, m.TracesDropped
	}
}

// Send makes p's trace and queues it; it returns its trace ID, or "" when the queue was full
// (the trace is dropped) or the trace could not be made.
func (t *Traces) Send(p *timeline.Pod) string {
	if t == nil {
		return ""
	}
	var c collect
	in := export.Input{Snapshot: timeline.Snapshot{Pods: timeline.SeqOf(p)}, About: t.about}
	if err := export.WriteTraces(context.Background(), in, &c, ""); err != nil || len(c) == 0 {
		t.dropped.Inc()
		return ""
	}
	select {
	case t.q <- c:
		return c[0].SpanContext().TraceID().String()
	default:
		t.dropped.Inc()
		return ""
	}
}

// run sends what is queued, several pods' spans at a time, until Shutdown closes the queue.
func (t *Traces) run() {
	defer close(t.done)
	for spans := range t.q {
		pods := 1
	more:
		for len(spans) < maxBatch {
			select {
			case next, ok := <-t.q:
				if !ok {
					break more
				}
				spans, pods = append(spans, next...), pods+1
			default:
				break more
			}
		}
		if err := t.exp.ExportSpans(context.Background(), spans); err != nil {
			t.dropped.Add(float64(pods))
			t.log.Warn("traces not sent", "pods", pods, "error", err.Error())
			continue
		}
		t.sent.Add(float64(pods))
	}
}

// Shutdown sends what is queued and stops the exporter, within ctx. Nothing may be sent after.
func (t *Traces) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	close(t.q)
	select {
	case <-t.done:
	case <-ctx.Done():
	}
	return t.exp.Shutdown(ctx)
}

// collect is a span exporter that keeps what it is given: one pod's trace, as export makes it.
type collect []sdktrace.ReadOnlySpan

func (c *collect) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	*c = append(*c, spans...)
	return nil
}

func (c *collect) Shutdown(context.Context) error { return nil }
