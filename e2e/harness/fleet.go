//go:build e2e

package harness

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// HoldFinalizer is the finalizer a fleet manifest puts on a pod that must stay in the API,
// Terminating, after it is deleted; Fleet.Close removes it.
const HoldFinalizer = "e2e.sidecar-top.dev/hold"

// runPlaceholder is what a fleet manifest says where the run's ID goes (the e2e-fleet label).
const runPlaceholder = "FLEET_RUN"

// Fleet is the cluster side of TestFleet: a few namespaces fleet-ID-NAME whose pods are all
// labelled e2e-fleet=ID, and collectors of the runtime's log lines and container stamps of the
// pods whose truth the test reads, from before they are applied.
type Fleet struct {
	Env        *Env
	ID         string
	Namespaces map[string]string // by short name: "seed" → "fleet-1a2b3c-seed"
	// Deletions are, by pod name, when this machine's clock read just before and just after the
	// `kubectl delete` that deleted it returned.
	Deletions map[string][2]time.Time
	logs      []*Collector
}

// NewFleet creates a namespace fleet-ID-NAME for each name, with a fresh ID. Close it when done.
func (e *Env) NewFleet(ctx context.Context, names ...string) (*Fleet, error) {
	id := make([]byte, 3)
	_, _ = rand.Read(id)
	f := &Fleet{Env: e, ID: hex.EncodeToString(id), Namespaces: map[string]string{}, Deletions: map[string][2]time.Time{}}
	for _, n := range names {
		ns := "fleet-" + f.ID + "-" + n
		f.Namespaces[n] = ns
		if err := e.createNamespace(ctx, ns); err != nil {
			return f, err
		}
	}
	return f, nil
}

// Collect starts collecting the log lines of the pods of namespace NAME whose name starts with
// podPrefix: only those the test holds to the truth, for the collector reads every file of
// every pod it follows ten times a second.
func (f *Fleet) Collect(name, podPrefix string) {
	f.logs = append(f.logs, collectLogs(f.Env.PodLogs, f.Env.kubeletLog(), f.Namespaces[name], podPrefix))
}

// Selector is the label selector of the run's pods.
func (f *Fleet) Selector() string { return "e2e-fleet=" + f.ID }

// Kubectl runs kubectl in namespace NAME (a short name).
func (f *Fleet) Kubectl(ctx context.Context, name string, args ...string) (string, error) {
	return f.Env.Kubectl(ctx, append([]string{"-n", f.Namespaces[name]}, args...)...)
}

// Apply applies e2e/manifests/fleet-NAME.yaml, the run's ID put in for FLEET_RUN, in namespace NAME.
func (f *Fleet) Apply(ctx context.Context, name string) error {
	b, err := f.Env.Manifest("fleet-" + name)
	if err != nil {
		return err
	}
	if !strings.Contains(string(b), runPlaceholder) {
		return fmt.Errorf("manifest fleet-%s labels no pod e2e-fleet: %s", name, runPlaceholder)
	}
	b = []byte(strings.ReplaceAll(string(b), runPlaceholder, f.ID))
	_, err = f.Env.run(ctx, time.Minute, b, "-n", f.Namespaces[name], "apply", "-f", "-")
	return err
}

// Delete deletes pod POD of namespace NAME without waiting, noting when.
func (f *Fleet) Delete(ctx context.Context, name, pod string) error {
	before := time.Now()
	_, err := f.Kubectl(ctx, name, "delete", "pod", pod, "--wait=false")
	f.Deletions[pod] = [2]time.Time{before, time.Now()}
	return err
}

// Truth is what has been collected so far, of one pod (by name: the run's are unique).
func (f *Fleet) Truth(pod string) *Truth {
	t := &Truth{Runs: map[RunKey][]Line{}, Runtime: map[RunKey]RuntimeRun{}}
	for _, c := range f.logs {
		all := c.Truth()
		for k, v := range all.Runs {
			if k.Pod == pod {
				t.Runs[k] = v
			}
		}
		for k, v := range all.Runtime {
			if k.Pod == pod {
				t.Runtime[k] = v
			}
		}
	}
	return t
}

// GapOf is the truth of gap g of pod POD from its log lines (points, as a scenario's) and the
// runtime's stamps, exact or bounded on one side (Run.BoundsOfGap); a deletion is the pod's
// `kubectl delete` call.
func (f *Fleet) GapOf(pod string, g timeline.Gap, points []Point) (GapTruth, bool) {
	r := &Run{Truth: f.Truth(pod), Deletion: f.Deletions[pod]}
	return r.BoundsOfGap(g, points)
}

// Save writes every line collected, with its runtime stamp, to dir/container-logs.txt.
func (f *Fleet) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var sb strings.Builder
	for pod, d := range f.Deletions {
		fmt.Fprintf(&sb, "# kubectl delete pod %s between %s and %s\n", pod, stamp(d[0]), stamp(d[1]))
	}
	for _, c := range f.logs {
		fmt.Fprintf(&sb, "# container logs (CRI log files, runtime clock); %s\n", c)
		_ = c.Truth().Dump(&sb)
	}
	return os.WriteFile(filepath.Join(dir, "container-logs.txt"), []byte(sb.String()), 0o644)
}

// Close stops the collector, removes HoldFinalizer from the pods that have it (else their
// namespace would never go), deletes the namespaces and waits until they are gone: the fleet's
// ~50 pods being killed kept the kubelet seconds late for the timing scenarios that start
// after it, and their restarts and readiness were then missed.
func (f *Fleet) Close() error {
	for _, c := range f.logs {
		c.Stop()
	}
	var errs []error
	wait := []string{"wait", "--for=delete", "--timeout=4m"}
	for _, ns := range f.Namespaces {
		errs = append(errs, f.release(ns), f.Env.deleteNamespace(ns))
		wait = append(wait, "namespace/"+ns)
	}
	if _, err := f.Env.run(context.Background(), 5*time.Minute, nil, wait...); err != nil {
		errs = append(errs, fmt.Errorf("waiting for the fleet's namespaces to go: %w", err))
	}
	return errors.Join(errs...)
}

// release removes HoldFinalizer from every pod of ns that has it, keeping the others.
func (f *Fleet) release(ns string) error {
	ctx := context.Background()
	out, err := f.Env.run(ctx, 30*time.Second, nil, "-n", ns, "get", "pods", "-o", "json")
	if err != nil {
		return err
	}
	var list struct {
		Items []struct {
			Metadata struct {
				Name       string   `json:"name"`
				Finalizers []string `json:"finalizers"`
			} `json:"metadata"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		return err
	}
	var errs []error
	for _, p := range list.Items {
		fs := p.Metadata.Finalizers
		if !slices.Contains(fs, HoldFinalizer) {
			continue
		}
		patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{
			"finalizers": slices.DeleteFunc(slices.Clone(fs), func(s string) bool { return s == HoldFinalizer })}})
		_, err := f.Env.run(ctx, 30*time.Second, nil, "-n", ns, "patch", "pod", p.Metadata.Name, "--type=merge", "-p", string(patch))
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// SidecarToApp is the truth of the gap from a native sidecar's started (its first run) to the
// app's start (containerd's stamp of its first run). The started is bounded below only: by
// containerd's start of the sidecar (the kubelet sees a container started only once it runs)
// and, when startedLine is not "", by that line less Slack (the line is written once the file
// the startup probe tests exists, and the probe cannot pass before). ok is false when the
// collector saw no start of either.
func (f *Fleet) SidecarToApp(pod, sidecar, app, startedLine string) (GapTruth, bool) {
	t := f.Truth(pod)
	side, ok1 := t.RuntimeOf(sidecar, 0)
	a, ok2 := t.RuntimeOf(app, 0)
	if !ok1 || !ok2 || side.Started.IsZero() || a.Started.IsZero() {
		return GapTruth{}, false
	}
	lo := side.Started
	if startedLine != "" {
		l, ok := t.Find(sidecar, 0, startedLine)
		if !ok {
			return GapTruth{}, false
		}
		if at := l.At.Add(-Slack); at.After(lo) {
			lo = at
		}
	}
	return GapTruth{Lo: NoLo, Hi: a.Started.Sub(lo)}, true
}
