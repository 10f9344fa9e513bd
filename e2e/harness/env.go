//go:build e2e

// Package harness runs sidecar-top against the real one-node cluster of e2e/cluster, as a user
// runs it, and collects the ground truth to hold its answers against: the container runtime's
// own log files, in which every line carries the nanosecond time it was written.
//
// A scenario is one Run: a fresh namespace, a collector polling the pod's CRI log files, a
// `sidecar-top record` subprocess started before the manifest is applied, and at the end the
// recording replayed with `sidecar-top replay FILE -o json` and decoded into timeline types.
// The end-to-end tests (package e2e) and the figures program (e2e/truth) both use it.
//
// Everything here needs the cluster: Setup fails, it never skips, when there is none.
package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// module is the path of the module whose root Setup looks for.
const module = "github.com/sidecar-top/sidecar-top"

// Env is the cluster and the tools a scenario uses.
type Env struct {
	Root       string // the repository root
	Kubeconfig string // $KUBECONFIG
	KubectlBin string // the kubectl binary
	Binary     string // the sidecar-top binary under test
	PodLogs    string // the kubelet's /var/log/pods, seen from the host
	scripts    string // e2e/cluster
}

// Setup finds the repository, the cluster and the binaries, and checks that the API server
// answers. The sidecar-top binary is $SIDECAR_TOP_BIN (e2e/run.sh builds it once); without it,
// Setup builds one into buildDir so that a test never runs a stale binary.
func Setup(ctx context.Context, buildDir string) (*Env, error) {
	root, err := findRoot()
	if err != nil {
		return nil, err
	}
	e := &Env{Root: root, scripts: filepath.Join(root, "e2e", "cluster")}
	e.Kubeconfig = os.Getenv("KUBECONFIG")
	if e.Kubeconfig == "" {
		return nil, errors.New("KUBECONFIG is not set: run e2e/run.sh, which brings the cluster up and sets it")
	}
	if _, err := os.Stat(e.Kubeconfig); err != nil {
		return nil, fmt.Errorf("KUBECONFIG: %w (is the cluster up? e2e/run.sh brings it up)", err)
	}
	stateDir := filepath.Join(e2eDir(root), "state")
	e.KubectlBin = filepath.Join(e2eDir(root), "bin", "kubectl")
	if _, err := os.Stat(e.KubectlBin); err != nil {
		if e.KubectlBin, err = exec.LookPath("kubectl"); err != nil {
			return nil, errors.New("no kubectl in .e2e/bin or $PATH")
		}
	}
	if e.PodLogs, err = podLogDir(stateDir); err != nil {
		return nil, err
	}
	if _, err := e.run(ctx, 15*time.Second, nil, "get", "--raw", "/readyz"); err != nil {
		return nil, fmt.Errorf("the API server does not answer (is the cluster up?): %w", err)
	}
	if e.Binary = os.Getenv("SIDECAR_TOP_BIN"); e.Binary == "" {
		e.Binary = filepath.Join(buildDir, "sidecar-top")
		build := exec.CommandContext(ctx, "go", "build", "-o", e.Binary, "./cmd/sidecar-top")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build ./cmd/sidecar-top: %w\n%s", err, out)
		}
	} else if _, err := os.Stat(e.Binary); err != nil {
		return nil, fmt.Errorf("SIDECAR_TOP_BIN: %w", err)
	}
	return e, nil
}

// findRoot walks up from the working directory to the module's go.mod.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(b), []byte("module "+module)) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of %s above the working directory", module)
		}
		dir = parent
	}
}

// e2eDir is where e2e/cluster keeps its binaries and state ($E2E_DIR, as env.sh reads it).
func e2eDir(root string) string {
	if d := os.Getenv("E2E_DIR"); d != "" {
		return d
	}
	return filepath.Join(root, ".e2e")
}

// podLogDir is the kubelet's /var/log/pods as the host sees it: containerd and the kubelet run
// in a private mount namespace, kept alive by the holder process whose PID is the first field
// of run/holder.pid.
func podLogDir(stateDir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(stateDir, "run", "holder.pid"))
	if err != nil {
		return "", fmt.Errorf("the node's mount namespace holder: %w (is the e2e cluster up?)", err)
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return "", errors.New("run/holder.pid is empty (is the e2e cluster up?)")
	}
	dir := filepath.Join("/proc", fields[0], "root", "var", "log", "pods")
	if _, err := os.ReadDir(dir); err != nil {
		return "", fmt.Errorf("the kubelet's pod logs, the ground truth: %w", err)
	}
	return dir, nil
}

// Kubectl runs kubectl with the environment's kubeconfig and returns its standard output.
func (e *Env) Kubectl(ctx context.Context, args ...string) (string, error) {
	return e.run(ctx, time.Minute, nil, args...)
}

// run runs kubectl with a time limit, stdin, and the error carrying its standard error.
func (e *Env) run(ctx context.Context, limit time.Duration, stdin []byte, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.KubectlBin, append([]string{"--kubeconfig", e.Kubeconfig}, args...)...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("kubectl %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// Manifest reads e2e/manifests/NAME.yaml.
func (e *Env) Manifest(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(e.Root, "e2e", "manifests", name+".yaml"))
}

// createNamespace creates namespace ns and waits, as wait-namespace.sh does, until pods can go
// in it: its default ServiceAccount and its kube-root-ca.crt ConfigMap exist. When they do not
// come within 30 s, the controller-manager that makes them is restarted (controllers.sh) and
// they get 60 s more: after the fault tests restart the API server, its controllers were seen to
// make none for over a minute. Likely why: a restarted API server answers Forbidden until its
// RBAC caches are filled (a rerun of the kill test logged 68 such errors in the
// controller-manager, one of them for its namespace informer), and client-go's reflectors back
// off after each failure, 0.8 s doubling to 30 s, jittered, reset only after 2 minutes without
// one: five kills in a row can leave the service-account controller blind to a new namespace
// for up to a minute. A fresh controller-manager lists everything at once.
func (e *Env) createNamespace(ctx context.Context, ns string) error {
	wait := func(timeout string) (string, error) {
		out, err := exec.CommandContext(ctx, filepath.Join(e.scripts, "wait-namespace.sh"), ns, timeout).CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	out, err := wait("30")
	if err == nil {
		return nil
	}
	fmt.Fprintf(os.Stderr, "harness: namespace %s not ready in 30 s (%s); restarting kube-controller-manager\n", ns, lastLine(out))
	if rout, rerr := exec.CommandContext(ctx, filepath.Join(e.scripts, "controllers.sh"), "restart").CombinedOutput(); rerr != nil {
		return fmt.Errorf("wait-namespace.sh %s: %w: %s; then controllers.sh restart: %w: %s", ns, err, out, rerr, strings.TrimSpace(string(rout)))
	}
	if out, err = wait("60"); err != nil {
		return fmt.Errorf("wait-namespace.sh %s, after restarting kube-controller-manager: %w: %s", ns, err, out)
	}
	return nil
}

// lastLine is the last line of s.
func lastLine(s string) string { return s[strings.LastIndex(s, "\n")+1:] }

// deleteNamespace deletes ns without waiting for it to go.
func (e *Env) deleteNamespace(ns string) error {
	_, err := e.run(context.Background(), 30*time.Second, nil, "delete", "namespace", ns, "--wait=false", "--ignore-not-found")
	return err
}
