// Package export writes a final timeline in the forms other tools read: Chrome trace-event JSON
// for ui.perfetto.dev and chrome://tracing (Perfetto), a Markdown report to paste into an issue,
// an SVG picture of the lanes, and OpenTelemetry traces sent to an OTLP endpoint.
//
// Every format renders the same immutable timeline.Snapshot and knows nothing of clients,
// terminals or clocks: the same Input gives the same bytes (and, for OTLP, the same trace and
// span IDs). Text from the cluster is escaped at this edge, as each format needs: for Markdown
// and the terminal alike (present.Safe), as XML in SVG; JSON keeps it as it was.
package export

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Format names an export format.
type Format string

// The formats.
const (
	Perfetto Format = "perfetto" // Chrome trace-event JSON
	Markdown Format = "markdown" // a report for a GitHub issue
	SVG      Format = "svg"      // the lanes as a picture
	OTLP     Format = "otlp"     // OpenTelemetry traces, sent to an OTLP/HTTP endpoint
)

// Formats lists every format, in the order help text names them.
func Formats() []Format { return []Format{Perfetto, Markdown, SVG, OTLP} }

// ParseFormat reads a format's name; "md" is Markdown and "chrome" or "json" Perfetto's JSON.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "perfetto", "chrome", "json":
		return Perfetto, nil
	case "markdown", "md":
		return Markdown, nil
	case "svg":
		return SVG, nil
	case "otlp":
		return OTLP, nil
	}
	return "", fmt.Errorf("unknown export format %q: want perfetto, markdown, svg or otlp", s)
}

// Text reports whether the format writes a file (or standard output) rather than sending.
func (f Format) Text() bool { return f != OTLP }

// Input is what every format renders: the final timeline and what it is of.
type Input struct {
	Snapshot timeline.Snapshot
	About    About
}

// About says what a timeline is of and where it came from. Every field may be empty.
type About struct {
	Name      string // the recording's file name, "demo:NAME", or "live"
	Namespace string // the namespace watched
	Target    string // what was watched, e.g. pod/sc-a, job/sc-b1
	// ServerVersion is the API server's gitVersion, from the recording's header.
	ServerVersion string
	// RecordedBy is the tool that made the recording, from its header, e.g. "sidecar-top v0.1.0".
	RecordedBy string
	// ExportedBy is the tool writing the export, e.g. "sidecar-top v0.2.0".
	ExportedBy string
	// Started is when the recording began.
	Started time.Time
	// Runtimes are the container runtimes by pod UID (e.g. containerd), from the containers' IDs.
	Runtimes map[string]string
}

// Write writes in to w in a text format (all but OTLP).
func Write(w io.Writer, f Format, in Input) error {
	switch f {
	case Perfetto:
		return WritePerfetto(w, in)
	case Markdown:
		return WriteMarkdown(w, in)
	case SVG:
		return WriteSVG(w, in)
	}
	return fmt.Errorf("export format %q is not written to a file", f)
}

// Empty reports whether the timeline has nothing to export: no pod and no job.
func (in Input) Empty() bool { return in.Snapshot.Pods.Len() == 0 && len(in.Snapshot.Jobs) == 0 }

// OnlyPod is in with only the pod of that name or UID (and the jobs that own it), for a report
// on one pod of a workload. It fails when there is no such pod.
func (in Input) OnlyPod(nameOrUID string) (Input, error) {
	out := in
	out.Snapshot.Jobs, out.Snapshot.Orphans = nil, nil
	var pods []*timeline.Pod
	for _, p := range in.Snapshot.Pods.Items() {
		if p.Name == nameOrUID || p.UID == nameOrUID {
			pods = append(pods, p)
		}
	}
	if len(pods) == 0 {
		return in, fmt.Errorf("no pod %q in the timeline", nameOrUID)
	}
	out.Snapshot.Pods = timeline.SeqOf(pods...)
	for _, j := range in.Snapshot.Jobs {
		for _, p := range pods {
			if p.Owner != nil && p.Owner.Kind == "Job" && p.Owner.Name == j.Name && p.Namespace == j.Namespace {
				out.Snapshot.Jobs = append(out.Snapshot.Jobs, j)
				break
			}
		}
	}
	return out, nil
}
