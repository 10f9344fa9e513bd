package agent

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Handler serves the agent's endpoints: /metrics (the registry, in OpenMetrics when asked for
// it, which carries the exemplars), /healthz ("ok" while the process runs) and /readyz (503
// until the first list is in, then 200 with "leader" or "standby").
func Handler(a *Agent) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(a.m.Registry, promhttp.HandlerOpts{EnableOpenMetrics: true}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { text(w, http.StatusOK, "ok") })
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		switch {
		case !a.Ready():
			text(w, http.StatusServiceUnavailable, "not ready: the first list is not in")
		case a.Leader():
			text(w, http.StatusOK, "leader")
		default:
			text(w, http.StatusOK, "standby")
		}
	})
	return mux
}

func text(w http.ResponseWriter, code int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(body + "\n"))
}
