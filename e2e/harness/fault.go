//go:build e2e

package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// FaultsEnv is the variable that lets the fault tests run (E2E_FAULTS=1): they kill and stop
// the cluster's one API server, which every other test uses, so e2e/run.sh runs them alone,
// one at a time, after the others.
const FaultsEnv = "E2E_FAULTS"

// FaultsAllowed reports whether the fault tests may run.
func FaultsAllowed() bool { return os.Getenv(FaultsEnv) != "" }

// others is what another end-to-end run looks like in the process list: a test binary of this
// package or of the harness, `go test -tags e2e`, or the figures program.
var others = []string{"e2e.test", "harness.test", "go test -tags e2e", "go run -tags e2e", "/exe/truth"}

// WaitAlone waits, up to limit, until no other end-to-end run is in the process list: only this
// test binary and its ancestors (go test, run.sh). A fault must not hit someone else's test.
func WaitAlone(ctx context.Context, limit time.Duration, logf func(string, ...any)) error {
	deadline := time.Now().Add(limit)
	said := false
	for {
		busy, err := otherRuns()
		if err != nil {
			return err
		}
		if len(busy) == 0 {
			return nil
		}
		if !said {
			logf("waiting for other end-to-end runs to end before a fault:\n%s", strings.Join(busy, "\n"))
			said = true
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("other end-to-end runs still going after %s; no fault injected:\n%s", limit, strings.Join(busy, "\n"))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

// otherRuns lists the processes (PID and command line) of other end-to-end runs.
func otherRuns() ([]string, error) {
	mine := map[int]bool{}
	for pid := os.Getpid(); pid > 1 && !mine[pid]; pid = parentOf(pid) {
		mine[pid] = true
	}
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var busy []string
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || mine[pid] {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil || len(b) == 0 {
			continue
		}
		cmd := strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
		for _, o := range others {
			if strings.Contains(cmd, o) {
				busy = append(busy, fmt.Sprintf("%d %s", pid, cmd))
				break
			}
		}
	}
	return busy, nil
}

// parentOf is the parent of pid, or 0.
func parentOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	f := strings.Fields(s) // state, ppid, ...
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// Outage is one fault of the API server, as this machine's clock saw it: from just before the
// signal to when the server answered /readyz again (a restart), or was continued (a pause).
type Outage struct {
	From, To time.Time
	Output   string // what apiserver.sh said
}

// RestartAPIServer kills the API server with signal (KILL or TERM), keeps it down for down, and
// starts it again with the same flags (e2e/cluster/apiserver.sh restart), once no other
// end-to-end run is going. It returns when the server answers again.
func (e *Env) RestartAPIServer(ctx context.Context, signal string, down time.Duration, logf func(string, ...any)) (Outage, error) {
	return e.fault(ctx, logf, "restart", "--signal", signal, "--down", seconds(down))
}

// PauseAPIServer stops the API server with SIGSTOP for d, then continues it
// (e2e/cluster/apiserver.sh pause), once no other end-to-end run is going.
func (e *Env) PauseAPIServer(ctx context.Context, d time.Duration, logf func(string, ...any)) (Outage, error) {
	return e.fault(ctx, logf, "pause", seconds(d))
}

// EnsureAPIServer continues the API server if it is stopped, starts it if it is gone, and waits
// until it answers: the fault tests' cleanup.
func (e *Env) EnsureAPIServer() error {
	_, err := e.apiserver(context.Background(), "ensure")
	return err
}

func (e *Env) fault(ctx context.Context, logf func(string, ...any), args ...string) (Outage, error) {
	if err := WaitAlone(ctx, 10*time.Minute, logf); err != nil {
		return Outage{}, err
	}
	o := Outage{From: time.Now()}
	out, err := e.apiserver(ctx, args...)
	o.To, o.Output = time.Now(), out
	if err != nil {
		return o, err
	}
	logf("%s (%s): %s", strings.Join(args, " "), o.To.Sub(o.From).Round(10*time.Millisecond), strings.TrimSpace(out))
	return o, nil
}

// apiserver runs e2e/cluster/apiserver.sh. It is not cancelled with ctx: killed half-way, the
// script could not restore the server; it bounds its own waits.
func (e *Env) apiserver(_ context.Context, args ...string) (string, error) {
	cmd := exec.Command(filepath.Join(e.scripts, "apiserver.sh"), args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("apiserver.sh %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return out.String(), nil
}

// seconds is d for a shell's sleep, e.g. 2.5.
func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }

// ErrNoFaults is why a fault test skips without FaultsEnv.
var ErrNoFaults = errors.New(FaultsEnv + " is not set: the fault tests stop the shared API server, so e2e/run.sh runs them alone after the others")

// TruthNow is what the collector has read so far, while the scenario runs.
func (r *Run) TruthNow() *Truth { return r.logs.Truth() }

// KubectlStdin runs kubectl with stdin, e.g. apply -f -.
func (e *Env) KubectlStdin(ctx context.Context, stdin []byte, args ...string) (string, error) {
	return e.run(ctx, time.Minute, stdin, args...)
}

// WaitSchedules waits until the scheduler places a new pod, and deletes it. After the API
// server's outages, the scheduler's watches back off (client-go's reflector, doubling up to 30 s,
// and a list the restarting server refused as forbidden counts as a failure): on 2026-12-05 the
// pod of the test after the kill test waited over a minute to be scheduled, and the next one
// 30 s. A fault test leaves the cluster only once it schedules again; it says how long that took.
func (e *Env) WaitSchedules(ctx context.Context, limit time.Duration) (time.Duration, error) {
	start := time.Now()
	name := fmt.Sprintf("schedules-%d", start.UnixNano())
	pod := fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":%q,"namespace":"default"},`+
		`"spec":{"restartPolicy":"Never","terminationGracePeriodSeconds":0,`+
		`"containers":[{"name":"c","image":"docker.io/library/busybox:1.35","command":["true"]}]}}`, name)
	var err error
	for time.Since(start) < limit {
		// The server answers /readyz before every part of it does: try again for a while.
		if _, err = e.KubectlStdin(ctx, []byte(pod), "create", "-f", "-"); err == nil {
			break
		}
		time.Sleep(time.Second)
	}
	if err != nil {
		return time.Since(start), err
	}
	defer e.run(context.WithoutCancel(ctx), time.Minute, nil, "delete", "pod", "-n", "default", name, "--wait=false")
	left := max(limit-time.Since(start), time.Second)
	_, err = e.run(ctx, left+10*time.Second, nil, "wait", "-n", "default", "--for=condition=PodScheduled",
		"pod/"+name, "--timeout="+seconds(left.Round(time.Second))+"s")
	return time.Since(start), err
}
