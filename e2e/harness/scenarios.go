//go:build e2e

package harness

import (
	"context"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// PodScenario is a pod that is recorded from before it exists until it is gone: applied, left
// to become Ready, then deleted. The end-to-end tests and the figures program share these.
type PodScenario struct {
	Name     string  // short, for the namespace and the report
	Title    string  // what it shows
	Manifest string  // e2e/manifests/<Manifest>.yaml
	Pod      string  // the pod's name
	Points   []Point // the milestones its containers' log lines witness
}

// The scenarios' containers print one line per step. Lines printed as a step happens witness
// the instant before them; the line printed as the last act before exiting witnesses the exit.
var (
	// StartOrder: init container (sleep 2), then a native sidecar gated by a startup probe that
	// passes ~3 s after it starts, then the app; then the pod is deleted.
	StartOrder = PodScenario{
		Name: "start-order", Title: "start order: init → sidecar (startup probe) → app, then delete",
		Manifest: "start-order", Pod: "start-order",
		Points: concat(
			[]Point{
				{"init", timeline.MStart, 0, "init start", After},
				{"init", timeline.MExit, 0, "init done", Before},
				// The startup probe can pass only once the file it tests exists.
				{"sidecar", timeline.MStarted, 0, "sidecar ready-file", NotBefore},
			},
			lifecycle("sidecar"), lifecycle("app"),
		),
	}
	// TerminationOrder: on delete the app drains 3 s; the sidecar is signalled only after it exits.
	TerminationOrder = PodScenario{
		Name: "termination", Title: "termination order on delete: app drains 3 s, then the sidecar stops",
		Manifest: "termination-order", Pod: "termination-order",
		Points: concat(lifecycle("sidecar"), lifecycle("app")),
	}
	// TwoSidecars: two sidecars stop in reverse order after the app, which drains 2 s.
	TwoSidecars = PodScenario{
		Name: "two-sidecars", Title: "two sidecars stop in reverse order after the app (drains 2 s)",
		Manifest: "two-sidecars", Pod: "two-sidecars",
		Points: concat(lifecycle("s1"), lifecycle("s2"), lifecycle("app")),
	}
)

// lifecycle are the points of a container that prints "<name> start" when it starts, and from
// its SIGTERM trap "<name> got TERM", then "<name> exiting" just before it exits.
func lifecycle(name string) []Point {
	return []Point{
		{name, timeline.MStart, 0, name + " start", After},
		{name, timeline.MSigterm, 0, name + " got TERM", After},
		{name, timeline.MExit, 0, name + " exiting", Before},
	}
}

func concat(ps ...[]Point) []Point {
	var out []Point
	for _, p := range ps {
		out = append(out, p...)
	}
	return out
}

// RunPodScenario runs sc in a fresh namespace: starts the recorder (--until deleted), applies
// the manifest, waits for the pod to be Ready, deletes it, waits for the recorder to stop, and
// replays the recording. The Run is returned even on error (when not nil), for Save and Close.
func (e *Env) RunPodScenario(ctx context.Context, sc PodScenario, logf func(string, ...any)) (*Run, error) {
	r, err := e.NewRun(ctx, sc.Name, sc.Pod)
	if err != nil {
		return nil, err
	}
	logf("namespace %s", r.Namespace)
	if err := r.StartRecord(ctx, "pod/"+sc.Pod, "--until", "deleted", "--timeout", "120s"); err != nil {
		return r, err
	}
	if err := r.Apply(ctx, sc.Manifest); err != nil {
		return r, err
	}
	if err := r.WaitReady(ctx, sc.Pod, 90*time.Second); err != nil {
		return r, err
	}
	logf("pod %s Ready; deleting it", sc.Pod)
	if err := r.Delete(ctx, sc.Pod); err != nil {
		return r, err
	}
	if err := r.Finish(ctx, 0, 130*time.Second); err != nil {
		return r, err
	}
	logf("recorded and replayed: %d pods, %d container runs logged", len(r.Timeline.Pods), len(r.Truth.Runs))
	return r, nil
}
