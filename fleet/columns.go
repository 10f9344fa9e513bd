package fleet

import "github.com/sidecar-top/sidecar-top/timeline"

// Column is one of the gaps the table shows for every pod.
type Column struct {
	// ID names the column in JSON and in a sort or filter; Title heads it in the table.
	ID, Title string
	// Doc says what it measures.
	Doc  string
	span func(p *timeline.Pod) (timeline.Span, bool)
}

// Columns are the gaps that matter most across many pods: whether the app started only once its
// sidecars had (and how long after), whether the sidecars outlived the apps (and by how much),
// and how long a deleted pod took to stop.
var Columns = [...]Column{
	{"sidecar-to-app", "SIDECAR→APP",
		"the last native sidecar started → the first app container started (the named gap)", sidecarToApp},
	{"app-exit-to-sidecar-exit", "APP→SIDECAR EXIT",
		"the last app container's exit → the last sidecar's exit, in the pod's last runs", appExitToSidecarExit},
	{"deletion-to-last-exit", "DELETE→EXIT",
		"the deletion was asked for → the last container exited (the named gap)", deletionToLastExit},
}

// sidecarToApp is the named gap from a sidecar's started to an app's start.
func sidecarToApp(p *timeline.Pod) (timeline.Span, bool) {
	for _, g := range p.Gaps {
		if g.From.Kind == timeline.MStarted && g.To.Kind == timeline.MStart && kindOf(p, g.To.Container) == timeline.KindApp {
			return g.Span, true
		}
	}
	return timeline.Span{}, false
}

// deletionToLastExit is the named gap from the deletion to the last exit.
func deletionToLastExit(p *timeline.Pod) (timeline.Span, bool) {
	for _, g := range p.Gaps {
		if g.From.Kind == timeline.MDeleting && g.To.Kind == timeline.MExit {
			return g.Span, true
		}
	}
	return timeline.Span{}, false
}

// appExitToSidecarExit spans from the latest exit of an app's last run to the latest exit of a
// native sidecar's last run, when every app and every sidecar has exited. The kubelet signals
// the sidecars only once the apps have exited, so the span starts at zero at the least; but when
// the grace period runs out it kills what is left at once, and an app killed then (SIGKILL) may
// be reaped after a sidecar that exits as soon as it is signalled: then the span may be negative.
func appExitToSidecarExit(p *timeline.Pod) (timeline.Span, bool) {
	var app, side *timeline.Milestone
	ordered := true
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Kind != timeline.KindApp && c.Kind != timeline.KindSidecar {
			continue
		}
		n := c.Runs.Len()
		if n == 0 {
			return timeline.Span{}, false
		}
		exit := c.Find(timeline.MExit, c.Runs.At(n-1).Attempt)
		if exit == nil {
			return timeline.Span{}, false
		}
		last := &app
		if c.Kind == timeline.KindSidecar {
			last = &side
		} else if exit.Signal == "SIGKILL" {
			ordered = false
		}
		if *last == nil || exit.At.After((*last).At) {
			*last = exit
		}
	}
	if app == nil || side == nil {
		return timeline.Span{}, false
	}
	return timeline.SpanBetween(app, side, ordered), true
}

func kindOf(p *timeline.Pod, container string) timeline.ContainerKind {
	if c := p.Container(container); c != nil {
		return c.Kind
	}
	return ""
}
