package export

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/proto"

	"github.com/sidecar-top/sidecar-top/recordings"
)

// dumpSpan is a span as the tests compare it: what the SDK made, or what a receiver decoded.
type dumpSpan struct {
	Trace, Span, Parent string
	Name                string
	Start, End          string
	Status              string `json:",omitempty"`
	Attrs               map[string]string
	Events              []dumpEvent
	Resource            map[string]string
}

type dumpEvent struct {
	Name  string
	At    string
	Attrs map[string]string
}

// stamp is t to the nanosecond in a fixed width, so that stamps compare as the times do.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000000Z") }

func sdkAttrs(kvs []attribute.KeyValue) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		out[string(kv.Key)] = kv.Value.Emit()
	}
	return out
}

// fromSDK dumps the spans an exporter was handed.
func fromSDK(spans tracetest.SpanStubs) []dumpSpan {
	var out []dumpSpan
	for _, s := range spans {
		d := dumpSpan{Trace: s.SpanContext.TraceID().String(), Span: s.SpanContext.SpanID().String(), Name: s.Name,
			Start: stamp(s.StartTime), End: stamp(s.EndTime), Attrs: sdkAttrs(s.Attributes), Resource: sdkAttrs(s.Resource.Attributes())}
		if s.Parent.SpanID().IsValid() {
			d.Parent = s.Parent.SpanID().String()
		}
		if s.Status.Code != 0 {
			d.Status = s.Status.Code.String() + ": " + s.Status.Description
		}
		for _, e := range s.Events {
			d.Events = append(d.Events, dumpEvent{Name: e.Name, At: stamp(e.Time), Attrs: sdkAttrs(e.Attributes)})
		}
		out = append(out, d)
	}
	return out
}

// protoValue formats an OTLP attribute value as the SDK's Value.Emit does.
func protoValue(v *commonpb.AnyValue) string {
	switch x := v.Value.(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10)
	case *commonpb.AnyValue_BoolValue:
		return strconv.FormatBool(x.BoolValue)
	case *commonpb.AnyValue_DoubleValue:
		return strconv.FormatFloat(x.DoubleValue, 'g', -1, 64)
	case *commonpb.AnyValue_ArrayValue:
		var ss []string
		for _, e := range x.ArrayValue.Values {
			ss = append(ss, protoValue(e))
		}
		b, _ := json.Marshal(ss)
		return string(b)
	}
	return "?"
}

func protoAttrs(kvs []*commonpb.KeyValue) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		out[kv.Key] = protoValue(kv.Value)
	}
	return out
}

// fromProto dumps the spans of the export requests a receiver decoded.
func fromProto(reqs []*collectorpb.ExportTraceServiceRequest) []dumpSpan {
	var out []dumpSpan
	for _, req := range reqs {
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					d := dumpSpan{Trace: hex.EncodeToString(s.TraceId), Span: hex.EncodeToString(s.SpanId),
						Parent: hex.EncodeToString(s.ParentSpanId), Name: s.Name,
						Start: stamp(time.Unix(0, int64(s.StartTimeUnixNano))), End: stamp(time.Unix(0, int64(s.EndTimeUnixNano))),
						Attrs: protoAttrs(s.Attributes), Resource: protoAttrs(rs.Resource.Attributes)}
					if s.Status != nil && s.Status.Code != 0 {
						d.Status = map[int32]string{1: "Ok", 2: "Error"}[int32(s.Status.Code)] + ": " + s.Status.Message
					}
					for _, e := range s.Events {
						d.Events = append(d.Events, dumpEvent{Name: e.Name, At: stamp(time.Unix(0, int64(e.TimeUnixNano))), Attrs: protoAttrs(e.Attributes)})
					}
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// traces turns a recording's timeline into spans with an in-memory exporter.
func traces(t *testing.T, in Input) []dumpSpan {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	if err := WriteTraces(t.Context(), in, exp, ""); err != nil {
		t.Fatal(err)
	}
	return fromSDK(exp.GetSpans())
}

// TestOTLPGoldens compares every shared recording's spans with a golden file, and checks that
// exporting again gives the same spans with the same IDs.
func TestOTLPGoldens(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			in := recording(t, name)
			spans := traces(t, in)
			b, err := json.MarshalIndent(spans, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, OTLP, name, append(b, '\n'))
			if diff := cmp.Diff(traces(t, in), spans); diff != "" {
				t.Errorf("a second export differs (-got +want):\n%s", diff)
			}
		})
	}
}

// TestOTLPTraceShape checks each pod's trace against its timeline: one trace per pod whose ID is
// the pod's UID, one root, every other span under a span of the trace and within its time, a
// span per run and per stretch of a lane, and every milestone an event within its span.
func TestOTLPTraceShape(t *testing.T) {
	for _, name := range recordings.Names() {
		t.Run(name, func(t *testing.T) {
			in := recording(t, name)
			spans := traces(t, in)
			byID := map[string]dumpSpan{}
			for _, s := range spans {
				if _, dup := byID[s.Span]; dup {
					t.Errorf("span ID %s twice", s.Span)
				}
				byID[s.Span] = s
			}
			type tally struct{ roots, runs, states, events int }
			got, want := map[string]tally{}, map[string]tally{}
			for _, s := range spans {
				tl := got[s.Trace]
				tl.events += len(s.Events)
				switch parent, ok := byID[s.Parent]; {
				case s.Parent == "":
					tl.roots++
				case !ok:
					t.Errorf("span %s: parent %s is not in the trace", s.Name, s.Parent)
				default:
					if parent.Trace != s.Trace {
						t.Errorf("span %s is in another trace than its parent", s.Name)
					}
					if s.Start < parent.Start || s.End > parent.End {
						t.Errorf("span %s [%s, %s] is not within its parent %s [%s, %s]", s.Name, s.Start, s.End, parent.Name, parent.Start, parent.End)
					}
					if _, ok := s.Attrs["sidecar_top.state"]; ok {
						tl.states++
					} else {
						tl.runs++
					}
				}
				for _, e := range s.Events {
					if e.At < s.Start || e.At > s.End {
						t.Errorf("span %s: event %s at %s is outside [%s, %s]", s.Name, e.Name, e.At, s.Start, s.End)
					}
				}
				got[s.Trace] = tl
			}
			for _, p := range in.Snapshot.Pods.Items() {
				tl := tally{roots: 1, events: p.Milestones.Len()}
				for ci := range p.Containers {
					c := &p.Containers[ci]
					tl.runs += max(c.Runs.Len(), 1)
					tl.states += len(c.Segments())
					tl.events += len(c.Milestones())
				}
				want[traceID(p.UID).String()] = tl
				if id := traceID(p.UID).String(); id != strings.ReplaceAll(p.UID, "-", "") {
					t.Errorf("pod %s: trace ID %s, want its UID %s", p.Name, id, p.UID)
				}
			}
			if diff := cmp.Diff(got, want, cmp.AllowUnexported(tally{})); diff != "" {
				t.Errorf("spans and events per trace (-got +want):\n%s", diff)
			}
		})
	}
}

// receiver is an OTLP/HTTP receiver that decodes what it is sent, as a collector does.
type receiver struct {
	mu      sync.Mutex
	reqs    []*collectorpb.ExportTraceServiceRequest
	headers []http.Header
	status  int // the status to answer with; 0 is 200
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if req.URL.Path != "/v1/traces" || req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "want POST /v1/traces of application/x-protobuf", http.StatusBadRequest)
		return
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var m collectorpb.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &m); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.reqs, r.headers = append(r.reqs, &m), append(r.headers, req.Header.Clone())
	if r.status != 0 {
		http.Error(w, "no", r.status)
		return
	}
	out, _ := proto.Marshal(&collectorpb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

// TestSendOTLP sends a recording over HTTP to a receiver that decodes the OTLP protobuf, and
// compares what arrived with what the SDK made.
func TestSendOTLP(t *testing.T) {
	in := recording(t, "job-native-sidecar")
	want := traces(t, in)
	rcv := &receiver{}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	err := SendOTLP(t.Context(), in, OTLPOptions{Endpoint: srv.URL, Headers: map[string]string{"Authorization": "Bearer x"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fromProto(rcv.reqs), want); diff != "" {
		t.Errorf("received spans (-got +want):\n%s", diff)
	}
	for _, h := range rcv.headers {
		if got := h.Get("Authorization"); got != "Bearer x" {
			t.Errorf("Authorization header %q, want %q", got, "Bearer x")
		}
	}

	// host:port with Insecure reaches the same receiver over plain HTTP.
	rcv.reqs = nil
	if err := SendOTLP(t.Context(), in, OTLPOptions{Endpoint: strings.TrimPrefix(srv.URL, "http://"), Insecure: true}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fromProto(rcv.reqs), want); diff != "" {
		t.Errorf("received spans, host:port (-got +want):\n%s", diff)
	}
}

// TestSendOTLPErrors: a receiver that refuses, a bad endpoint and a closed port are errors.
func TestSendOTLPErrors(t *testing.T) {
	in := recording(t, "startup-probe")
	rcv := &receiver{status: http.StatusBadRequest}
	srv := httptest.NewServer(rcv)
	if err := SendOTLP(t.Context(), in, OTLPOptions{Endpoint: srv.URL}); err == nil {
		t.Error("a receiver answering 400: no error")
	}
	srv.Close()
	if err := SendOTLP(t.Context(), in, OTLPOptions{Endpoint: srv.URL, Timeout: 2 * time.Second}); err == nil {
		t.Error("a closed port: no error")
	}
	for _, ep := range []string{"ftp://host:4318", "http://", "http://[::1"} {
		if err := SendOTLP(t.Context(), in, OTLPOptions{Endpoint: ep}); err == nil || !strings.Contains(err.Error(), "--otlp-endpoint") {
			t.Errorf("endpoint %q: error %v, want one naming --otlp-endpoint", ep, err)
		}
	}
}

// TestTraceIDs: a pod UID is its trace ID; another UID is hashed; IDs are never zero.
func TestTraceIDs(t *testing.T) {
	got := []string{
		traceID("8c21d8b2-5919-4683-8ba5-f842c9cf18df").String(),
		traceID("00000000-0000-0000-0000-000000000000").String(),
		traceID("not-a-uuid").String(),
	}
	want := []string{"8c21d8b259194683 8ba5f842c9cf18df", "0000000000000000 0000000000000001", traceID("not-a-uuid").String()}
	want[0], want[1] = strings.ReplaceAll(want[0], " ", ""), strings.ReplaceAll(want[1], " ", "")
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("trace IDs (-got +want):\n%s", diff)
	}
	if !traceID("not-a-uuid").IsValid() || traceID("not-a-uuid") == traceID("not-a-uuid2") {
		t.Error("a hashed trace ID is zero or not distinct")
	}
	if a, b := spanID("u", "run", "app", "0"), spanID("u", "run", "app0"); a == b || !a.IsValid() {
		t.Error("span IDs of different parts collide or are zero")
	}
}
