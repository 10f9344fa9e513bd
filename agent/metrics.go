package agent

import (
	"runtime"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// gapBuckets are the gap histograms' buckets, in seconds: from the 10 ms a sidecar's start
// takes to the 5 minutes a grace period may run, a little more than doubling each time. Few,
// because every bucket is a series for each workload and gap (docs/agent.md counts them).
var gapBuckets = []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300}

// gapLabels label both gap histograms.
var gapLabels = []string{"namespace", "owner_kind", "owner", "role", "gap"}

// Metrics are the agent's Prometheus collectors, in a registry of their own with the Go and
// process collectors (Registry serves them).
type Metrics struct {
	Registry *prometheus.Registry

	Gap         *prometheus.HistogramVec
	Uncertainty *prometheus.HistogramVec
	PodsFinal   *prometheus.CounterVec
	Findings    *prometheus.CounterVec
	Restarts    *prometheus.CounterVec

	PodsWatched   prometheus.Gauge
	PodsOpen      prometheus.Gauge
	LastEventAge  prometheus.Gauge
	Relists       prometheus.Counter
	Stale         prometheus.Gauge
	TracesSent    prometheus.Counter
	TracesDropped prometheus.Counter
	Leader        prometheus.Gauge
}

// NewMetrics registers the agent's metrics, with version as sidecar_top_build_info's.
func NewMetrics(version string) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		Gap: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sidecar_top_gap_seconds",
			Help:    "Named lifecycle gaps of final pods (the best estimate), observed once per pod; role is the container's at the gap's end, pod for a pod-level end.",
			Buckets: gapBuckets,
		}, gapLabels),
		Uncertainty: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sidecar_top_gap_uncertainty_seconds",
			Help:    "Width (max - min) of the bounds each observed gap certainly lies in; gaps with an unbounded side are not observed here.",
			Buckets: gapBuckets,
		}, gapLabels),
		PodsFinal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sidecar_top_pods_final_total",
			Help: "Pods whose gaps were observed (once each, when final).",
		}, []string{"namespace", "owner_kind", "owner"}),
		Findings: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sidecar_top_findings_total",
			Help: "Findings of final pods, by finding ID.",
		}, []string{"namespace", "id"}),
		Restarts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sidecar_top_container_restarts_total",
			Help: "Restarts of final pods' containers, by the container's role.",
		}, []string{"namespace", "role"}),
		PodsWatched:   gauge("sidecar_top_pods_watched", "Pods the agent holds a timeline of."),
		PodsOpen:      gauge("sidecar_top_pods_open", "Pods watched that are not yet final."),
		LastEventAge:  gauge("sidecar_top_watch_last_event_age_seconds", "Seconds since the watch last delivered anything."),
		Relists:       counter("sidecar_top_watch_relists_total", "Watches that expired (410 Gone) or were lost and taken again: each is followed by a relist or a resumed watch."),
		Stale:         gauge("sidecar_top_watch_stale", "1 while the API server has not answered for watch.StaleAfter or more, else 0."),
		TracesSent:    counter("sidecar_top_traces_exported_total", "Pod traces the OTLP receiver took."),
		TracesDropped: counter("sidecar_top_traces_dropped_total", "Pod traces not sent: the queue was full, or the receiver did not take them after the SDK's retries."),
		Leader:        gauge("sidecar_top_leader", "1 while this replica leads (observes and sends), 0 while standby."),
	}
	info := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "sidecar_top_build_info", Help: "The agent's version and Go version; always 1."},
		[]string{"version", "goversion"})
	info.WithLabelValues(version, runtime.Version()).Set(1)
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), info,
		m.Gap, m.Uncertainty, m.PodsFinal, m.Findings, m.Restarts, m.PodsWatched, m.PodsOpen, m.LastEventAge,
		m.Relists, m.Stale, m.TracesSent, m.TracesDropped, m.Leader)
	return m
}

func gauge(name, help string) prometheus.Gauge {
	return prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
}

func counter(name, help string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
}
