package main

import (
	"github.com/spf13/pflag"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// reportOptions are what the output adds to the timeline: --summary and --explain.
type reportOptions struct {
	summary bool // the workload's summary: after the plain lines, in the JSON, shown first in the view
	explain bool // each milestone's and gap's why in plain lines and in the view's table
}

func (r *reportOptions) addFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&r.summary, "summary", false, `a workload's summary (job/NAME, deploy/NAME, -l): every named gap over the pods, count, min, p50, p90, max with their bounds, the slowest pods; after the plain lines, as "summary" in -o json, or first in the view (S toggles it)`)
	fs.BoolVar(&r.explain, "explain", false, `say why each milestone and gap came when it did (probe timing, back-off, image pull, the kubelet's order, the grace period) in the plain lines and in the view's table; -o json always has each "why"`)
}

// document is the JSON document of a final timeline, with the workload's summary if asked for
// (r may be nil: nothing is).
func (r *reportOptions) document(namespace, target string, s timeline.Snapshot) timeline.Document {
	d := timeline.NewDocument(namespace, target, s)
	if r != nil && r.summary {
		sum := timeline.Summarize(s)
		d.Summary = &sum
	}
	return d
}
