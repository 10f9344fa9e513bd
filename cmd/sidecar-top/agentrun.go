package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/agent"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/watch"
)

// runAgent runs `sidecar-top agent` until SIGTERM or Ctrl-C: it serves its endpoints first (so
// that /healthz answers while it connects), connects a watch per namespace, elects or leads,
// and plays the watches into the agent. At the end it gives up the Lease, flushes the traces
// and stops serving, and returns nil: a stop asked for is a success.
func runAgent(ctx context.Context, s streams, o *agentOptions) error {
	if err := o.check(); err != nil {
		return err
	}
	targets, err := o.targets()
	if err != nil {
		return err
	}
	log := agentLogger(s.ErrOut)
	traces, err := agent.NewTraces(ctx, o.otlpEndpoint, agent.TraceOptions{ExportedBy: "sidecar-top " + version})
	if err != nil {
		return err
	}
	client, host, err := o.kube.client()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.metricsAddr)
	if err != nil {
		return fmt.Errorf("--metrics-addr: %w", err)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	m := agent.NewMetrics(version)
	traces.Count(m)
	a := agent.New(agent.Config{OwnerNames: o.ownerNames, MaxOwners: o.maxOwners, TraceAfter: o.traceAfter,
		KeepFinished: o.keepFinished, Traces: traces, Log: log}, m)
	srv := &http.Server{Handler: agent.Handler(a), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("serving metrics", "error", err.Error())
		}
	}()
	log.Info("serving", "addr", ln.Addr().String(), "version", version)
	err = watchAgent(ctx, client, host, targets, o, a, log)
	flush, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if terr := traces.Shutdown(flush); terr != nil {
		log.Warn("traces not flushed", "error", terr.Error())
	}
	_ = srv.Shutdown(flush)
	log.Info("stopped")
	return err
}

// watchAgent connects the watches, runs the election (or leads), and plays the watches into the
// agent until ctx ends; then it waits for the election to give the Lease up.
func watchAgent(ctx context.Context, client kubernetes.Interface, host string, targets []watch.Target, o *agentOptions, a *agent.Agent, log *slog.Logger) error {
	var srcs []watch.Source
	for _, t := range targets {
		_, live, err := connectWith(ctx, client, t, host, watch.LiveOptions{}, nil)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		log.Info("watching", "scope", t.String())
		srcs = append(srcs, live)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	elected := make(chan error, 1)
	if o.leaderElect {
		e := agent.Election{Namespace: o.leaseNamespace(), Name: o.leaseName, Identity: identity()}
		go func() { elected <- agent.Elect(ctx, client, e, a) }()
	} else {
		a.SetLeader(true)
		elected <- nil
	}
	err := a.Run(ctx, agent.Merge(srcs...))
	cancel() // Run ends with ctx, or with an error: the election stops too, giving the Lease up
	if eerr := <-elected; err == nil {
		err = eerr
	}
	return err
}

// targets are the scopes to watch: every namespace, each -n, or the current namespace.
func (o *agentOptions) targets() ([]watch.Target, error) {
	if o.kube.all {
		t, err := watch.ParseScope(nil, o.kube.selector, "", true)
		return []watch.Target{t}, err
	}
	namespaces := o.namespaces
	if len(namespaces) == 0 {
		ns, _, err := o.kube.config.loader().Namespace()
		if err != nil {
			return nil, kubeconfigError(err)
		}
		namespaces = []string{ns}
	}
	var out []watch.Target
	seen := map[string]bool{}
	for _, ns := range namespaces {
		if seen[ns] {
			continue
		}
		seen[ns] = true
		t, err := watch.ParseScope(nil, o.kube.selector, ns, false)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// identity is this replica's name in the election: its pod's ($POD_NAME, else the host's),
// with a random suffix, so that a restarted replica is not taken for the one it replaces.
func identity() string {
	name := os.Getenv("POD_NAME")
	if name == "" {
		name, _ = os.Hostname()
	}
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return name + "_" + hex.EncodeToString(b)
}

// agentLogger logs JSON lines to w, every string made safe for a terminal first (names, notes
// and errors come from the cluster).
func agentLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Value.Kind() == slog.KindString {
				a.Value = slog.StringValue(present.Safe(a.Value.String()))
			}
			return a
		},
	}))
}
