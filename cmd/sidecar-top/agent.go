package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/client-go/tools/clientcmd"
)

// agentOptions are the flags of `sidecar-top agent`.
type agentOptions struct {
	kube         kubeOptions // the kubectl flags but -n, which the agent repeats; -l; -A
	namespaces   []string    // -n, repeated
	metricsAddr  string
	otlpEndpoint string
	ownerNames   bool
	maxOwners    int
	leaderElect  bool
	leaseName    string
	leaseNS      string
	traceAfter   time.Duration
	keepFinished time.Duration
}

func newAgentCommand(s streams) *cobra.Command {
	o := &agentOptions{kube: kubeOptions{config: newConfigFlags()}}
	cmd := &cobra.Command{
		Use:   "agent [-A | -n NAMESPACE ...] [-l SELECTOR] [flags]",
		Short: "Watch every pod of a scope, all the time, and publish its gaps as Prometheus metrics and OTLP traces",
		Long: `agent runs headless (in a Deployment, or beside a kubeconfig) and watches the pods of every
namespace (-A), of the namespaces given (-n, repeated), or of the current one, narrowed by -l.
When a pod is final (its phase terminal and its containers exited, or deleted), the leader
observes each of its named gaps once in sidecar_top_gap_seconds, counts its findings and
restarts, and sends its trace over OTLP. It serves /metrics, /healthz and /readyz on
--metrics-addr and logs JSON to standard error. docs/agent.md lists the metrics.`,
		Example: `  sidecar-top agent -A --metrics-addr :9464
  sidecar-top agent -n shop -n batch --otlp-endpoint http://otel-collector:4318
  sidecar-top agent -A --leader-elect --lease-namespace sidecar-top`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runAgent(cmd.Context(), s, o)
		},
	}
	o.addFlags(cmd.Flags())
	return cmd
}

func (o *agentOptions) addFlags(fs *pflag.FlagSet) {
	cfg := o.kube.config
	fs.StringVar(&cfg.rules.ExplicitPath, clientcmd.RecommendedConfigPathFlag, "", "Path to the kubeconfig file to use for CLI requests.")
	names := clientcmd.RecommendedConfigOverrideFlags("")
	names.ClusterOverrideFlags.APIServer.ShortName = "s"
	names.AuthOverrideFlags.Username.LongName, names.AuthOverrideFlags.Password.LongName = "", ""
	names.ContextOverrideFlags.Namespace.LongName = "" // -n is the agent's own: repeatable
	clientcmd.BindOverrideFlags(cfg.overrides, fs, names)
	fs.StringArrayVar(&cfg.userExtra, "as-user-extra", nil, "User extras to impersonate for the operation, this flag can be repeated to specify multiple values for the same key.")
	fs.StringArrayVarP(&o.namespaces, "namespace", "n", nil, "watch this namespace's pods (repeat for more); default: the current namespace")
	fs.BoolVarP(&o.kube.all, "all-namespaces", "A", false, "watch the pods of every namespace")
	fs.StringVarP(&o.kube.selector, "selector", "l", "", "watch only the pods this label selector matches")
	fs.StringVar(&o.metricsAddr, "metrics-addr", ":9464", "where to serve /metrics, /healthz and /readyz")
	fs.StringVar(&o.otlpEndpoint, "otlp-endpoint", "", "send a trace per pod: http(s)://HOST:4318 for OTLP/HTTP, grpc://HOST:4317 (grpcs:// with TLS) for OTLP/gRPC; empty: no traces")
	fs.BoolVar(&o.ownerNames, "owner-names", true, "label metrics with the owning workload's name (false: the owner label is \"\")")
	fs.IntVar(&o.maxOwners, "max-owners", 1000, "distinct owner label values per namespace; later ones are \"other\"")
	fs.BoolVar(&o.leaderElect, "leader-elect", false, "elect a leader among replicas on a Lease: only the leader observes and sends")
	fs.StringVar(&o.leaseName, "lease-name", "sidecar-top-agent", "the Lease of --leader-elect")
	fs.StringVar(&o.leaseNS, "lease-namespace", "", "the Lease's namespace (default: $POD_NAMESPACE, else \"default\")")
	fs.DurationVar(&o.traceAfter, "trace-after", 15*time.Minute, "a pod not final this long after its creation has its trace cut and sent (0: never)")
	fs.DurationVar(&o.keepFinished, "keep-finished", time.Hour, "how long a final pod's timeline is kept for its late Events; then only its UID, until it is deleted")
}

// check refuses flags that cannot work, before anything connects.
func (o *agentOptions) check() error {
	switch {
	case o.kube.all && len(o.namespaces) > 0:
		return fmt.Errorf("-A watches every namespace: give it or -n, not both")
	case o.maxOwners < 1:
		return fmt.Errorf("--max-owners %d: want 1 or more", o.maxOwners)
	case o.traceAfter < 0:
		return fmt.Errorf("--trace-after %s: want 0 or more", o.traceAfter)
	case o.keepFinished < 0:
		return fmt.Errorf("--keep-finished %s: want 0 or more", o.keepFinished)
	case o.leaderElect && o.leaseName == "":
		return fmt.Errorf("--leader-elect needs a --lease-name")
	}
	for _, ns := range o.namespaces {
		if ns == "" {
			return fmt.Errorf("-n \"\": give a namespace's name, or -A for every namespace")
		}
	}
	return nil
}

// leaseNamespace is --lease-namespace, else $POD_NAMESPACE, else "default".
func (o *agentOptions) leaseNamespace() string {
	switch {
	case o.leaseNS != "":
		return o.leaseNS
	case os.Getenv("POD_NAMESPACE") != "":
		return os.Getenv("POD_NAMESPACE")
	}
	return "default"
}
