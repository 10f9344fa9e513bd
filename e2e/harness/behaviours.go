//go:build e2e

package harness

import (
	"context"
	"fmt"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// The kubelet's and the API server's behaviours of issue 43 that no scenario proved before: a
// postStart hook the kubelet waits for, a readiness gate, an eviction through the Eviction API,
// a delete with a grace period of its own, and an ephemeral container added by `kubectl debug`.
// Their tests are in behaviours_test.go. (A pod whose Node is lost has no runtime to give a
// truth: it is a test of its own, TestNodeLost, not a Scenario.)
var (
	// PostStart: s1 has no startupProbe and a postStart hook of 3 s; the app starts only after it.
	PostStart = Scenario{
		Test: "TestFindingPostStartDelays", Name: "poststart",
		Title:    "a sidecar's postStart hook of 3 s: started once it returned, the app after it",
		Manifest: "finding-poststart", Target: "pod/finding-poststart", PodPrefix: "finding-poststart",
		Until: "ready", Timeout: 60 * time.Second,
		Points: points(
			startPt("s1", 0), startPt("app", 0),
			// The kubelet counts s1 started only once its hook has returned.
			pt("s1", timeline.MStarted, 0, "s1 poststart done", NotBefore),
		),
	}
	// ReadinessGate: every container ready, the pod held not Ready by its readiness gate until
	// the scenario sets the gate's condition True, 3 s after ContainersReady.
	ReadinessGate = Scenario{
		Test: "TestReadinessGate", Name: "readiness-gate",
		Title:    "a readiness gate holds the pod not Ready 3 s after every container is ready",
		Manifest: "readiness-gate", Target: "pod/readiness-gate", PodPrefix: "readiness-gate",
		Until: "ready", Timeout: 60 * time.Second, Then: ContainersReadyThenGate("readiness-gate", GateCondition, 3*time.Second),
		Points: points(
			startPt("s1", 0), startPt("app", 0),
			pt("s1", timeline.MReady, 0, "s1 ready-file", NotBefore),
			pt("app", timeline.MReady, 0, "app start", NotBefore),
		),
	}
	// Eviction: the pod is evicted through the Eviction API once Ready; it stops as on a delete.
	Eviction = Scenario{
		Test: "TestEviction", Name: "eviction",
		Title:    "evicted through the Eviction API: the app drains 1 s, then the sidecar stops",
		Manifest: "eviction", Target: "pod/eviction", PodPrefix: "eviction",
		Until: "deleted", Timeout: 60 * time.Second, Then: ReadyThenEvict("eviction"),
		Points: points(lifecycle("s1", 0), lifecycle("app", 0)),
	}
	// GraceOverride: a pod that asks for 30 s deleted with --grace-period=3; the app, draining
	// 10 s, is killed 3 s after its SIGTERM.
	GraceOverride = Scenario{
		Test: "TestDeleteGraceOverride", Name: "grace-override",
		Title:    "deleted with --grace-period=3 (the pod asks 30): the app is killed 3 s after SIGTERM",
		Manifest: "grace-override", Target: "pod/grace-override", PodPrefix: "grace-override",
		Until: "deleted", Timeout: 60 * time.Second, Then: ReadyThenDeleteGrace("grace-override", 3),
		Points: points(ignoresTermKilled("app"), lifecycle("s1", 0)),
	}
	// DebugEphemeral: `kubectl debug` adds dbg once the pod is Ready; dbg exits after 2 s; then
	// the pod is deleted.
	DebugEphemeral = Scenario{
		Test: "TestDebugEphemeral", Name: "debug",
		Title:    "kubectl debug adds an ephemeral container that runs 2 s; then delete",
		Manifest: "debug-ephemeral", Target: "pod/debug-ephemeral", PodPrefix: "debug-ephemeral",
		Until: "deleted", Timeout: 60 * time.Second, Then: ReadyThenDebug("debug-ephemeral", "dbg"),
		Points: points(lifecycle("s1", 0), lifecycle("app", 0), startPt("dbg", 0), exitPt("dbg", 0, "dbg exiting")),
	}
)

// BehaviourScenarios are issue 43's scenarios, in the order of the table in e2e/README.md.
func BehaviourScenarios() []Scenario {
	return []Scenario{PostStart, ReadinessGate, Eviction, GraceOverride, DebugEphemeral}
}

// GateCondition is the condition type of readiness-gate.yaml's readiness gate.
const GateCondition = "e2e.sidecar-top.dev/gate"

// ignoresTermKilled: a run that prints "<name> start", then "<name> got TERM" from its SIGTERM
// trap and drains on, killed before it prints more: that line bounds the exit below only.
func ignoresTermKilled(name string) []Point {
	return []Point{
		startPt(name, 0),
		pt(name, timeline.MSigterm, 0, name+" got TERM", After),
		pt(name, timeline.MExit, 0, name+" got TERM", NotBefore),
	}
}

// act does what, noting this machine's clock just before and just after it in r.Acts[what].
func (r *Run) act(what string, f func() error) error {
	before := time.Now()
	err := f()
	if r.Acts == nil {
		r.Acts = map[string][2]time.Time{}
	}
	r.Acts[what] = [2]time.Time{before, time.Now()}
	return err
}

// ContainersReadyThenGate waits until every container of the pod is ready, waits pause more,
// then sets the readiness gate's condition True through pods/status, as a controller would
// (r.Acts["gate"]).
func ContainersReadyThenGate(pod, condition string, pause time.Duration) Step {
	return func(ctx context.Context, r *Run, logf func(string, ...any)) error {
		if _, err := r.Env.run(ctx, 95*time.Second, nil, "-n", r.Namespace, "wait", "--for=condition=ContainersReady",
			"pod/"+pod, "--timeout=90s"); err != nil {
			return err
		}
		logf("pod %s ContainersReady; setting %s True in %s", pod, condition, pause)
		if err := sleep(ctx, pause); err != nil {
			return err
		}
		patch := fmt.Sprintf(`[{"op":"add","path":"/status/conditions/-","value":{"type":%q,"status":"True","lastTransitionTime":%q}}]`,
			condition, time.Now().UTC().Format(time.RFC3339))
		return r.act("gate", func() error {
			_, err := r.Kubectl(ctx, "patch", "pod", pod, "--subresource=status", "--type=json", "-p", patch)
			return err
		})
	}
}

// ReadyThenEvict waits until the pod is Ready, then evicts it through the Eviction API (policy/v1),
// noting when in r.Deletion: the eviction deletes the pod within that call.
func ReadyThenEvict(pod string) Step {
	return func(ctx context.Context, r *Run, logf func(string, ...any)) error {
		if err := r.WaitReady(ctx, pod, 90*time.Second); err != nil {
			return err
		}
		logf("pod %s Ready; evicting it", pod)
		body := fmt.Sprintf(`{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":%q,"namespace":%q}}`, pod, r.Namespace)
		r.Deletion[0] = time.Now()
		_, err := r.Env.run(ctx, 30*time.Second, []byte(body), "create", "--raw",
			"/api/v1/namespaces/"+r.Namespace+"/pods/"+pod+"/eviction", "-f", "-")
		r.Deletion[1] = time.Now()
		return err
	}
}

// ReadyThenDeleteGrace waits until the pod is Ready, then deletes it with --grace-period=grace.
func ReadyThenDeleteGrace(pod string, grace int) Step {
	return func(ctx context.Context, r *Run, logf func(string, ...any)) error {
		if err := r.WaitReady(ctx, pod, 90*time.Second); err != nil {
			return err
		}
		logf("pod %s Ready; deleting it with --grace-period=%d", pod, grace)
		r.Deletion[0] = time.Now()
		_, err := r.Kubectl(ctx, "delete", "pod", pod, "--wait=false", fmt.Sprintf("--grace-period=%d", grace))
		r.Deletion[1] = time.Now()
		return err
	}
}

// ReadyThenDebug waits until the pod is Ready, adds the ephemeral container name with `kubectl
// debug` (busybox, targeting app; it prints "<name> start", and "<name> exiting" 2 s later, and
// exits), waits for its last line and a second more, then deletes the pod.
func ReadyThenDebug(pod, name string) Step {
	return func(ctx context.Context, r *Run, logf func(string, ...any)) error {
		if err := r.WaitReady(ctx, pod, 90*time.Second); err != nil {
			return err
		}
		logf("pod %s Ready; kubectl debug adds %s", pod, name)
		script := fmt.Sprintf("echo %s start; sleep 2; echo %s exiting", name, name)
		if err := r.act("debug", func() error {
			_, err := r.Kubectl(ctx, "debug", "pod/"+pod, "--image=docker.io/library/busybox:1.35", "--image-pull-policy=Never",
				"--container="+name, "--target=app", "--", "sh", "-c", script)
			return err
		}); err != nil {
			return err
		}
		if _, err := r.WaitLine(ctx, name, 0, name+" exiting", 60*time.Second); err != nil {
			return err
		}
		if err := sleep(ctx, time.Second); err != nil {
			return err
		}
		return r.Delete(ctx, pod)
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
