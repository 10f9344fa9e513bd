package export

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// CheckEndpoint checks an OTLP endpoint as OTLPOptions takes it, before anything is read or
// sent (the error quotes it, for the caller to say which flag gave it): a URL with the scheme http or https and a host, or HOST:PORT (sent over HTTPS unless
// Insecure), without a path; empty leaves it to the OTEL_EXPORTER_OTLP_* variables.
func CheckEndpoint(ep string) error {
	ep = strings.TrimSpace(ep)
	if ep == "" {
		return nil
	}
	bad := func(why string) error {
		return fmt.Errorf("%q: %s; want http://HOST:PORT, https://HOST:PORT or HOST:PORT (HOST:PORT is sent over HTTPS unless --otlp-insecure)", ep, why)
	}
	if strings.Contains(ep, "://") {
		u, err := url.Parse(ep)
		switch {
		case err != nil:
			return bad("not a URL")
		case u.Scheme != "http" && u.Scheme != "https":
			return bad(fmt.Sprintf("the scheme %q is neither http nor https", u.Scheme))
		case u.Host == "":
			return bad("no host")
		}
		return nil
	}
	if i := strings.IndexByte(ep, '/'); i >= 0 {
		return bad(fmt.Sprintf("a path needs a scheme: http://%s or https://%s", ep, ep))
	}
	host, port, err := net.SplitHostPort(ep)
	if err != nil {
		return bad("no port")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return bad(fmt.Sprintf("the port %q is not a number from 1 to 65535", port))
	}
	if host == "" || strings.ContainsAny(host, " \t") {
		return bad("no host")
	}
	return nil
}

// explain says in words the error of sending HTTPS to a HOST:PORT that answers in plain HTTP,
// which Go's client reports as "server gave HTTP response to HTTPS client" inside the
// exporter's message: most local collectors take OTLP/HTTP on :4318 without TLS.
func (o OTLPOptions) explain(err error) error {
	ep := strings.TrimSpace(o.Endpoint)
	if err == nil || o.Insecure || ep == "" || strings.Contains(ep, "://") ||
		!strings.Contains(err.Error(), "server gave HTTP response to HTTPS client") {
		return err
	}
	plain := &PlainHTTPError{Endpoint: ep}
	var ns *NotSentError
	if errors.As(err, &ns) {
		plain.Err, ns.Err = ns.Err, plain
		return err
	}
	plain.Err = err
	return plain
}

// PlainHTTPError is a HOST:PORT endpoint, sent to over HTTPS, that answered in plain HTTP.
type PlainHTTPError struct {
	Endpoint string
	Err      error // what the exporter said
}

func (e *PlainHTTPError) Error() string {
	return fmt.Sprintf("%s answered in plain HTTP, and HOST:PORT is sent over HTTPS: give http://%s, or --otlp-insecure", e.Endpoint, e.Endpoint)
}

func (e *PlainHTTPError) Unwrap() error { return e.Err }
