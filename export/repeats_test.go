package export

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// TestProbeRepeatsExported: the sidecar's startup probe of startup-probe failed four times (an
// update of one Unhealthy Event each): every format shows four probe failures, each at its own
// time and bounds, as the timeline placed them.
func TestProbeRepeatsExported(t *testing.T) {
	in := recording(t, "startup-probe")
	p := in.Snapshot.Pods.At(0)
	var want []timeline.Milestone
	for _, m := range p.Container("sidecar").Milestones() {
		if m.Kind == timeline.MProbeFailed {
			want = append(want, m)
		}
	}
	events := 0
	for _, e := range in.Snapshot.Events() {
		if e.Reason == "Unhealthy" {
			events++
		}
	}
	if events != 4 || len(want) != events {
		t.Fatalf("%d probe-failed milestones for %d Unhealthy Events, want 4", len(want), events)
	}
	write := func(f Format) string {
		var b bytes.Buffer
		if err := Write(&b, f, in); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	t.Run("markdown", func(t *testing.T) { markdownRepeats(t, write(Markdown), want) })
	t.Run("perfetto", func(t *testing.T) { perfettoRepeats(t, write(Perfetto), want) })
	t.Run("svg", func(t *testing.T) { svgRepeats(t, write(SVG), want) })
}

// markdownRepeats: a row of the milestones' table for each, with its offset.
func markdownRepeats(t *testing.T, md string, want []timeline.Milestone) {
	var got []string
	for l := range strings.SplitSeq(md, "\n") {
		if strings.Contains(l, "| `sidecar` | probe-failed |") {
			got = append(got, strings.TrimSpace(strings.Split(l, "|")[1]))
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d probe-failed rows, want %d", len(got), len(want))
	}
	for i, m := range want {
		if s := textfmt.Signed(m.Offset.Value); got[i] != s {
			t.Errorf("row %d at %s, want %s", i+1, got[i], s)
		}
	}
}

// perfettoRepeats: an instant for each, at its time, with its bounds and count.
func perfettoRepeats(t *testing.T, trace string, want []timeline.Milestone) {
	var doc struct {
		TraceEvents []struct {
			Name, Cat string
			Tid       int
			Args      map[string]any
		}
	}
	if err := json.Unmarshal([]byte(trace), &doc); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	for _, e := range doc.TraceEvents {
		if e.Cat == "milestone" && e.Name == "probe-failed" {
			got = append(got, e.Args)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d probe-failed instants, want %d", len(got), len(want))
	}
	for i, m := range want {
		rfc := func(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
		a := got[i]
		if a["at"] != rfc(m.At) || a["earliest"] != rfc(m.Earliest) || a["latest"] != rfc(m.Latest) {
			t.Errorf("instant %d: at %v in [%v, %v], want %s in [%s, %s]", i+1, a["at"], a["earliest"], a["latest"],
				rfc(m.At), rfc(m.Earliest), rfc(m.Latest))
		}
	}
}

// svgRepeats: a marker for each, its title at its offset.
func svgRepeats(t *testing.T, svg string, want []timeline.Milestone) {
	var got []string
	for _, part := range strings.Split(svg, "<title>sidecar probe-failed ")[1:] {
		got = append(got, strings.Fields(part)[0])
	}
	if len(got) != len(want) {
		t.Fatalf("%d probe-failed markers, want %d", len(got), len(want))
	}
	for i, m := range want {
		if s := textfmt.Signed(m.Offset.Value); got[i] != s {
			t.Errorf("marker %d at %s, want %s", i+1, got[i], s)
		}
	}
}
