package agent

import "github.com/sidecar-top/sidecar-top/timeline"

// Traces sends pods' traces over OTLP.
type Traces struct{}

// Send queues p's trace and returns its trace ID, or "" when it was dropped.
func (t *Traces) Send(p *timeline.Pod) string { return "" }
