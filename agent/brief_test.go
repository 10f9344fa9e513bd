package agent

import (
	"bytes"
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/sidecar-top/sidecar-top/export"
	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestCutTraceOfABrief: a pod open so long its trace is cut (TraceAfter) was kept as its brief
// while it was not yet due; once due it is derived whole and its trace is the whole pod's, as
// export makes it, not its brief's.
func TestCutTraceOfABrief(t *testing.T) {
	obs := openPod(t, "startup-probe")
	mem := tracetest.NewInMemoryExporter()
	traces, err := NewTraces(context.Background(), "", TraceOptions{Exporter: kept{mem}, ExportedBy: "test", Log: quiet(t)})
	if err != nil {
		t.Fatal(err)
	}
	var now time.Time
	a := New(Config{Traces: traces, TraceAfter: time.Minute, Now: func() time.Time { return now }, MaxOwners: 10, Log: quiet(t)}, NewMetrics("test"))
	a.SetLeader(true)
	a.listed = true
	whole := timeline.NewBuilder()
	for _, o := range obs {
		a.e.Apply(o)
		whole.Apply(o)
	}
	p := whole.Snapshot().Pods.At(0)
	now = p.Created.Add(time.Second)
	a.sweep()
	if !a.pods[p.UID].pod.Brief {
		t.Fatal("an open pod not due for its trace is not kept as its brief")
	}
	now = p.Created.Add(time.Hour)
	a.sweep()
	a.sweep()
	if err := traces.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := tracetest.NewInMemoryExporter()
	in := export.Input{Snapshot: timeline.Snapshot{Pods: timeline.SeqOf(p)}, About: export.About{Name: "live", ExportedBy: "test"}}
	if err := export.WriteTraces(context.Background(), in, want, ""); err != nil {
		t.Fatal(err)
	}
	if got, w := len(mem.GetSpans()), len(want.GetSpans()); got != w || w < 2 {
		t.Fatalf("the cut trace has %d spans; the whole pod's export %d", got, w)
	}
}

// openPod is the observations of a recording up to the last at which its one pod is not final.
func openPod(t *testing.T, name string) []timeline.Observation {
	t.Helper()
	data, err := recordings.Bytes(name)
	if err != nil {
		t.Fatal(err)
	}
	_, obs, _, err := recfile.ReadObservations(bytes.NewReader(data), name)
	if err != nil {
		t.Fatal(err)
	}
	for n := len(obs); n > 0; n-- {
		b := timeline.NewBuilder()
		for _, o := range obs[:n] {
			b.Apply(o)
		}
		if s := b.Snapshot(); s.Pods.Len() == 1 && !play.Final(s.Pods.At(0)) && s.Pods.At(0).Milestones.Len() > 2 {
			return obs[:n]
		}
	}
	t.Fatalf("%s: no point where its pod is open", name)
	return nil
}
