package export

import (
	"errors"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestShiftToNow: --shift-to-now moves every span, span event and milestone bound of an old
// recording by one amount, so that the last span ends now; the root spans say by how much;
// nothing else changes.
func TestShiftToNow(t *testing.T) {
	for _, name := range []string{"startup-probe", "job-native-sidecar", "crashing-sidecar"} {
		t.Run(name, func(t *testing.T) {
			in := recording(t, name)
			want := traces(t, in)
			now := time.Date(2031, 5, 6, 7, 8, 9, 123456789, time.UTC)
			by := ShiftToNow(in, now)
			if by <= 0 {
				t.Fatalf("shift %v: the recordings are older than 2031", by)
			}
			exp := tracetest.NewInMemoryExporter()
			if err := writeTraces(t.Context(), in, exp, "", by); err != nil {
				t.Fatal(err)
			}
			got := fromSDK(exp.GetSpans())
			if len(got) != len(want) {
				t.Fatalf("%d spans, want %d", len(got), len(want))
			}
			parse := func(s string) time.Time {
				tm, err := time.Parse(time.RFC3339Nano, s)
				if err != nil {
					t.Fatalf("%q: %v", s, err)
				}
				return tm.Add(by)
			}
			moved := func(s string) string { return stamp(parse(s)) }
			last := ""
			for i := range want {
				w := want[i]
				w.Start, w.End = moved(w.Start), moved(w.End)
				if w.Parent == "" {
					w.Attrs["sidecar_top.time_shift_s"] = strconv.FormatFloat(by.Seconds(), 'g', -1, 64)
				}
				for j := range w.Events {
					e := &w.Events[j]
					e.At = moved(e.At)
					for _, k := range []string{"sidecar_top.milestone.earliest", "sidecar_top.milestone.latest"} {
						if v, ok := e.Attrs[k]; ok {
							e.Attrs[k] = parse(v).UTC().Format(time.RFC3339Nano)
						}
					}
				}
				if d := cmp.Diff(got[i], w); d != "" {
					t.Errorf("span %s (-got +want):\n%s", w.Name, d)
				}
				last = max(last, got[i].End)
			}
			if last != stamp(now) {
				t.Errorf("the last span ends %s, want now, %s", last, stamp(now))
			}
		})
	}
}

// TestSendOTLPPlainHTTP: a HOST:PORT endpoint is sent over HTTPS; a receiver that answers in
// plain HTTP (most local collectors on :4318) is said in one line that names the fix, not with
// Go's message of a TLS client.
func TestSendOTLPPlainHTTP(t *testing.T) {
	in := recording(t, "startup-probe")
	srv := httptest.NewServer(&receiver{})
	defer srv.Close()
	hostPort := strings.TrimPrefix(srv.URL, "http://")
	err := SendOTLP(t.Context(), in, OTLPOptions{Endpoint: hostPort, Timeout: 10 * time.Second})
	want := hostPort + " answered in plain HTTP, and HOST:PORT is sent over HTTPS: give http://" + hostPort + ", or --otlp-insecure"
	var plain *PlainHTTPError
	var ns *NotSentError
	switch {
	case err == nil:
		t.Fatal("no error")
	case !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n"):
		t.Errorf("error %q, want one line containing %q", err, want)
	case strings.Contains(err.Error(), "HTTPS client"):
		t.Errorf("error %q: Go's TLS client message", err)
	case !errors.As(err, &plain) || !errors.As(err, &ns):
		t.Errorf("%v: no PlainHTTPError inside a NotSentError", err)
	}
}

// TestCheckEndpoint: an endpoint that cannot be sent to is refused before anything is read,
// saying why, in one line.
func TestCheckEndpoint(t *testing.T) {
	for _, ep := range []string{"", "localhost:4318", "otel-collector.monitoring:4318", "[::1]:4318", "http://localhost:4318", "https://otlp.example.com/v1/traces"} {
		if err := CheckEndpoint(ep); err != nil {
			t.Errorf("%q: %v", ep, err)
		}
	}
	for ep, want := range map[string]string{
		"localhost":                "no port",
		"localhost:4318/v1/traces": "a path needs a scheme: http://localhost:4318/v1/traces or https://localhost:4318/v1/traces",
		"localhost:http":           `the port "http" is not a number`,
		"localhost:0":              `the port "0" is not a number from 1 to 65535`,
		":4318":                    "no host",
		"ftp://host:4318":          `the scheme "ftp" is neither http nor https`,
		"http://":                  "no host",
		"http://[::1":              "not a URL",
	} {
		err := CheckEndpoint(ep)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "want http://HOST:PORT") {
			t.Errorf("%q: %v, want an error saying %q", ep, err, want)
		}
	}
}
