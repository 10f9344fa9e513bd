package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/sidecar-top/sidecar-top/internal/jsonsafe"
	"github.com/sidecar-top/sidecar-top/internal/textfmt"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// WritePerfetto writes the timeline as Chrome trace-event JSON (the JSON Object Format of the
// Trace Event Format), which ui.perfetto.dev and chrome://tracing open as it is:
//   - a process per pod (and per job), named by metadata events, with a thread per lane: "pod"
//     (its STATUS), then each container in lane order, then "events" (the pod's Events);
//   - a complete event (ph X) per stretch of a lane in one state, and per STATUS of the pod;
//   - an instant event (ph i, thread scope) per milestone, whose args hold its bounds (earliest
//     and latest, absolute and as offsets), source, evidence and detail.
//
// Timestamps are whole microseconds from the earliest time written, so the trace starts at zero;
// the absolute times, to the nanosecond, are in the args and otherData. Text is kept as the cluster wrote it: JSON
// escapes what it must, and what a terminal could obey (jsonsafe), for a trace written to one.
func WritePerfetto(w io.Writer, in Input) error {
	t := &traceWriter{}
	for _, p := range in.Snapshot.Pods.Items() {
		t.pod(p)
	}
	for _, j := range in.Snapshot.Jobs {
		t.job(j)
	}
	var origin time.Time
	for _, e := range t.events {
		if !e.at.IsZero() && (origin.IsZero() || e.at.Before(origin)) {
			origin = e.at
		}
	}
	b := bufio.NewWriter(w)
	b.WriteString("{\"traceEvents\":[\n")
	for i, e := range t.events {
		if e.Ph != "M" {
			ts := micros(e.at.Sub(origin))
			e.Ts = &ts
			if e.Ph == "X" {
				dur := micros(e.to.Sub(origin)) - ts
				e.Dur = &dur
			}
		}
		line, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("perfetto: %w", err)
		}
		b.Write(jsonsafe.Escape(line))
		if i < len(t.events)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	other := map[string]string{"origin": rfc3339(origin)}
	for k, v := range map[string]string{"source": in.About.Name, "namespace": in.About.Namespace, "target": in.About.Target,
		"serverVersion": in.About.ServerVersion, "recordedBy": in.About.RecordedBy, "exportedBy": in.About.ExportedBy} {
		if v != "" {
			other[k] = v
		}
	}
	tail, err := json.Marshal(other)
	if err != nil {
		return fmt.Errorf("perfetto: %w", err)
	}
	fmt.Fprintf(b, "],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":%s}\n", jsonsafe.Escape(tail))
	return b.Flush()
}

// traceEvent is one event of the Trace Event Format. ts and dur are filled in at the end.
type traceEvent struct {
	Name  string         `json:"name"`
	Cat   string         `json:"cat,omitempty"`
	Ph    string         `json:"ph"`
	Ts    *int64         `json:"ts,omitempty"`
	Dur   *int64         `json:"dur,omitempty"`
	Pid   int            `json:"pid"`
	Tid   int            `json:"tid"`
	Scope string         `json:"s,omitempty"`
	Args  map[string]any `json:"args,omitempty"`

	at, to time.Time
}

type traceWriter struct {
	events []traceEvent
	pid    int
}

func (t *traceWriter) add(e traceEvent) { t.events = append(t.events, e) }

// names writes the metadata events that name process pid and its threads, in order.
func (t *traceWriter) names(pid int, process string, threads []string) {
	t.add(traceEvent{Name: "process_name", Ph: "M", Pid: pid, Args: map[string]any{"name": process}})
	t.add(traceEvent{Name: "process_sort_index", Ph: "M", Pid: pid, Args: map[string]any{"sort_index": pid}})
	for i, name := range threads {
		tid := i + 1
		t.add(traceEvent{Name: "thread_name", Ph: "M", Pid: pid, Tid: tid, Args: map[string]any{"name": name}})
		t.add(traceEvent{Name: "thread_sort_index", Ph: "M", Pid: pid, Tid: tid, Args: map[string]any{"sort_index": tid}})
	}
}

// pod writes pod p as a process: a thread for its own row, one per container, and one for its
// Events.
func (t *traceWriter) pod(p *timeline.Pod) {
	t.pid++
	pid, s := t.pid, podSpan(p)
	threads := []string{"pod"}
	for _, c := range p.Containers {
		threads = append(threads, fmt.Sprintf("%s (%s)", c.Name, c.Kind))
	}
	threads = append(threads, "events")
	t.names(pid, fmt.Sprintf("pod %s (namespace %s)", p.Name, p.Namespace), threads)
	t.podRow(pid, p, s)
	for ci := range p.Containers {
		t.container(pid, ci+2, &p.Containers[ci], s)
	}
	t.podEvents(pid, len(p.Containers)+2, p, s)
}

// podRow writes pod p's own row on thread 1: a slice per STATUS stretch, and its milestones.
func (t *traceWriter) podRow(pid int, p *timeline.Pod, s span) {
	for _, st := range statusSegments(p, s) {
		t.add(traceEvent{Name: st.Status, Cat: "status", Ph: "X", Pid: pid, Tid: 1, at: st.From, to: st.To,
			Args: map[string]any{"status": st.Status, "from": offsetText(st.From, s.origin), "to": offsetText(st.To, s.origin)}})
	}
	for _, m := range p.Milestones.All() {
		if s.placed(m.At) {
			t.add(milestoneEvent(pid, 1, m))
		}
	}
}

// container writes container c's lane on thread tid: a slice per stretch in one state, then its
// milestones.
func (t *traceWriter) container(pid, tid int, c *timeline.Container, s span) {
	for _, g := range c.Segments() {
		if s.placed(g.From) {
			t.add(stateEvent(pid, tid, g, s))
		}
	}
	for _, m := range c.Milestones() {
		if s.placed(m.At) {
			t.add(milestoneEvent(pid, tid, &m))
		}
	}
}

// stateEvent is the slice of a stretch g of a lane in one state, named by the state and its
// reason.
func stateEvent(pid, tid int, g timeline.Segment, s span) traceEvent {
	name := string(g.State)
	if g.Reason != "" {
		name += ": " + g.Reason
	}
	end := segmentEnd(g, s)
	args := map[string]any{"state": string(g.State), "from": offsetText(g.From, s.origin), "to": offsetText(end, s.origin)}
	if g.Reason != "" {
		args["reason"] = g.Reason
	}
	if g.To.IsZero() {
		args["open"] = true // still in this state when the recording ended
	}
	return traceEvent{Name: name, Cat: "state", Ph: "X", Pid: pid, Tid: tid, at: g.From, to: end, Args: args}
}

// podEvents writes pod p's Events on thread tid, each an instant with all it says.
func (t *traceWriter) podEvents(pid, tid int, p *timeline.Pod, s span) {
	for _, e := range p.Events.Slice() {
		if !s.placed(e.At) {
			continue
		}
		args := map[string]any{"object": e.Object, "type": e.Type, "reason": e.Reason, "message": e.Message,
			"count": e.Count, "at": rfc3339(e.At), "offset": offsetText(e.At, s.origin)}
		if e.Container != "" {
			args["container"] = e.Container
		}
		t.add(traceEvent{Name: e.Reason, Cat: "event", Ph: "i", Scope: "t", Pid: pid, Tid: tid, at: e.At, Args: args})
	}
}

func (t *traceWriter) job(j *timeline.Job) {
	t.pid++
	pid, s := t.pid, jobSpan(j)
	t.names(pid, fmt.Sprintf("job %s (namespace %s)", j.Name, j.Namespace), []string{"job"})
	for i := range j.Milestones {
		if m := &j.Milestones[i]; s.placed(m.At) {
			t.add(milestoneEvent(pid, 1, m))
		}
	}
}

// milestoneEvent is milestone m as an instant event on thread tid, with its bounds in args.
func milestoneEvent(pid, tid int, m *timeline.Milestone) traceEvent {
	args := map[string]any{
		"kind":    string(m.Kind),
		"attempt": m.Attempt,
		"source":  string(m.Source),
		"at":      rfc3339(m.At),
		"offset":  textfmt.Span(m.Offset),
	}
	if !m.Earliest.IsZero() {
		args["earliest"] = rfc3339(m.Earliest)
		args["earliestOffset"] = textfmt.Signed(m.Offset.Min)
	}
	if !m.Latest.IsZero() {
		args["latest"] = rfc3339(m.Latest)
		args["latestOffset"] = textfmt.Signed(m.Offset.Max)
	}
	if d := m.Detail(); d != "" {
		args["detail"] = d
	}
	if m.Message != "" {
		args["message"] = m.Message
	}
	if ev := evidenceSummary(m); ev != "" {
		args["evidence"] = ev
	}
	return traceEvent{Name: m.KindName(), Cat: "milestone", Ph: "i", Scope: "t", Pid: pid, Tid: tid, at: m.At, Args: args}
}

// micros is d in whole microseconds, the Trace Event Format's unit. Whole numbers keep a
// stretch's end and the next one's start equal as Perfetto reads them: it multiplies a
// fractional ts by 1000 and truncates, which could make two adjacent stretches overlap by a
// nanosecond and one of them be dropped as misnested.
func micros(d time.Duration) int64 { return d.Round(time.Microsecond).Microseconds() }

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// offsetText is t as a signed offset from origin.
func offsetText(t, origin time.Time) string { return textfmt.Signed(t.Sub(origin)) }
