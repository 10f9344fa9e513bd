//go:build e2e

package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// watchingLine starts the line sidecar-top prints on standard error (when standard output is not
// a terminal) once its informers run: from then on nothing the cluster does is missed.
const watchingLine = "sidecar-top: watching "

// Timeline is what `sidecar-top replay FILE -o json` prints: the final timeline and what it is of.
type Timeline = timeline.Document

// Record is a running `sidecar-top record` subprocess.
type Record struct {
	Path   string   // the recording file
	Args   []string // the command line after the binary
	cmd    *exec.Cmd
	stdout syncBuffer
	stderr syncBuffer
	done   chan struct{} // closed when the process has exited
	code   int           // its exit status, once done
	// Ended is when the recorder exited.
	Ended   time.Time
	waitErr error
}

// startRecord runs `sidecar-top record -n NS TARGET --output-file PATH ARGS...` and returns once it says it
// is watching. Its standard output is a pipe, so it prints plain lines, not the terminal view.
func (e *Env) startRecord(ctx context.Context, ns, target, path string, args ...string) (*Record, error) {
	r := &Record{Path: path, done: make(chan struct{})}
	r.Args = append([]string{"record", "--kubeconfig", e.Kubeconfig, "-n", ns, target, "--output-file", path}, args...)
	r.cmd = exec.Command(e.Binary, r.Args...)
	r.cmd.Stdout = &r.stdout
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := r.cmd.Start(); err != nil {
		return nil, err
	}
	watching := make(chan struct{})
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stderr)
		once := sync.Once{}
		for sc.Scan() {
			r.stderr.Write(append(sc.Bytes(), '\n'))
			if strings.HasPrefix(sc.Text(), watchingLine) {
				once.Do(func() { close(watching) })
			}
		}
	}()
	go func() {
		<-copied // Wait closes the pipe: read it to the end first
		r.waitErr = r.cmd.Wait()
		r.code = r.cmd.ProcessState.ExitCode()
		r.Ended = time.Now()
		close(r.done)
	}()
	select {
	case <-watching:
		return r, nil
	case <-r.done:
		return nil, fmt.Errorf("sidecar-top %s exited (status %d) before watching: %s",
			strings.Join(r.Args, " "), r.code, strings.TrimSpace(r.stderr.String()))
	case <-time.After(30 * time.Second):
		r.Kill()
		return nil, fmt.Errorf("sidecar-top %s did not say it was watching within 30s: %s",
			strings.Join(r.Args, " "), strings.TrimSpace(r.stderr.String()))
	case <-ctx.Done():
		r.Kill()
		return nil, ctx.Err()
	}
}

// Wait waits up to limit for the recorder to exit by itself and returns its exit status. Past
// the limit it interrupts it (Ctrl-C, so that the recording is closed properly) and fails.
func (r *Record) Wait(limit time.Duration) (int, error) {
	select {
	case <-r.done:
		var exit *exec.ExitError
		if r.waitErr != nil && !errors.As(r.waitErr, &exit) {
			return r.code, r.waitErr
		}
		return r.code, nil
	case <-time.After(limit):
		_ = r.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-r.done:
		case <-time.After(5 * time.Second):
			r.Kill()
		}
		return r.code, fmt.Errorf("sidecar-top record did not stop within %s (its --until never held?); interrupted it", limit)
	}
}

// Kill stops the recorder if it still runs.
func (r *Record) Kill() {
	select {
	case <-r.done:
	default:
		_ = r.cmd.Process.Kill()
		<-r.done
	}
}

// Stdout and Stderr are what the recorder printed.
func (r *Record) Stdout() string { return r.stdout.String() }
func (r *Record) Stderr() string { return r.stderr.String() }

// replay runs `sidecar-top replay FILE -o json` and decodes the timeline; it also returns the
// JSON as printed.
func (e *Env) replay(ctx context.Context, path string) (*Timeline, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.Binary, "replay", path, "-o", "json")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, nil, fmt.Errorf("sidecar-top replay %s -o json: %w: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	var tl Timeline
	if err := json.Unmarshal(stdout.Bytes(), &tl); err != nil {
		return nil, stdout.Bytes(), fmt.Errorf("decode the replay JSON: %w", err)
	}
	if tl.Kind != "SidecarTopTimeline" || tl.Version != 1 {
		return &tl, stdout.Bytes(), fmt.Errorf("replay JSON is kind %q version %d, want SidecarTopTimeline version 1", tl.Kind, tl.Version)
	}
	return &tl, stdout.Bytes(), nil
}

// syncBuffer is a bytes.Buffer safe for one writer and concurrent readers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
