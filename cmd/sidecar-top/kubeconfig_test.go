package main

import (
	"slices"
	"testing"

	"github.com/spf13/pflag"
)

// TestKubeConfigFlags: kubectl's flags reach the client configuration as kubectl applies them,
// over what the kubeconfig file says.
func TestKubeConfigFlags(t *testing.T) {
	file := kubeconfig(t, "https://file.example:6443")
	for _, tc := range []struct {
		args          []string
		host, ns, as  string
		groups, extra []string
		token         string
	}{
		{args: []string{"--kubeconfig", file}, host: "https://file.example:6443", ns: "ns", token: "t"},
		{args: []string{"--kubeconfig", file, "-s", "https://flag.example", "-n", "other", "--token", "x"},
			host: "https://flag.example", ns: "other", token: "x"},
		{args: []string{"--kubeconfig", file, "--namespace=third", "--as", "alice", "--as-group", "a", "--as-group", "b",
			"--as-user-extra", "scopes=one", "--as-user-extra", "scopes=two", "--as-user-extra", "noequals"},
			host: "https://file.example:6443", ns: "third", as: "alice", groups: []string{"a", "b"}, extra: []string{"one", "two"}, token: "t"},
	} {
		k := newKubeConfig()
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		k.addFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		cfg, err := k.restConfig()
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		ns, _, err := k.loader().Namespace()
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if cfg.Host != tc.host || ns != tc.ns || cfg.BearerToken != tc.token || cfg.Impersonate.UserName != tc.as ||
			!slices.Equal(cfg.Impersonate.Groups, tc.groups) || !slices.Equal(cfg.Impersonate.Extra["scopes"], tc.extra) ||
			len(cfg.Impersonate.Extra) > 1 {
			t.Errorf("%v: host %q, namespace %q, token %q, impersonate %+v", tc.args, cfg.Host, ns, cfg.BearerToken, cfg.Impersonate)
		}
	}
}
