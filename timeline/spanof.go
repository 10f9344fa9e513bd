package timeline

// SpanBetween is the span from milestone a to b as the named gaps measure one: the estimates'
// distance, and the least and the most the bounds allow. ordered says the kubelet does a before
// b: the span is then cut at zero, unless the bounds contradict the order.
func SpanBetween(a, b *Milestone, ordered bool) Span { return spanBetween(a, b, ordered) }
