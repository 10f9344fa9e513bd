//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/watch"
)

// roleMarker precedes, in README.md, the Role that TestFaultRBAC applies as it is written there.
const roleMarker = "<!-- TestFaultRBAC applies this Role as it is written here -->"

// readmeRole is the YAML block after roleMarker in README.md.
func readmeRole(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(env.Root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), roleMarker)
	if !ok {
		t.Fatalf("README.md has no %q", roleMarker)
	}
	_, rest, ok = strings.Cut(rest, "```yaml\n")
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatal("README.md has no ```yaml block after the Role's marker")
	}
	return []byte(block)
}

// sidecarTop runs the sidecar-top binary and returns its exit status, output and how long it took.
func sidecarTop(ctx context.Context, args ...string) (code int, stdout, stderr string, took time.Duration) {
	cmd := exec.CommandContext(ctx, env.Binary, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	_ = cmd.Run()
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String(), time.Since(start)
}

// TestFaultRBAC: a ServiceAccount with no rights gets one line, within 5 s, naming every verb
// and resource it lacks, whether it comes with its own token or through --as (impersonation,
// which this also proves: the kubeconfig's own user may do everything). The Role README gives is
// enough: pods, their Events and logs, a Job, a Deployment, recorded without a warning.
func TestFaultRBAC(t *testing.T) {
	r := faultRun(t, "fault-rbac", "crashing-sidecar")
	ctx := t.Context()
	ns := r.Namespace
	if err := r.Apply(ctx, "crashing-sidecar"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"create", "serviceaccount", "nobody"},
		{"create", "serviceaccount", "watcher"},
		{"create", "rolebinding", "sidecar-top", "--role", "sidecar-top", "--serviceaccount", ns + ":watcher"},
		{"create", "deployment", "web", "--image", "docker.io/library/busybox:1.35", "--replicas", "0"},
		{"create", "job", "batch", "--image", "docker.io/library/busybox:1.35", "--", "true"},
	} {
		if _, err := r.Kubectl(ctx, args...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Env.KubectlStdin(ctx, readmeRole(t), "-n", ns, "apply", "-f", "-"); err != nil {
		t.Fatalf("README's Role does not apply: %v", err)
	}
	kube := []string{"--kubeconfig", env.Kubeconfig, "-n", ns}
	want := fmt.Sprintf("sidecar-top: not allowed to list pods, watch pods, list events and watch events in namespace %q\n", ns)

	// No rights, through --as: refused at once, in one line, and no recording left behind.
	out := filepath.Join(r.Dir, "nobody.jsonl")
	code, _, stderr, took := sidecarTop(ctx, append(kube, "record", "--as", "system:serviceaccount:"+ns+":nobody",
		"pod/crashing-sidecar", "--output-file", out)...)
	t.Logf("no rights (--as): exit %d after %s: %s", code, took.Round(time.Millisecond), strings.TrimSpace(stderr))
	if code != 1 || stderr != want {
		t.Errorf("no rights (--as): exit %d, standard error %q; want exit 1 and %q", code, stderr, want)
	}
	if took >= 5*time.Second {
		t.Errorf("no rights (--as): said after %s, want within 5 s", took.Round(time.Millisecond))
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused record left %s behind (%v)", out, err)
	}

	// No rights, with the ServiceAccount's own token: the same.
	token, err := r.Kubectl(ctx, "create", "token", "nobody")
	if err != nil {
		t.Fatal(err)
	}
	tokenConfig := filepath.Join(r.Dir, "nobody.kubeconfig")
	if err := writeTokenKubeconfig(ctx, tokenConfig, strings.TrimSpace(token)); err != nil {
		t.Fatal(err)
	}
	code, _, stderr, took = sidecarTop(ctx, "--kubeconfig", tokenConfig, "-n", ns, "pod/crashing-sidecar", "--plain")
	t.Logf("no rights (token): exit %d after %s: %s", code, took.Round(time.Millisecond), strings.TrimSpace(stderr))
	if code != 1 || stderr != want || took >= 5*time.Second {
		t.Errorf("no rights (token): exit %d after %s, standard error %q; want exit 1 within 5 s and %q", code, took, stderr, want)
	}

	// README's Role: a pod with its Events and logs, recorded until it is ready.
	as := "system:serviceaccount:" + ns + ":watcher"
	rec := filepath.Join(r.Dir, "watcher.jsonl")
	code, stdout, stderr, _ := sidecarTop(ctx, append(kube, "record", "--as", as, "pod/crashing-sidecar", "--output-file", rec,
		"--logs", "--until", "ready", "--linger", "3s", "--timeout", "90s")...)
	if code != 0 || strings.Contains(stderr, "not allowed") || strings.Contains(stderr, "warning") {
		t.Errorf("with README's Role: exit %d; standard error:\n%s", code, stderr)
	}
	kinds := map[string]int{}
	f, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, items, _, err := recfile.ReadAll(f, rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		kinds[it.Object.GetObjectKind().GroupVersionKind().Kind]++
	}
	t.Logf("with README's Role, as %s: %v; output:\n%s", as, kinds, stdout)
	for _, k := range []string{"Pod", "Event", watch.ContainerLogKind} {
		if kinds[k] == 0 {
			t.Errorf("with README's Role: no %s in the recording (%v)", k, kinds)
		}
	}

	// ... and a Job's and a Deployment's.
	for _, target := range []string{"job/batch", "deploy/web"} {
		code, _, stderr, _ := sidecarTop(ctx, append(kube, "record", "--as", as, target, "--output-file",
			filepath.Join(r.Dir, strings.ReplaceAll(target, "/", "-")+".jsonl"), "--timeout", "5s")...)
		if code != 0 || strings.Contains(stderr, "not allowed") || strings.Contains(stderr, "warning") {
			t.Errorf("%s with README's Role: exit %d; standard error:\n%s", target, code, stderr)
		}
	}
}

// writeTokenKubeconfig writes a kubeconfig for the cluster with a bearer token and no client
// certificate (with one, the API server would take the certificate's user).
func writeTokenKubeconfig(ctx context.Context, path, token string) error {
	server, err := env.Kubectl(ctx, "config", "view", "--raw", "--minify", "-o", "jsonpath={.clusters[0].cluster.server}")
	if err != nil {
		return err
	}
	ca, err := env.Kubectl(ctx, "config", "view", "--raw", "--minify", "-o", "jsonpath={.clusters[0].cluster.certificate-authority-data}")
	if err != nil {
		return err
	}
	if _, err := base64.StdEncoding.DecodeString(ca); err != nil {
		return fmt.Errorf("the kubeconfig's CA: %w", err)
	}
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster: {server: %q, certificate-authority-data: %q}
users:
- name: token
  user: {token: %q}
contexts:
- name: e2e
  context: {cluster: e2e, user: token}
current-context: e2e
`, server, ca, token)
	return os.WriteFile(path, []byte(cfg), 0o600)
}
