//go:build e2e

package harness

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// FailureDir is where the evidence of a failed scenario is kept: the recording, the replay JSON,
// the container logs and what the recorder printed.
const FailureDir = "/tmp/e2e-failures"

// Run is one scenario in its own namespace: the log collector, the recorder, and at the end the
// replayed timeline and the ground truth.
type Run struct {
	Env       *Env
	Name      string // the scenario, e.g. start-order
	Namespace string
	Dir       string // holds the recording

	Record *Record
	// Timeline is the recording replayed without its log items: what the API alone tells.
	Timeline *Timeline
	JSON     []byte // its replay's JSON, as printed
	// WithLogs is the recording replayed whole: with the containers' log lines (and marks) and
	// the kubelet's kill lines, where the recorder read them.
	WithLogs     *Timeline
	WithLogsJSON []byte
	LogItems     int // the recording's log items (ContainerLog and KubeletLog)
	Truth        *Truth

	// Deletion is when this machine's clock read just before and just after `kubectl delete`
	// returned: the deletion request reached the API server in between.
	Deletion [2]time.Time
	// Acts are when this machine's clock read just before and just after the scenario did what
	// else it names (set a readiness gate's condition, ran kubectl debug).
	Acts map[string][2]time.Time

	logs *Collector
}

// NewRun creates a fresh namespace e2e-NAME-XXXX and starts collecting the logs of its pods
// whose name starts with podPrefix. Close it when done.
func (e *Env) NewRun(ctx context.Context, name, podPrefix string) (*Run, error) {
	suffix := make([]byte, 3)
	_, _ = rand.Read(suffix)
	r := &Run{Env: e, Name: name, Namespace: "e2e-" + name + "-" + hex.EncodeToString(suffix)}
	dir, err := os.MkdirTemp("", "sidecar-top-e2e-"+name+"-")
	if err != nil {
		return nil, err
	}
	r.Dir = dir
	if err := e.createNamespace(ctx, r.Namespace); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	r.logs = collectLogs(e.PodLogs, e.kubeletLog(), r.Namespace, podPrefix)
	return r, nil
}

// Kubectl runs kubectl in the run's namespace.
func (r *Run) Kubectl(ctx context.Context, args ...string) (string, error) {
	return r.Env.Kubectl(ctx, append([]string{"-n", r.Namespace}, args...)...)
}

// Apply applies e2e/manifests/NAME.yaml in the run's namespace.
func (r *Run) Apply(ctx context.Context, manifest string) error {
	b, err := r.Env.Manifest(manifest)
	if err != nil {
		return err
	}
	_, err = r.Env.run(ctx, time.Minute, b, "-n", r.Namespace, "apply", "-f", "-")
	return err
}

// StartRecord starts `sidecar-top record -n NS TARGET -o FILE ARGS...` (e.g. --until deleted
// --timeout 90s) and returns once it watches, before anything is applied.
func (r *Run) StartRecord(ctx context.Context, target string, args ...string) error {
	if r.Record != nil {
		return errors.New("one recorder per run")
	}
	rec, err := r.Env.startRecord(ctx, r.Namespace, target, filepath.Join(r.Dir, r.Name+".jsonl"), args...)
	if err != nil {
		return err
	}
	r.Record = rec
	return nil
}

// WaitReady waits until pod NAME's Ready condition is True.
func (r *Run) WaitReady(ctx context.Context, pod string, limit time.Duration) error {
	_, err := r.Env.run(ctx, limit+5*time.Second, nil, "-n", r.Namespace, "wait", "--for=condition=Ready",
		"pod/"+pod, "--timeout="+limit.String())
	return err
}

// Delete deletes pod NAME without waiting, noting when.
func (r *Run) Delete(ctx context.Context, pod string) error {
	r.Deletion[0] = time.Now()
	_, err := r.Kubectl(ctx, "delete", "pod", pod, "--wait=false")
	r.Deletion[1] = time.Now()
	return err
}

// Finish waits for the recorder to exit with status want (0, or 2 when its --timeout passed
// before its --until held), stops the collector and replays the recording. The truth and the
// recording are kept even when it fails, for Save.
func (r *Run) Finish(ctx context.Context, want int, limit time.Duration) error {
	if r.Record == nil {
		return errors.New("no recorder was started")
	}
	code, err := r.Record.Wait(limit)
	r.Truth = r.logs.Stop()
	if err != nil {
		return err
	}
	if code != want {
		return fmt.Errorf("sidecar-top record exited with status %d, want %d; stderr:\n%s", code, want, r.Record.Stderr())
	}
	api := apiOnlyPath(r.Record.Path)
	if r.LogItems, err = withoutLogs(r.Record.Path, api); err != nil {
		return fmt.Errorf("the recording without its logs: %w", err)
	}
	if r.Timeline, r.JSON, err = r.Env.replay(ctx, api); err != nil {
		return err
	}
	if r.WithLogs, r.WithLogsJSON, err = r.Env.replay(ctx, r.Record.Path); err != nil {
		return fmt.Errorf("with logs: %w", err)
	}
	if len(r.Truth.Runs) == 0 {
		return fmt.Errorf("no container log collected (%s)", r.logs)
	}
	return nil
}

// Logs describes the collector, for error messages.
func (r *Run) Logs() string { return r.logs.String() }

// Save copies the evidence into dir/<namespace>: the recording, the replay JSON, every
// container log line with its runtime time, and what the recorder printed. It returns the
// directory.
func (r *Run) Save(dir string) (string, error) {
	dst := filepath.Join(dir, r.Namespace)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return "", err
	}
	var errs []error
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
			errs = append(errs, err)
		}
	}
	if r.Record != nil {
		if b, err := os.ReadFile(r.Record.Path); err == nil {
			write(filepath.Base(r.Record.Path), b)
		}
		write("record.stdout", []byte(r.Record.Stdout()))
		write("record.stderr", []byte("sidecar-top "+strings.Join(r.Record.Args, " ")+"\n"+r.Record.Stderr()))
	}
	if r.JSON != nil {
		write("replay.json", r.JSON)
	}
	if r.WithLogsJSON != nil {
		write("replay-logs.json", r.WithLogsJSON)
	}
	truth := r.Truth
	if truth == nil {
		truth = r.logs.Truth()
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "# container logs (CRI log files, runtime clock); %s\n", r.logs)
	if !r.Deletion[0].IsZero() {
		fmt.Fprintf(&sb, "# kubectl delete between %s and %s\n", r.Deletion[0].UTC().Format(time.RFC3339Nano),
			r.Deletion[1].UTC().Format(time.RFC3339Nano))
	}
	_ = truth.Dump(&sb)
	write("container-logs.txt", []byte(sb.String()))
	return dst, errors.Join(errs...)
}

// Close stops the recorder and the collector, deletes the namespace and the recording.
func (r *Run) Close() error {
	if r.Record != nil {
		r.Record.Kill()
	}
	r.logs.Stop()
	err := r.Env.deleteNamespace(r.Namespace)
	os.RemoveAll(r.Dir)
	return err
}
