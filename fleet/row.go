// Package fleet summarises a timeline of many pods as a table: one row per pod with its
// workload, kubectl's STATUS, restarts by role, the gaps that matter most with their bounds and
// its worst finding; counts for a header; sorting and filtering as a user asks for them. It is
// pure: a snapshot in, rows out. The view's fleet table, the plain and JSON outputs of a scope and
// the agent read the same rows.
package fleet

import (
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Shape says what kind of sidecar a pod has.
type Shape uint8

// The shapes, from what the pod's spec shows.
const (
	// NoSidecar: one regular container, and no init container with restartPolicy Always.
	NoSidecar Shape = iota
	// Classic: no native sidecar, and two or more regular containers (the classic pattern: a
	// helper beside the app, which a Job cannot finish without).
	Classic
	// Native: an init container with restartPolicy Always.
	Native
)

// String names the shape as the table and JSON do.
func (s Shape) String() string {
	switch s {
	case Native:
		return "native"
	case Classic:
		return "classic"
	}
	return "none"
}

// Row is one pod of the table.
type Row struct {
	Namespace, Name, UID string
	Owner                Owner
	Status               string // kubectl's STATUS now
	Shape                Shape
	// SidecarRestarts and AppRestarts are the restarts of the pod's sidecars (native, or the
	// regular containers after the first of a classic pod) and of its apps.
	SidecarRestarts, AppRestarts int32
	Created, LastSeen            time.Time
	// Finished says the pod is gone from the API or in a terminal phase.
	Finished bool
	// Gaps are the gaps the table shows, by Column; Known false where the pod has none (yet).
	Gaps [len(Columns)]Cell
	// Findings are the pod's findings, the worst first.
	Findings []timeline.Finding
}

// Cell is one gap of a row.
type Cell struct {
	Span  timeline.Span
	Known bool
}

// Worst is the row's worst finding, nil when it has none.
func (r *Row) Worst() *timeline.Finding {
	if len(r.Findings) == 0 {
		return nil
	}
	return &r.Findings[0]
}

// Age is how long ago, at now, the pod was created.
func (r *Row) Age(now time.Time) time.Duration { return max(now.Sub(r.Created), 0) }

// RowOf is the row of one pod. owners says, when it can, which workload owns a Job (OwnerOf).
func RowOf(p *timeline.Pod, owners func(job string) (Owner, bool)) Row {
	r := Row{
		Namespace: p.Namespace, Name: p.Name, UID: p.UID, Status: p.Status,
		Owner:   OwnerOf(p.Owner, owners),
		Created: p.Created, LastSeen: p.LastSeen,
		Finished: p.Deleted || p.Phase == "Succeeded" || p.Phase == "Failed",
	}
	r.Shape, r.SidecarRestarts, r.AppRestarts = shapeOf(p)
	for i, col := range Columns {
		if s, ok := col.span(p); ok {
			r.Gaps[i] = Cell{Span: s, Known: true}
		}
	}
	r.Findings = worstFirst(p.Findings())
	return r
}

// shapeOf is the pod's shape and its restarts by role.
func shapeOf(p *timeline.Pod) (s Shape, sidecar, app int32) {
	apps := 0
	for i := range p.Containers {
		switch c := &p.Containers[i]; c.Kind {
		case timeline.KindSidecar:
			s, sidecar = Native, sidecar+c.RestartCount
		case timeline.KindApp:
			apps++
			if apps > 1 && s != Native {
				sidecar += c.RestartCount // a classic pod's helpers come after its app
			} else {
				app += c.RestartCount
			}
		}
	}
	if s != Native && apps > 1 {
		s = Classic
	}
	return s, sidecar, app
}

// ShapeOfSpec is the shape of a pod as an observation of it shows its containers: what the row
// of its timeline says (shapeOf), known from its first observation on, since a pod's containers
// are fixed at its creation.
func ShapeOfSpec(p *timeline.PodObservation) Shape {
	apps := 0
	for i := range p.Containers {
		switch p.Containers[i].Kind {
		case timeline.KindSidecar:
			return Native
		case timeline.KindApp:
			apps++
		}
	}
	if apps > 1 {
		return Classic
	}
	return NoSidecar
}

// WithoutSidecar reports whether the observed pod has no sidecar of either shape: a table
// that shows only pods with one (View.SidecarsOnly) needs nothing but a count of it, which
// timeline.Builder.Hide keeps.
func WithoutSidecar(p *timeline.PodObservation) bool { return ShapeOfSpec(p) == NoSidecar }

// worstFirst orders findings by severity, warnings first, keeping the rules' order within one.
func worstFirst(fs []timeline.Finding) []timeline.Finding {
	if len(fs) == 0 {
		return nil
	}
	out := make([]timeline.Finding, 0, len(fs))
	for _, sev := range []timeline.Severity{timeline.SeverityWarning, timeline.SeverityInfo} {
		for _, f := range fs {
			if f.Severity == sev {
				out = append(out, f)
			}
		}
	}
	for _, f := range fs { // a severity neither of the two: last
		if f.Severity != timeline.SeverityWarning && f.Severity != timeline.SeverityInfo {
			out = append(out, f)
		}
	}
	return out
}
