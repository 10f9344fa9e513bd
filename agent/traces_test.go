package agent

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/sidecar-top/sidecar-top/export"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestTracesAreExports: the trace the agent sends of each final pod is the one export makes
// of the recording (the same span IDs, names, times and attributes), and the gap observations
// carry its trace ID as their exemplar.
func TestTracesAreExports(t *testing.T) {
	name := "job-native-sidecar"
	mem := tracetest.NewInMemoryExporter()
	traces, err := NewTraces(context.Background(), "", TraceOptions{Exporter: kept{mem}, ExportedBy: "test", Log: quiet(t)})
	if err != nil {
		t.Fatal(err)
	}
	_, m := run(t, true, Config{OwnerNames: true, Traces: traces}, &listedFirst{Source: reader(t, name)})
	if err := traces.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	var finals []*timeline.Pod
	for _, p := range replayed(t, name).Pods.Items() {
		if play.Final(p) {
			finals = append(finals, p)
		}
	}
	wantMem := tracetest.NewInMemoryExporter()
	in := export.Input{Snapshot: timeline.Snapshot{Pods: timeline.SeqOf(finals...)}, About: export.About{Name: "live", ExportedBy: "test"}}
	if err := export.WriteTraces(context.Background(), in, wantMem, ""); err != nil {
		t.Fatal(err)
	}
	got, want := byID(mem.GetSpans()), byID(wantMem.GetSpans())
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("%d spans sent, export makes %d", len(got), len(want))
	}
	for id, w := range want {
		g, ok := got[id]
		if !ok {
			t.Errorf("span %s (%s) not sent", id, w.Name)
			continue
		}
		if g.Name != w.Name || !g.StartTime.Equal(w.StartTime) || !g.EndTime.Equal(w.EndTime) ||
			g.Parent.SpanID() != w.Parent.SpanID() || len(g.Attributes) != len(w.Attributes) || len(g.Events) != len(w.Events) {
			t.Errorf("span %s: sent %+v, export makes %+v", id, g, w)
		}
		for i := range w.Attributes {
			if g.Attributes[i] != w.Attributes[i] {
				t.Errorf("span %s attribute %d: %v, want %v", id, i, g.Attributes[i], w.Attributes[i])
			}
		}
	}
	traceIDs := map[string]bool{}
	for _, s := range want {
		traceIDs[s.SpanContext.TraceID().String()] = true
	}
	exemplars := 0
	for _, f := range gather(t, m) {
		if f.GetName() != "sidecar_top_gap_seconds" {
			continue
		}
		for _, mt := range f.Metric {
			for _, b := range mt.Histogram.Bucket {
				if ex := b.Exemplar; ex != nil {
					exemplars++
					if id := ex.Label[0].GetValue(); ex.Label[0].GetName() != "trace_id" || !traceIDs[id] {
						t.Errorf("exemplar %v is no pod's trace", ex.Label)
					}
				}
			}
		}
	}
	if exemplars == 0 {
		t.Error("no gap observation carries its trace's ID")
	}
}

// kept is an in-memory exporter whose Shutdown keeps the spans (the SDK's forgets them).
type kept struct{ *tracetest.InMemoryExporter }

func (kept) Shutdown(context.Context) error { return nil }

func byID(spans tracetest.SpanStubs) map[string]tracetest.SpanStub {
	out := map[string]tracetest.SpanStub{}
	for _, s := range spans {
		out[s.SpanContext.SpanID().String()] = s
	}
	return out
}

// blocked is an exporter that takes nothing until released, so the queue fills.
type blocked struct {
	entered chan struct{}
	release chan struct{}
}

func (b *blocked) ExportSpans(ctx context.Context, _ []sdktrace.ReadOnlySpan) error {
	select {
	case b.entered <- struct{}{}:
	default:
	}
	<-b.release
	return nil
}

func (b *blocked) Shutdown(context.Context) error { return nil }

// TestTraceQueueDrops: a receiver that does not keep up never slows the agent: past the
// queue, traces are dropped and counted, and what was queued is sent at Shutdown.
func TestTraceQueueDrops(t *testing.T) {
	exp := &blocked{entered: make(chan struct{}, 1), release: make(chan struct{})}
	traces, err := NewTraces(context.Background(), "", TraceOptions{Exporter: exp, Queue: 1, Log: quiet(t)})
	if err != nil {
		t.Fatal(err)
	}
	m := NewMetrics("test")
	traces.Count(m)
	if traces.Send(hostilePod("a", "j", "c")) == "" {
		t.Fatal("the first trace was not queued")
	}
	select {
	case <-exp.entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the first trace was never sent")
	}
	if traces.Send(hostilePod("b", "j", "c")) == "" {
		t.Error("the second trace was not queued behind the first")
	}
	if id := traces.Send(hostilePod("c", "j", "c")); id != "" {
		t.Errorf("the third trace was queued (%s) past a queue of 1", id)
	}
	close(exp.release)
	if err := traces.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if sent, dropped := testutil.ToFloat64(m.TracesSent), testutil.ToFloat64(m.TracesDropped); sent != 2 || dropped != 1 {
		t.Errorf("sent %g, dropped %g; want 2 and 1", sent, dropped)
	}
}
