//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
)

// failoverPods is how many pods each phase of the failover test runs.
const failoverPods = 4

// failoverPod is a pod with a native sidecar and an app, both exiting at once on SIGTERM.
const failoverPod = `apiVersion: v1
kind: Pod
metadata:
  name: %[1]s
  labels: {e2e: %[2]s}
spec:
  terminationGracePeriodSeconds: 5
  initContainers:
  - name: sidecar
    image: docker.io/library/busybox:1.35
    imagePullPolicy: Never
    restartPolicy: Always
    command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 3600 & wait $!; done"]
  containers:
  - name: app
    image: docker.io/library/busybox:1.35
    imagePullPolicy: Never
    command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 3600 & wait $!; done"]
---
`

// testAgentFailover: phase a's pods run and end while the first leader leads; phase b's pods
// are running when the leader is killed (killLeader: SIGKILL, its pod deleted); once the other
// replica leads, they end. Over the whole time the replicas' counters add up to every pod once:
// the new leader counts neither phase a's pods again nor misses phase b's.
func testAgentFailover(t *testing.T, prom *harness.Prometheus) {
	ctx := t.Context()
	r, err := env.NewRun(ctx, "agent-failover", "failover-")
	if err != nil {
		t.Fatal(err)
	}
	keep(t, r)
	phase := func(name string) {
		var manifest bytes.Buffer
		for i := range failoverPods {
			fmt.Fprintf(&manifest, failoverPod, fmt.Sprintf("failover-%s-%d", name, i), "failover-"+name)
		}
		if out, err := env.KubectlStdin(ctx, manifest.Bytes(), "-n", r.Namespace, "apply", "-f", "-"); err != nil {
			t.Fatalf("phase %s: apply: %v\n%s", name, err, out)
		}
		if out, err := r.Kubectl(ctx, "wait", "--for=condition=Ready", "pod", "-l", "e2e=failover-"+name, "--timeout=120s"); err != nil {
			t.Fatalf("phase %s: pods not Ready: %v\n%s", name, err, out)
		}
	}
	end := func(name string) {
		if out, err := r.Kubectl(ctx, "delete", "pod", "-l", "e2e=failover-"+name, "--wait=true", "--timeout=120s"); err != nil {
			t.Fatalf("phase %s: delete: %v\n%s", name, err, out)
		}
	}
	total := func(want float64) float64 {
		q := fmt.Sprintf(`sum by (namespace) (max_over_time(sidecar_top_pods_final_total{namespace=%q}[15m]))`, r.Namespace)
		return eventually(t, prom, q, "namespace", map[string]float64{r.Namespace: want}, 30*time.Second)[r.Namespace]
	}

	phase("a")
	end("a")
	if got := total(failoverPods); got != failoverPods {
		t.Fatalf("phase a: the replicas counted %v pods, want %d", got, failoverPods)
	}
	phase("b")
	killLeader(t)
	end("b")
	want := float64(2 * failoverPods)
	if got := total(want); got != want {
		t.Errorf("after the failover: the replicas counted %v pods in all, want %v (each once)", got, want)
	}
	// Nothing comes late: a double count would show within a few sweeps and scrapes.
	time.Sleep(5 * time.Second)
	if got := total(want); got != want {
		t.Errorf("5 s later: the replicas counted %v pods in all, want %v", got, want)
	}
	checkFailoverGaps(t, prom, r.Namespace, want)
}

// killLeader kills the leading replica as a crash would: its process SIGKILLed on the node (so it
// neither gives up the Lease nor flushes anything), and its pod deleted at once
// (--grace-period=0 --force, so the kubelet does not start it again under the same name). It
// waits for another replica to lead: the Lease names it and its /readyz says "leader", within
// the Lease's duration plus 5 s of the kill.
func killLeader(t *testing.T) {
	t.Helper()
	ctx := t.Context()
	leader, dur, err := leaseHolder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pods, err := agentPods(ctx)
	if err != nil {
		t.Fatal(err)
	}
	uid, err := env.Kubectl(ctx, "-n", agentNS, "get", "pod", leader, "-o", "jsonpath={.metadata.uid}")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := agentProcess(strings.TrimSpace(uid))
	if err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("SIGKILL to the leader %s's process %d: %v", leader, pid, err)
	}
	if out, err := env.Kubectl(ctx, "-n", agentNS, "delete", "pod", leader, "--grace-period=0", "--force", "--wait=false"); err != nil {
		t.Fatalf("deleting the leader %s: %v\n%s", leader, err, out)
	}
	// The surviving replica, or the Deployment's replacement for the killed one if it is up in
	// time: both race for the Lease once it expires, and either is another replica leading.
	limit := dur + 5*time.Second
	for {
		holder, _, err := leaseHolder(ctx)
		now, _ := agentPods(ctx)
		if err == nil && holder != leader {
			for _, p := range now {
				if p.Name == holder && p.Readyz == "leader" {
					t.Logf("leader %s killed (process %d); %s (%s) leads %s later (Lease duration %s)", leader, pid, holder,
						survivorOrNew(pods, holder), time.Since(killed).Round(time.Millisecond), dur)
					return
				}
			}
		}
		if time.Since(killed) > limit {
			t.Fatalf("leader %s killed %s ago; no other replica leads (Lease holder %q, %v; replicas %+v)", leader, limit, holder, err, now)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// survivorOrNew says whether the replica was running before the kill or is the replacement.
func survivorOrNew(before []agentPod, name string) string {
	for _, p := range before {
		if p.Name == name {
			return "the other replica"
		}
	}
	return "the Deployment's replacement"
}

// agentProcess is the PID, on this node, of the sidecar-top process of the pod with that UID: the
// process whose cgroup is the pod's (kubepods/.../pod<UID>/...) and whose command is sidecar-top.
func agentProcess(uid string) (int, error) {
	files, _ := filepath.Glob("/proc/[0-9]*/cgroup")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "pod"+uid+"/") {
			continue
		}
		dir := filepath.Dir(f)
		if comm, _ := os.ReadFile(filepath.Join(dir, "comm")); strings.TrimSpace(string(comm)) == "sidecar-top" {
			return strconv.Atoi(filepath.Base(dir))
		}
	}
	return 0, fmt.Errorf("no sidecar-top process in pod %s's cgroup on this node", uid)
}

// checkFailoverGaps: every pod had the same gaps, so each gap's histogram counts every pod once,
// added over the replicas that observed it.
func checkFailoverGaps(t *testing.T, prom *harness.Prometheus, ns string, want float64) {
	t.Helper()
	q := fmt.Sprintf(`sum by (gap) (max_over_time(sidecar_top_gap_seconds_count{namespace=%q}[15m]))`, ns)
	got, err := byLabel(t.Context(), prom, q, "gap")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Errorf("no gap of the failover's pods observed")
	}
	for gap, n := range got {
		if n != want {
			t.Errorf("gap %q counted %v times over the replicas, want %v (each pod once)", gap, n, want)
		} else {
			t.Logf("gap %q counted %v times over the replicas", gap, n)
		}
	}
}
