package export

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/internal/synth"
	"github.com/sidecar-top/sidecar-top/source"
)

// manyPods is the timeline of a recording of n pods (synth.Pods of startup-probe).
func manyPods(t *testing.T, n int) Input {
	t.Helper()
	src, err := os.ReadFile("../recordings/startup-probe.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	b, err := synth.Pods(n, src)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := source.Play(t.Context(), strings.NewReader(string(b)), "pods.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Snapshot: rec.Final, About: About{Name: "pods.jsonl"}}
	if in.Snapshot.Pods.Len() != n {
		t.Fatalf("%d pods, want %d", in.Snapshot.Pods.Len(), n)
	}
	return in
}

// TestSendOTLPStops: sending stops at the first request the receiver does not take, and the
// error, one line, says how many pods' traces were sent and why the rest were not: a receiver
// that refuses connections (which had had every pod tried, an error each, all on one line), and
// one that takes three requests and then drops the connection.
func TestSendOTLPStops(t *testing.T) {
	in := manyPods(t, 200)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	var served atomic.Int32
	rcv := &receiver{}
	dropping := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if served.Add(1) <= 3 {
			rcv.ServeHTTP(w, r)
			return
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer dropping.Close()
	for _, tc := range []struct {
		name, endpoint, want string
	}{
		{"refused", closed.URL, "otlp: sent 0 of 200 pods' traces; pod "},
		{"dropped", dropping.URL, "otlp: sent 3 of 200 pods' traces; pod "},
	} {
		served.Store(0)
		err := SendOTLP(t.Context(), in, OTLPOptions{Endpoint: tc.endpoint, Timeout: 20 * time.Second})
		var ns *NotSentError
		switch {
		case err == nil:
			t.Errorf("%s: no error", tc.name)
		case !strings.HasPrefix(err.Error(), tc.want) || !strings.Contains(err.Error(), "were not sent") || strings.Contains(err.Error(), "\n"):
			t.Errorf("%s: error %q, want one line beginning %q and saying the rest were not sent", tc.name, err, tc.want)
		case len(err.Error()) > 1000:
			t.Errorf("%s: an error of %d bytes", tc.name, len(err.Error()))
		case !errors.As(err, &ns):
			t.Errorf("%s: %v is no NotSentError", tc.name, err)
		}
		t.Logf("%s: %v", tc.name, err)
		if tc.name == "refused" {
			var op *net.OpError
			if !errors.As(err, &op) {
				t.Errorf("refused: %v does not hold the connection's error", err)
			}
		}
	}
}
