package export

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// OTLPOptions say where SendOTLP sends a timeline.
type OTLPOptions struct {
	// Endpoint is the OTLP/HTTP receiver: a URL (http://localhost:4318, https://otlp.example.com;
	// /v1/traces is added when it has no path) or host:port (HTTPS unless Insecure). Empty means
	// the SDK's default, from OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
	// else https://localhost:4318.
	Endpoint string
	// Insecure sends host:port over plain HTTP.
	Insecure bool
	// Headers are sent with every request, e.g. an authorization header.
	Headers map[string]string
	// ServiceName is every trace's service.name; empty means "sidecar-top".
	ServiceName string
	// Timeout bounds the whole sending, retries included; zero means 30 s.
	Timeout time.Duration
	// Shift moves every time the traces hold by the same amount (ShiftToNow: so that they end
	// now); zero sends the times as they were recorded.
	Shift time.Duration
}

// SendOTLP sends the timeline, a trace per pod (see WriteTraces), to an OTLP/HTTP endpoint with
// the OpenTelemetry SDK's exporter, and returns once the receiver has taken every span or the
// timeout has passed.
//
// OTLP over HTTP (protobuf) rather than gRPC: it is the protocol the OpenTelemetry specification
// has SDKs default to, every collector and backend that takes OTLP takes it (Jaeger, Tempo, the
// Collector, vendors), it passes HTTP proxies and ingresses as they are, and sidecar-top then
// carries no gRPC client for a command that sends one batch and exits.
func SendOTLP(ctx context.Context, in Input, o OTLPOptions) error {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	opts, err := o.exporterOptions()
	if err != nil {
		return err
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return fmt.Errorf("otlp: %w", err)
	}
	err = writeTraces(ctx, in, exp, o.ServiceName, o.Shift)
	if serr := exp.Shutdown(ctx); err == nil && serr != nil {
		err = fmt.Errorf("otlp: %w", serr)
	}
	return o.explain(err)
}

// exporterOptions turn the options into the exporter's.
func (o OTLPOptions) exporterOptions() ([]otlptracehttp.Option, error) {
	var opts []otlptracehttp.Option
	switch ep := strings.TrimSpace(o.Endpoint); {
	case ep == "":
	case strings.Contains(ep, "://"):
		u, err := url.Parse(ep)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("--otlp-endpoint %q: want http://HOST:PORT, https://HOST:PORT or HOST:PORT", o.Endpoint)
		}
		if u.Path == "" || u.Path == "/" {
			u.Path = "/v1/traces"
		}
		opts = append(opts, otlptracehttp.WithEndpointURL(u.String()))
	default:
		if err := CheckEndpoint(ep); err != nil {
			return nil, fmt.Errorf("--otlp-endpoint %w", err)
		}
		opts = append(opts, otlptracehttp.WithEndpoint(ep))
		if o.Insecure {
			opts = append(opts, otlptracehttp.WithInsecure())
		}
	}
	if len(o.Headers) > 0 {
		opts = append(opts, otlptracehttp.WithHeaders(o.Headers))
	}
	// A command waits for its answer: retry a busy receiver a little, not for the SDK's minute.
	opts = append(opts, otlptracehttp.WithRetry(otlptracehttp.RetryConfig{
		Enabled: true, InitialInterval: 500 * time.Millisecond, MaxInterval: 2 * time.Second, MaxElapsedTime: 10 * time.Second,
	}))
	return opts, nil
}

// maxBatch is the most spans sent in one request.
const maxBatch = 512

// WriteTraces turns the timeline into spans with the OpenTelemetry SDK and hands them to exp,
// a trace per pod (see podTrace for its spans), at most maxBatch spans at a time. It does not
// shut exp down. serviceName is every trace's service.name; empty means "sidecar-top".
//
// It stops at the first batch exp fails to take (a receiver that refuses connections refuses
// them all; trying each of 10,000 pods had printed 1.2 MB of errors on one line), and says how
// many pods' traces were sent and why the rest were not (NotSentError).
func WriteTraces(ctx context.Context, in Input, exp sdktrace.SpanExporter, serviceName string) error {
	return writeTraces(ctx, in, exp, serviceName, 0)
}

// writeTraces is WriteTraces with every time moved by shift (shiftSpans).
func writeTraces(ctx context.Context, in Input, exp sdktrace.SpanExporter, serviceName string, shift time.Duration) error {
	if serviceName == "" {
		serviceName = "sidecar-top"
	}
	var errs []error
	total, sent := in.Snapshot.Pods.Len(), 0
	for _, p := range in.Snapshot.Pods.Items() {
		spans, err := podTrace(ctx, in, p, serviceName)
		if err != nil {
			errs = append(errs, fmt.Errorf("otlp: pod %s: %w", p.Name, err))
			continue
		}
		spans = shiftSpans(spans, shift)
		for len(spans) > 0 {
			n := min(len(spans), maxBatch)
			if err := exp.ExportSpans(ctx, spans[:n]); err != nil {
				return errors.Join(append(errs, &NotSentError{Sent: sent, Pods: total, Pod: p.Name, Err: err})...)
			}
			spans = spans[n:]
		}
		sent++
	}
	return errors.Join(errs...)
}

// NotSentError is why sending stopped: the traces of Sent of the Pods pods had been sent when
// the receiver did not take pod Pod's, and the rest were not sent.
type NotSentError struct {
	Sent, Pods int
	Pod        string
	Err        error
}

func (e *NotSentError) Error() string {
	rest := ""
	if left := e.Pods - e.Sent - 1; left > 0 {
		rest = fmt.Sprintf("; the other %d were not sent", left)
	}
	return fmt.Sprintf("otlp: sent %d of %d pods' traces; pod %s's were not taken: %v%s", e.Sent, e.Pods, e.Pod, e.Err, rest)
}

func (e *NotSentError) Unwrap() error { return e.Err }

// collector is a span processor that keeps the spans that end, to export them at once.
type collector struct{ spans []sdktrace.ReadOnlySpan }

func (c *collector) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (c *collector) OnEnd(s sdktrace.ReadOnlySpan)                   { c.spans = append(c.spans, s) }
func (c *collector) Shutdown(context.Context) error                  { return nil }
func (c *collector) ForceFlush(context.Context) error                { return nil }
