package export

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// keyShift says, on each pod's root span, how far the trace was moved in time (seconds): the
// recorded time of anything in it is its time minus this.
const keyShift = attribute.Key("sidecar_top.time_shift_s")

// ShiftToNow is how far to move the traces of in so that the last of them ends at now: a
// backend's default search (the last hour) then finds an old recording's traces. Zero when
// there is no pod.
func ShiftToNow(in Input, now time.Time) time.Duration {
	var end time.Time
	for _, p := range in.Snapshot.Pods.Items() {
		if e := podSpan(p).end; e.After(end) {
			end = e
		}
	}
	if end.IsZero() {
		return 0
	}
	return now.Sub(end)
}

// shiftSpans moves each span by the same amount: its start and end, its events' times and the
// milestone bounds they carry (earliest, latest); a root span says by how much. The evidence's
// words keep the times as recorded.
func shiftSpans(spans []sdktrace.ReadOnlySpan, by time.Duration) []sdktrace.ReadOnlySpan {
	if by == 0 {
		return spans
	}
	out := make([]sdktrace.ReadOnlySpan, len(spans))
	for i, s := range spans {
		out[i] = shiftedSpan{ReadOnlySpan: s, by: by}
	}
	return out
}

// shiftedSpan is a span moved in time by by.
type shiftedSpan struct {
	sdktrace.ReadOnlySpan
	by time.Duration
}

func (s shiftedSpan) StartTime() time.Time { return s.ReadOnlySpan.StartTime().Add(s.by) }
func (s shiftedSpan) EndTime() time.Time   { return s.ReadOnlySpan.EndTime().Add(s.by) }

func (s shiftedSpan) Attributes() []attribute.KeyValue {
	attrs := s.ReadOnlySpan.Attributes()
	if s.Parent().IsValid() {
		return attrs
	}
	return append(attrs[:len(attrs):len(attrs)], keyShift.Float64(s.by.Seconds()))
}

func (s shiftedSpan) Events() []sdktrace.Event {
	events := s.ReadOnlySpan.Events()
	out := make([]sdktrace.Event, len(events))
	for i, e := range events {
		e.Time = e.Time.Add(s.by)
		e.Attributes = shiftTimes(e.Attributes, s.by)
		out[i] = e
	}
	return out
}

// shiftTimes is attrs with the milestone's earliest and latest times moved by by.
func shiftTimes(attrs []attribute.KeyValue, by time.Duration) []attribute.KeyValue {
	out := make([]attribute.KeyValue, len(attrs))
	for i, a := range attrs {
		if a.Key == keyEarliest || a.Key == keyLatest {
			if t, err := time.Parse(time.RFC3339Nano, a.Value.AsString()); err == nil {
				a = a.Key.String(rfc3339(t.Add(by)))
			}
		}
		out[i] = a
	}
	return out
}
