package main

import (
	"strings"

	"github.com/spf13/pflag"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// kubeConfig is kubectl's standard way to find and override the Kubernetes configuration: the
// --kubeconfig, --context, -n, -s, --token, --as, ... flags, $KUBECONFIG and ~/.kube/config,
// then the in-cluster configuration.
//
// It is client-go's clientcmd, bound to the flags as kubectl binds it, rather than cli-runtime's
// genericclioptions.ConfigFlags: that package also holds kubectl's resource builder, which links
// kustomize and through it Go's plugin package, and a program that links plugin exports all of
// its symbols to the dynamic linker. That made the binary map ~12 MB of symbol tables more and
// keep methods its code never calls, on every run (the resident size of `sidecar-top version`
// fell from 62 MB to 37 MB without it).
type kubeConfig struct {
	rules     *clientcmd.ClientConfigLoadingRules
	overrides *clientcmd.ConfigOverrides
	userExtra []string // --as-user-extra KEY=VALUE, repeated
	loaded    clientcmd.ClientConfig
}

func newKubeConfig() *kubeConfig {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.DefaultClientConfig = &clientcmd.DefaultClientConfig
	return &kubeConfig{rules: rules, overrides: &clientcmd.ConfigOverrides{ClusterDefaults: clientcmd.ClusterDefaults}}
}

// addFlags adds kubectl's flags for the configuration.
func (k *kubeConfig) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&k.rules.ExplicitPath, clientcmd.RecommendedConfigPathFlag, "", "Path to the kubeconfig file to use for CLI requests.")
	names := clientcmd.RecommendedConfigOverrideFlags("")
	names.ClusterOverrideFlags.APIServer.ShortName = "s" // as kubectl's -s
	// Basic authentication: the API server has not had it since Kubernetes 1.19, nor has kubectl
	// these flags on its commands that read.
	names.AuthOverrideFlags.Username.LongName, names.AuthOverrideFlags.Password.LongName = "", ""
	clientcmd.BindOverrideFlags(k.overrides, fs, names)
	fs.StringArrayVar(&k.userExtra, "as-user-extra", nil, "User extras to impersonate for the operation, this flag can be repeated to specify multiple values for the same key.")
}

// loader is the configuration the flags and files give; it reads the files once, when first
// asked, after the flags are parsed.
func (k *kubeConfig) loader() clientcmd.ClientConfig {
	if k.loaded == nil {
		for _, kv := range k.userExtra {
			key, value, ok := strings.Cut(kv, "=")
			if !ok {
				continue // as kubectl: a value without "=" says nothing
			}
			if k.overrides.AuthInfo.ImpersonateUserExtra == nil {
				k.overrides.AuthInfo.ImpersonateUserExtra = map[string][]string{}
			}
			k.overrides.AuthInfo.ImpersonateUserExtra[key] = append(k.overrides.AuthInfo.ImpersonateUserExtra[key], value)
		}
		k.loaded = clientcmd.NewNonInteractiveDeferredLoadingClientConfig(k.rules, k.overrides)
	}
	return k.loaded
}

// server is the API server named on the command line (-s), if any.
func (k *kubeConfig) server() string { return k.overrides.ClusterInfo.Server }

// restConfig is the client configuration.
func (k *kubeConfig) restConfig() (*rest.Config, error) { return k.loader().ClientConfig() }
