package export

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/trace"
)

// A pod's trace and span IDs are derived from what they stand for, so that exporting the same
// timeline again gives the same IDs: a backend that keeps one copy of a span ID (Jaeger's query
// deduplicates identical spans) shows a re-export once, not twice.

// traceID is the trace of the pod with this UID: the UID's 16 bytes when it is a UUID, as every
// pod UID the API server makes is (so a trace can be found by the pod's UID without its dashes),
// else the first 16 bytes of its SHA-256.
func traceID(uid string) trace.TraceID {
	var id trace.TraceID
	if b, err := hex.DecodeString(strings.ReplaceAll(uid, "-", "")); err == nil && len(b) == len(id) {
		copy(id[:], b)
	} else {
		sum := sha256.Sum256([]byte("sidecar-top pod " + uid))
		copy(id[:], sum[:])
	}
	if !id.IsValid() { // the all-zero UID
		id[len(id)-1] = 1
	}
	return id
}

// spanID is the span named by parts within the pod with this UID: the first 8 bytes of the
// SHA-256 of them, never all zero.
func spanID(uid string, parts ...string) trace.SpanID {
	h := sha256.New()
	h.Write([]byte(uid))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	var id trace.SpanID
	copy(id[:], h.Sum(nil))
	if !id.IsValid() {
		id[len(id)-1] = 1
	}
	return id
}

// itoa is strconv.Itoa for the parts of a span's name.
func itoa[T ~int | ~int32](n T) string { return strconv.Itoa(int(n)) }

// fixedIDs is the SDK's ID generator for one export: it hands out the IDs set for the span about
// to start. The SDK asks it within Tracer.Start, so setting the IDs just before each Start, in
// the one goroutine that starts spans, names each span.
type fixedIDs struct {
	mu    sync.Mutex
	trace trace.TraceID
	span  trace.SpanID
}

// next sets the IDs of the next span to start.
func (g *fixedIDs) next(t trace.TraceID, s trace.SpanID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.trace, g.span = t, s
}

// NewIDs gives a root span its IDs.
func (g *fixedIDs) NewIDs(context.Context) (trace.TraceID, trace.SpanID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.trace, g.span
}

// NewSpanID gives a child span its ID.
func (g *fixedIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.span
}
