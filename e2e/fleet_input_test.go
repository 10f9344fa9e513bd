//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/fleet"
)

// TestFleetBadInput (issue 38): a scope that cannot be watched gets one clear line on standard
// error, nothing on standard output and exit status 1: a namespace that does not exist, a
// selector that does not parse, and -A for a ServiceAccount whose Role covers one namespace
// only, through --as and with its own token; the same account watches that namespace (-n), so
// it is the cluster scope that is refused, and the line says so and suggests -n.
func TestFleetBadInput(t *testing.T) {
	ctx := t.Context()
	f, err := env.NewFleet(ctx, "rbac")
	t.Cleanup(func() {
		if err := f.Close(); err != nil {
			t.Logf("cleanup: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	ns := f.Namespaces["rbac"]
	for _, args := range [][]string{
		// A pod, so that the account's own namespace has a table to print (TestFleetEmptyNamespace).
		{"run", "solo", "--image", "docker.io/library/busybox:1.35", "--image-pull-policy", "Never",
			"--labels", f.Selector(), "--", "sleep", "3600"},
		{"create", "serviceaccount", "viewer"},
		{"create", "role", "viewer", "--verb=get,list,watch", "--resource=pods,events"},
		{"create", "rolebinding", "viewer", "--role", "viewer", "--serviceaccount", ns + ":viewer"},
	} {
		if _, err := f.Kubectl(ctx, "rbac", args...); err != nil {
			t.Fatal(err)
		}
	}
	as := "system:serviceaccount:" + ns + ":viewer"
	token, err := f.Kubectl(ctx, "rbac", "create", "token", "viewer")
	if err != nil {
		t.Fatal(err)
	}
	tokenConfig := filepath.Join(t.TempDir(), "viewer.kubeconfig")
	if err := writeTokenKubeconfig(ctx, tokenConfig, strings.TrimSpace(token)); err != nil {
		t.Fatal(err)
	}

	// The account may watch its namespace: what follows is refused for the scope alone.
	for _, auth := range [][]string{{"--kubeconfig", env.Kubeconfig, "--as", as}, {"--kubeconfig", tokenConfig}} {
		cctx, cancel := context.WithTimeout(ctx, time.Minute)
		code, stdout, stderr, _ := sidecarTop(cctx, append(auth, "-n", ns, "-o", "json")...)
		cancel()
		if code != 0 || !strings.Contains(stdout, `"kind":"SidecarTopFleet"`) || !strings.Contains(stdout, `"name":"solo"`) {
			t.Errorf("%v -n %s -o json: exit %d, %q, %q; want its namespace's document", auth, ns, code, tail(stdout, 300), stderr)
		}
	}

	notAllowed := func(stderr string) bool {
		return strings.Contains(stderr, "not allowed") && strings.Contains(stderr, "all namespaces") &&
			strings.Contains(stderr, "-n NAMESPACE")
	}
	for _, c := range []struct {
		name string
		args []string
		ok   func(stderr string) bool
	}{
		{"no such namespace", []string{"--kubeconfig", env.Kubeconfig, "-n", "nope-" + f.ID, "-o", "json"},
			func(s string) bool { return strings.Contains(s, `namespace "nope-`+f.ID+`" not found`) }},
		{"no such namespace, plain", []string{"--kubeconfig", env.Kubeconfig, "-n", "nope-" + f.ID, "--plain"},
			func(s string) bool { return strings.Contains(s, `namespace "nope-`+f.ID+`" not found`) }},
		{"bad selector", []string{"--kubeconfig", env.Kubeconfig, "-A", "-l", "a in (", "-o", "json"},
			func(s string) bool { return strings.Contains(s, `bad label selector "a in ("`) }},
		{"bad selector, plain", []string{"--kubeconfig", env.Kubeconfig, "-A", "-l", "a in (", "--plain"},
			func(s string) bool { return strings.Contains(s, `bad label selector "a in ("`) }},
		{"-A forbidden, --as", []string{"--kubeconfig", env.Kubeconfig, "--as", as, "-A", "-o", "json"}, notAllowed},
		{"-A forbidden, --as, plain", []string{"--kubeconfig", env.Kubeconfig, "--as", as, "-A", "--plain"}, notAllowed},
		{"-A forbidden, token", []string{"--kubeconfig", tokenConfig, "-A", "-o", "json"}, notAllowed},
	} {
		// A hang is killed at a minute, and fails as exit -1.
		cctx, cancel := context.WithTimeout(ctx, time.Minute)
		code, stdout, stderr, took := sidecarTop(cctx, c.args...)
		cancel()
		t.Logf("%s: exit %d after %s: %s", c.name, code, took.Round(1e6), strings.TrimSpace(stderr))
		if code != 1 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "sidecar-top: ") || !c.ok(stderr) {
			t.Errorf("%s: sidecar-top %s: exit %d, standard output %q, standard error %q; want exit 1, nothing, and one line that says why",
				c.name, strings.Join(c.args, " "), code, tail(stdout, 300), stderr)
		}
	}
}

// TestFleetEmptyNamespace: a namespace with no pod is a scope like any other: -o json prints its
// document, with no pod, and exits; --plain prints the table's header and counts.
func TestFleetEmptyNamespace(t *testing.T) {
	ctx := t.Context()
	f, err := env.NewFleet(ctx, "empty")
	t.Cleanup(func() {
		if err := f.Close(); err != nil {
			t.Logf("cleanup: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	ns := f.Namespaces["empty"]
	// A hang is stopped at 30 s: the document of nothing is printed once the empty list is in.
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	code, stdout, stderr, took := sidecarTop(cctx, "--kubeconfig", env.Kubeconfig, "-n", ns, "-o", "json")
	cancel()
	t.Logf("-n %s -o json: exit %d after %s: %s %s", ns, code, took.Round(time.Millisecond), stdout, stderr)
	var d fleet.Document
	if code != 0 || json.Unmarshal([]byte(stdout), &d) != nil || d.Scope != "namespace "+ns || len(d.Rows) != 0 || d.At.IsZero() {
		t.Errorf("-n %s -o json (no pod): exit %d, standard output %q, standard error %q; want exit 0 and a document of no pod, at a time",
			ns, code, stdout, stderr)
	}
	cmd := exec.Command(env.Binary, "--kubeconfig", env.Kubeconfig, "-n", ns, "--plain")
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "# namespace "+ns+": 0 pods") {
		if time.Now().After(deadline) {
			t.Errorf("-n %s --plain (no pod) printed no table within 20 s, only:\n%s", ns, out.String())
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
}
