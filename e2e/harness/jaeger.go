//go:build e2e

package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Jaeger is a Jaeger all-in-one (github.com/jaegertracing/jaeger/cmd/jaeger, built once into
// .e2e/bin by e2e/cluster/jaeger.sh) running on free localhost ports with in-memory storage: a
// real OTLP backend to send traces to, and its query API to read back what arrived.
type Jaeger struct {
	OTLP  string // the OTLP/HTTP receiver, http://127.0.0.1:PORT (or the host StartJaegerOn was given)
	Query string // the query API and UI, http://127.0.0.1:PORT

	daemon
}

// jaegerConfig runs only what the test needs: the OTLP/HTTP receiver, memory storage and the
// query service, each on the port given, no metrics endpoint; nothing listens on a fixed port.
const jaegerConfig = `service:
  extensions: [jaeger_storage, jaeger_query, healthcheckv2]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: info
extensions:
  healthcheckv2:
    use_v2: true
    http:
      endpoint: 127.0.0.1:%d
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: 127.0.0.1:%d
    grpc:
      endpoint: 127.0.0.1:%d
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 10000
receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`

// StartJaeger starts Jaeger and returns once its receiver and query API answer. Stop it when
// done. Without the binary it fails and says how to build it.
func (e *Env) StartJaeger(ctx context.Context) (*Jaeger, error) {
	return e.StartJaegerOn(ctx, "127.0.0.1")
}

// StartJaegerOn is StartJaeger with the OTLP receiver on host rather than 127.0.0.1: the
// node's address, for a pod to send to (the agent's traces).
func (e *Env) StartJaegerOn(ctx context.Context, host string) (*Jaeger, error) {
	bin := filepath.Join(e2eDir(e.Root), "bin", "jaeger")
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("no Jaeger binary (%w): e2e/cluster/jaeger.sh builds it (e2e/run.sh runs it)", err)
	}
	ports, err := freePorts(4)
	if err != nil {
		return nil, err
	}
	health, query, grpc, otlp := ports[0], ports[1], ports[2], ports[3]
	dir, err := os.MkdirTemp("", "sidecar-top-e2e-jaeger-")
	if err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(conf, fmt.Appendf(nil, jaegerConfig, health, query, grpc, net.JoinHostPort(host, strconv.Itoa(otlp))), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	j := &Jaeger{OTLP: "http://" + net.JoinHostPort(host, strconv.Itoa(otlp)), Query: "http://127.0.0.1:" + strconv.Itoa(query)}
	if err := j.start(dir, bin, "--config", "file:"+conf); err != nil {
		return nil, err
	}
	healthURL := "http://127.0.0.1:" + strconv.Itoa(health) + "/status"
	deadline := time.Now().Add(30 * time.Second)
	for {
		ok := j.get(ctx, healthURL, nil) == nil && j.get(ctx, j.Query+"/api/services", nil) == nil
		if ok && j.receiverUp() {
			return j, nil
		}
		select {
		case <-j.done:
			err = errors.New("jaeger exited")
		case <-ctx.Done():
			err = ctx.Err()
		case <-time.After(200 * time.Millisecond):
			if time.Now().Before(deadline) {
				continue
			}
			err = errors.New("jaeger did not answer within 30s")
		}
		j.Stop()
		return nil, fmt.Errorf("%w; its log ends:\n%s", err, j.LogTail(20))
	}
}

// receiverUp reports whether the OTLP receiver accepts connections.
func (j *Jaeger) receiverUp() bool {
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(j.OTLP, "http://"), time.Second)
	if err == nil {
		c.Close()
	}
	return err == nil
}

// get GETs url and decodes its JSON answer into v (nil: only checks it is 200).
func (j *Jaeger) get(ctx context.Context, url string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return &httpError{url: url, status: resp.StatusCode, body: string(bytes.TrimSpace(body))}
	}
	if v == nil {
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	return nil
}

type httpError struct {
	url    string
	status int
	body   string
}

func (e *httpError) Error() string { return fmt.Sprintf("GET %s: %d %s", e.url, e.status, e.body) }

// JaegerSpan is a span as Jaeger's query API (v3, OTLP JSON) returns it, with its resource.
type JaegerSpan struct {
	TraceID, SpanID, ParentSpanID string
	Name                          string
	Start, End                    time.Time
	Attributes                    map[string]string
	Events                        []JaegerEvent
	Resource                      map[string]string
	Status                        string // the status code, e.g. STATUS_CODE_ERROR; empty when unset
}

// JaegerEvent is a span event.
type JaegerEvent struct {
	Name       string
	At         time.Time
	Attributes map[string]string
}

// otlpJSON is the part of OTLP JSON that the v3 API's trace answer holds.
type otlpJSON struct {
	Result struct {
		ResourceSpans []struct {
			Resource struct {
				Attributes []otlpKV `json:"attributes"`
			} `json:"resource"`
			ScopeSpans []struct {
				Spans []struct {
					TraceID      string   `json:"traceId"`
					SpanID       string   `json:"spanId"`
					ParentSpanID string   `json:"parentSpanId"`
					Name         string   `json:"name"`
					Start        string   `json:"startTimeUnixNano"`
					End          string   `json:"endTimeUnixNano"`
					Attributes   []otlpKV `json:"attributes"`
					Events       []struct {
						Name       string   `json:"name"`
						Time       string   `json:"timeUnixNano"`
						Attributes []otlpKV `json:"attributes"`
					} `json:"events"`
					Status struct {
						Code any `json:"code"`
					} `json:"status"`
				} `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	} `json:"result"`
}

type otlpKV struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

// attrs flattens OTLP JSON attributes to strings: a string as it is, a double as its number
// (strconv's shortest form), anything else as its JSON (e.g. {"intValue":"137"}).
func attrs(kvs []otlpKV) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		var s struct {
			StringValue *string  `json:"stringValue"`
			DoubleValue *float64 `json:"doubleValue"`
		}
		switch err := json.Unmarshal(kv.Value, &s); {
		case err == nil && s.StringValue != nil:
			out[kv.Key] = *s.StringValue
		case err == nil && s.DoubleValue != nil:
			out[kv.Key] = strconv.FormatFloat(*s.DoubleValue, 'g', -1, 64)
		default:
			out[kv.Key] = string(kv.Value)
		}
	}
	return out
}

func unixNano(s string) time.Time {
	n, _ := strconv.ParseInt(s, 10, 64)
	return time.Unix(0, n).UTC()
}

// Trace reads trace id (32 hex digits) through the v3 query API (GET /api/v3/traces/ID), each
// span once. It is nil, without error, while Jaeger does not have it.
func (j *Jaeger) Trace(ctx context.Context, id string) ([]JaegerSpan, error) {
	var doc otlpJSON
	err := j.get(ctx, j.Query+"/api/v3/traces/"+id, &doc)
	if he := (*httpError)(nil); errors.As(err, &he) && he.status == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []JaegerSpan
	for _, rs := range doc.Result.ResourceSpans {
		res := attrs(rs.Resource.Attributes)
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				js := JaegerSpan{TraceID: s.TraceID, SpanID: s.SpanID, ParentSpanID: s.ParentSpanID, Name: s.Name,
					Start: unixNano(s.Start), End: unixNano(s.End), Attributes: attrs(s.Attributes), Resource: res}
				if s.Status.Code != nil {
					js.Status = fmt.Sprint(s.Status.Code)
				}
				for _, e := range s.Events {
					js.Events = append(js.Events, JaegerEvent{Name: e.Name, At: unixNano(e.Time), Attributes: attrs(e.Attributes)})
				}
				out = append(out, js)
			}
		}
	}
	return out, nil
}

// WaitTrace polls Trace until it has at least n spans or limit passes, and returns what it has.
func (j *Jaeger) WaitTrace(ctx context.Context, id string, n int, limit time.Duration) ([]JaegerSpan, error) {
	deadline := time.Now().Add(limit)
	for {
		spans, err := j.Trace(ctx, id)
		if err != nil || len(spans) >= n || time.Now().After(deadline) {
			return spans, err
		}
		select {
		case <-ctx.Done():
			return spans, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// freePorts are n distinct TCP ports free on 127.0.0.1 now.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("a free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
