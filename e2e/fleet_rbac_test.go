//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clusterRoleMarker precedes, in README.md, the ClusterRole that TestFleetClusterRole applies.
const clusterRoleMarker = "<!-- TestFleetClusterRole applies this ClusterRole as it is written here -->"

// TestFleetClusterRole: README's ClusterRole, bound to a ServiceAccount, is all -A needs; with only
// README's Role (a namespace's), -A is refused in one line that names what is missing and
// suggests -n, and -n works.
func TestFleetClusterRole(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	r, err := env.NewRun(ctx, "fleet-rbac", "web")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	ns := r.Namespace
	sa := "system:serviceaccount:" + ns + ":watcher"
	binding := "sidecar-top-" + ns
	t.Cleanup(func() { _, _ = env.Kubectl(ctx, "delete", "clusterrolebinding", binding, "--ignore-not-found") })
	for _, args := range [][]string{
		{"create", "serviceaccount", "watcher"},
		{"create", "rolebinding", "sidecar-top", "--role", "sidecar-top", "--serviceaccount", ns + ":watcher"},
		{"run", "web", "--image", "docker.io/library/busybox:1.35", "--image-pull-policy", "Never", "--", "sleep", "3600"},
	} {
		if _, err := r.Kubectl(ctx, args...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Env.KubectlStdin(ctx, readmeRole(t), "-n", ns, "apply", "-f", "-"); err != nil {
		t.Fatalf("README's Role does not apply: %v", err)
	}
	kube := []string{"--kubeconfig", env.Kubeconfig, "--as", sa}

	// Only the namespace's Role: -A is refused in one line; -n works.
	code, _, stderr, _ := sidecarTop(ctx, append(kube, "-A", "-o", "json")...)
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "not allowed to list pods, watch pods, list events and watch events in all namespaces") ||
		!strings.Contains(stderr, "try -n NAMESPACE") {
		t.Errorf("-A with a Role only: exit %d, standard error %q", code, stderr)
	}
	code, stdout, stderr, _ := sidecarTop(ctx, append(kube, "-n", ns, "-o", "json", "--sidecars-only=false")...)
	if code != 0 || !strings.Contains(stdout, `"name":"web"`) {
		t.Errorf("-n %s with README's Role: exit %d, %s\n%s", ns, code, stdout, stderr)
	}

	// README's ClusterRole: -A lists the pod.
	b, err := os.ReadFile(filepath.Join(env.Root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), clusterRoleMarker)
	_, rest, ok2 := strings.Cut(rest, "```yaml\n")
	block, _, ok3 := strings.Cut(rest, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatalf("README.md has no ```yaml block after %q", clusterRoleMarker)
	}
	if _, err := r.Env.KubectlStdin(ctx, []byte(block), "apply", "-f", "-"); err != nil {
		t.Fatalf("README's ClusterRole does not apply: %v", err)
	}
	if _, err := env.Kubectl(ctx, "create", "clusterrolebinding", binding, "--clusterrole", "sidecar-top-all-namespaces",
		"--serviceaccount", ns+":watcher"); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr, _ = sidecarTop(ctx, append(kube, "-A", "-o", "json", "--sidecars-only=false")...)
	var doc struct {
		Pods []struct{ Namespace, Name string }
	}
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil {
		t.Fatalf("-A with README's ClusterRole: exit %d, %v\n%s", code, err, stderr)
	}
	found := false
	for _, p := range doc.Pods {
		found = found || p.Namespace == ns && p.Name == "web"
	}
	if !found {
		t.Errorf("-A with README's ClusterRole does not list %s/web: %s", ns, stdout)
	}
}
