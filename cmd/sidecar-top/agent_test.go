package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestAgentFlags: the agent's flags as the contract names them, and the refusals, in one line
// each, before anything connects.
func TestAgentFlags(t *testing.T) {
	cases := []struct {
		args []string
		err  string // "" for none
	}{
		{[]string{"agent", "-A", "-n", "x", "--kubeconfig", "/nonexistent"}, "-A watches every namespace"},
		{[]string{"agent", "--max-owners", "0"}, "--max-owners 0: want 1 or more"},
		{[]string{"agent", "--trace-after", "-1s"}, "--trace-after -1s"},
		{[]string{"agent", "-n", ""}, `-n "": give a namespace's name`},
		{[]string{"agent", "extra"}, "unknown command"},
		{[]string{"agent", "--otlp-endpoint", "ftp://x:1", "-n", "a"}, "the scheme is http, https, grpc or grpcs"},
		{[]string{"agent", "--otlp-endpoint", "localhost", "-n", "a"}, "want http://HOST:4318"},
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		s := streams{}
		s.Out, s.ErrOut, s.In = &out, &errOut, strings.NewReader("")
		code := run(c.args, s)
		if code == 0 || !strings.Contains(errOut.String(), c.err) {
			t.Errorf("%v: exit %d, stderr %q; want it to say %q", c.args, code, errOut.String(), c.err)
		}
		if lines := strings.Count(strings.TrimSpace(errOut.String()), "\n"); lines > 0 {
			t.Errorf("%v: %d lines of error, want one", c.args, lines+1)
		}
	}
}

// TestAgentFlagDefaults: the defaults the manifests and the e2e tests rely on.
func TestAgentFlagDefaults(t *testing.T) {
	cmd := newAgentCommand(streams{})
	want := map[string]string{"metrics-addr": ":9464", "otlp-endpoint": "", "owner-names": "true", "max-owners": "1000",
		"leader-elect": "false", "lease-name": "sidecar-top-agent", "lease-namespace": "", "trace-after": "15m0s",
		"keep-finished": "1h0m0s", "namespace": "[]", "all-namespaces": "false", "selector": "", "kubeconfig": ""}
	for name, def := range want {
		f := cmd.Flags().Lookup(name)
		if f == nil {
			t.Errorf("no --%s", name)
			continue
		}
		if f.DefValue != def {
			t.Errorf("--%s defaults to %q, want %q", name, f.DefValue, def)
		}
	}
	if err := cmd.Flags().Parse([]string{"-n", "a", "-n", "b", "--namespace", "c"}); err != nil {
		t.Fatal(err)
	}
	o := cmd.Flags().Lookup("namespace").Value.String()
	if o != "[a,b,c]" {
		t.Errorf("-n repeated: %s", o)
	}
}

// TestAgentLeaseNamespace: --lease-namespace, else $POD_NAMESPACE, else default.
func TestAgentLeaseNamespace(t *testing.T) {
	t.Setenv("POD_NAMESPACE", "")
	o := &agentOptions{}
	if got := o.leaseNamespace(); got != "default" {
		t.Errorf("no flag, no env: %q", got)
	}
	t.Setenv("POD_NAMESPACE", "mon")
	if got := o.leaseNamespace(); got != "mon" {
		t.Errorf("$POD_NAMESPACE: %q", got)
	}
	o.leaseNS = "x"
	if got := o.leaseNamespace(); got != "x" {
		t.Errorf("--lease-namespace: %q", got)
	}
}

// TestAgentLogEscapes: what the cluster names reaches the log as JSON with its control
// characters escaped, never raw.
func TestAgentLogEscapes(t *testing.T) {
	var b bytes.Buffer
	agentLogger(&b).Info("watch", "note", "pod \x1b]0;owned\x07 \u202egone\x9b2J")
	line := b.String()
	for _, raw := range []string{"\x1b", "\x07", "\u202e", "\x9b", "\u009b"} {
		if strings.Contains(line, raw) {
			t.Errorf("log line holds %q raw: %q", raw, line)
		}
	}
	if !strings.HasPrefix(line, "{") || !strings.Contains(line, `"note":`) {
		t.Errorf("not a JSON log line: %q", line)
	}
}
