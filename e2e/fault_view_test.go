//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
)

// liveView is `sidecar-top -n NS TARGET`, the live view, on a terminal: a pseudo-terminal that
// script(1) makes, 120×30, whose output is kept.
type liveView struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  lockedBuffer
	done chan struct{}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startView starts the live view of target in r's namespace and waits until it has drawn it (its
// name is on the screen).
func startView(t *testing.T, r *harness.Run, target string) *liveView {
	t.Helper()
	return startViewOf(t, r, target, target[strings.Index(target, "/")+1:])
}

// startViewOf is startView of any target ("" for the namespace's table), drawn once name shows.
func startViewOf(t *testing.T, r *harness.Run, target, name string) *liveView {
	t.Helper()
	shell := fmt.Sprintf("stty rows 30 cols 120; exec %s --kubeconfig %s -n %s %s", env.Binary, env.Kubeconfig, r.Namespace, target)
	v := &liveView{cmd: exec.Command("script", "-qfec", shell, "/dev/null"), done: make(chan struct{})}
	v.cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	v.cmd.Stdout, v.cmd.Stderr = &v.out, &v.out
	in, err := v.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	v.in = in
	if err := v.cmd.Start(); err != nil {
		t.Fatalf("script: %v", err)
	}
	go func() { _ = v.cmd.Wait(); close(v.done) }()
	t.Cleanup(func() { v.kill() })
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(ansi.Strip(v.out.String()), name) {
		select {
		case <-v.done:
			t.Fatalf("the live view ended before drawing: %s", ansi.Strip(v.out.String()))
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the live view drew no pod within 20 s: %s", tail(ansi.Strip(v.out.String()), 2000))
		}
	}
	return v
}

// stop waits d, quits the view (q) and returns all it drew, escape sequences removed.
func (v *liveView) stop(t *testing.T, d time.Duration) string {
	t.Helper()
	time.Sleep(d)
	_, _ = v.in.Write([]byte("q"))
	select {
	case <-v.done:
	case <-time.After(10 * time.Second):
		t.Errorf("the live view did not quit on q within 10 s")
		v.kill()
	}
	return ansi.Strip(v.out.String())
}

func (v *liveView) kill() {
	select {
	case <-v.done:
	default:
		_ = v.cmd.Process.Kill()
		<-v.done
	}
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
