//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
)

// The pods of fleet-seed.yaml, by what each must show (the others are plain or Deployments').
const (
	podSlow        = "slow-start"   // slow-startup
	podCrash       = "crash-loop"   // crash-loop
	podDrainOK     = "drain-ok"     // deleted while --plain runs: DELETE→EXIT
	podDrainKilled = "drain-killed" // deleted, killed at its grace deadline, held by a finalizer
	jobClassic     = "job-classic"  // classic-sidecar-blocks
	jobNative      = "job-native"   // completes
)

// TestFleet (issue 38): about 50 pods in 3 namespaces, six of them the seed behaviours (a slow
// startup probe, a crash-looping sidecar, a Job whose classic sidecar never lets it complete, a
// Job with a native one that does, an app drained in time and one killed before its drain ends),
// the rest plain pods, Deployments' and bare, and Deployments' pods with a native or a classic
// sidecar. Watched as a fleet (-A -l, -n NS): --plain prints the table, then the rows a deletion
// changes; -o json has every pod with kubectl's STATUS, its workload, its shape, the gaps with
// bounds that hold the runtime's truth, and each seed finding on its own row only; on a terminal
// the table sorts and filters by key.
func TestFleet(t *testing.T) {
	ctx := t.Context()
	start := time.Now()
	f, err := env.NewFleet(ctx, "seed", "web", "api")
	t.Cleanup(func() {
		if t.Failed() {
			dir := filepath.Join(harness.FailureDir, t.Name())
			if err := f.Save(dir); err != nil {
				t.Logf("saving the evidence: %v", err)
			}
			t.Logf("evidence (container logs, the outputs) saved in %s", dir)
		}
		if err := f.Close(); err != nil {
			t.Logf("cleanup: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("namespaces %v, selector %s", f.Namespaces, f.Selector())
	f.Collect("seed", "") // the truth of the seed pods and of the mesh pods' sidecar → app
	f.Collect("web", "mesh-")
	for _, ns := range []string{"seed", "web", "api"} {
		if err := f.Apply(ctx, ns); err != nil {
			t.Fatal(err)
		}
	}
	// The Deployments come with no pod: five more at a time, each step once they run (2 cores).
	for _, d := range []struct {
		ns, name string
		replicas int
	}{{"web", "mesh", 6}, {"web", "web", 14}, {"api", "api", 14}, {"api", "edge", 3}} {
		for n := min(5, d.replicas); ; n = min(n+5, d.replicas) {
			if _, err := f.Kubectl(ctx, d.ns, "scale", "deployment", d.name, "--replicas", strconv.Itoa(n)); err != nil {
				t.Fatal(err)
			}
			if _, err := f.Kubectl(ctx, d.ns, "rollout", "status", "deployment", d.name, "--timeout=180s"); err != nil {
				t.Fatal(err)
			}
			if n == d.replicas {
				break
			}
		}
	}
	settle(t, f)
	t.Logf("%d pods settled after %s", len(kubectlStatuses(t, f)), time.Since(start).Round(time.Second))

	t.Run("plain", func(t *testing.T) { checkFleetPlain(t, f) })
	t.Run("json", func(t *testing.T) { checkFleetJSON(t, f) })
	t.Run("view", func(t *testing.T) { checkFleetView(t, f) })
	t.Logf("TestFleet took %s", time.Since(start).Round(time.Second))
}

// settle waits until every seed pod shows what it is there for: slow-start, drain-ok and
// drain-killed Ready; the crash-looping sidecar restarted twice (crash-loop needs two); the
// native Job complete; the classic Job's main exited.
func settle(t *testing.T, f *harness.Fleet) {
	t.Helper()
	ctx := t.Context()
	for _, p := range []string{podSlow, podDrainOK, podDrainKilled} {
		if _, err := f.Kubectl(ctx, "seed", "wait", "--for=condition=Ready", "pod/"+p, "--timeout=120s"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.Kubectl(ctx, "seed", "wait", "--for=condition=Complete", "job/"+jobNative, "--timeout=120s"); err != nil {
		t.Fatal(err)
	}
	// The sidecar's second restart: 3 s, a 10 s back-off, 3 s, a 20 s back-off.
	waitFor(t, 150*time.Second, "crash-loop's sidecar restarted twice", func() (bool, string) {
		out, err := f.Kubectl(ctx, "seed", "get", "pod", podCrash, "-o", "jsonpath={.status.initContainerStatuses[0].restartCount}")
		n, _ := strconv.Atoi(out)
		return err == nil && n >= 2, fmt.Sprintf("restartCount %q (%v)", out, err)
	})
	waitFor(t, 60*time.Second, "job-classic's main exited", func() (bool, string) {
		out, err := f.Kubectl(ctx, "seed", "get", "pod", "-l", "job-name="+jobClassic,
			"-o", `jsonpath={.items[*].status.containerStatuses[?(@.name=="main")].state.terminated.reason}`)
		return err == nil && out == "Completed", fmt.Sprintf("main terminated: %q (%v)", out, err)
	})
}

// waitFor polls ok every half second until it holds, or fails the test after limit saying what
// it waited for and what it saw last.
func waitFor(t *testing.T, limit time.Duration, what string, ok func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		done, last := ok()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s; last: %s", what, limit, last)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// podKey names a pod across namespaces.
type podKey struct{ Namespace, Name string }

func (k podKey) String() string { return k.Namespace + "/" + k.Name }

// kubectlStatuses is kubectl's STATUS column of every pod of the run, by pod.
func kubectlStatuses(t *testing.T, f *harness.Fleet) map[podKey]string {
	t.Helper()
	out, err := f.Env.Kubectl(t.Context(), "get", "pods", "-A", "-l", f.Selector(), "--no-headers")
	if err != nil {
		t.Fatal(err)
	}
	m := map[podKey]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		// NAMESPACE NAME READY STATUS RESTARTS AGE; RESTARTS may be "2 (5s ago)".
		fs := strings.Fields(l)
		if len(fs) < 6 {
			t.Fatalf("kubectl get pods: a line of %d fields: %q", len(fs), l)
		}
		m[podKey{fs[0], fs[1]}] = fs[3]
	}
	return m
}

// ownerWant is the workload kubectl's controller reference names, as the table shows it: a
// Deployment for a ReplicaSet's pod (the names of the test's pods say which).
func ownerWant(name string) string {
	for _, d := range []string{"web", "mesh", "api", "edge"} {
		if strings.HasPrefix(name, d+"-") {
			return "Deployment/" + d
		}
	}
	for _, j := range []string{jobClassic, jobNative} {
		if strings.HasPrefix(name, j+"-") {
			return "Job/" + j
		}
	}
	return ""
}

// shapeWant is the sidecar shape of a pod of the test, by its name.
func shapeWant(name string) string {
	switch {
	case strings.HasPrefix(name, "web-"), strings.HasPrefix(name, "api-"), strings.HasPrefix(name, "solo-"),
		strings.HasPrefix(name, "bare-"):
		return "none"
	case strings.HasPrefix(name, "edge-"), strings.HasPrefix(name, jobClassic+"-"):
		return "classic"
	}
	return "native"
}

// fleetCmd runs sidecar-top with the test's kubeconfig and returns its exit status and outputs.
func fleetCmd(ctx context.Context, args ...string) (int, string, string) {
	code, stdout, stderr, _ := sidecarTop(ctx, append([]string{"--kubeconfig", env.Kubeconfig}, args...)...)
	return code, stdout, stderr
}
