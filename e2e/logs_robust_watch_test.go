//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
)

// What the log robustness tests (logs_robust_test.go) watch beside the recorder: its peak
// memory, read from /proc as it runs, and the rotation of a container's log on the node.

// rssWatch samples a recorder's peak resident set (VmHWM) while it runs.
type rssWatch struct {
	done chan struct{}
	pid  int
	peak int64 // bytes, the last reading
	err  error
}

// watchRSS finds the recorder's process (the binary, writing to rec.Path) and reads its VmHWM
// every 200 ms until it exits.
func watchRSS(rec *harness.Record) *rssWatch {
	w := &rssWatch{done: make(chan struct{})}
	go func() {
		defer close(w.done)
		if w.pid, w.err = findProcess(env.Binary, rec.Path); w.err != nil {
			return
		}
		for {
			hwm, err := vmHWM(w.pid)
			if err != nil {
				return // it exited
			}
			w.peak = hwm
			time.Sleep(200 * time.Millisecond)
		}
	}()
	return w
}

// Peak waits until the recorder has exited and returns the last reading of its peak RSS.
func (w *rssWatch) Peak() (int64, error) {
	<-w.done
	if w.err == nil && w.peak == 0 {
		w.err = fmt.Errorf("process %d exited before its memory was read", w.pid)
	}
	return w.peak, w.err
}

// findProcess is the process running binary with arg among its arguments.
func findProcess(binary, arg string) (int, error) {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(string(bytes.TrimRight(b, "\x00")), "\x00")
		if len(args) > 1 && args[0] == binary && slices.Contains(args, arg) {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("no process %s with argument %s", binary, arg)
}

// vmHWM is a process's peak resident set size, in bytes.
func vmHWM(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no VmHWM", pid)
}

// checkPeakRSS reports the recorder's peak memory and holds it to maxRecorderRSS.
func checkPeakRSS(t *testing.T, w *rssWatch) {
	t.Helper()
	peak, err := w.Peak()
	if err != nil {
		t.Errorf("the recorder's peak memory: %v", err)
		return
	}
	t.Logf("the recorder's peak resident memory (VmHWM): %.1f MiB", float64(peak)/(1<<20))
	if peak > maxRecorderRSS {
		t.Errorf("the recorder's peak resident memory is %.1f MiB, over %d MiB", float64(peak)/(1<<20), maxRecorderRSS>>20)
	}
}

// rotation is what watchRotation saw: the rotated files of a container's log, and the largest
// size of its live file.
type rotation struct {
	files   []string
	maxSize int64
}

// rotationWatch polls a container's log directory while it runs.
type rotationWatch struct {
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	seen   rotation
}

// watchRotation notes, four times a second, the files of the container's log directory on the
// node other than its live 0.log (the kubelet renames 0.log to 0.log.<time> when it rotates it,
// and compresses the older ones through a .tmp file) and the live file's size.
func watchRotation(ctx context.Context, ns, pod, container string) *rotationWatch {
	ctx, cancel := context.WithCancel(ctx)
	w := &rotationWatch{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			w.poll(ns+"_"+pod+"_", container)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return w
}

func (w *rotationWatch) poll(prefix, container string) {
	pods, _ := os.ReadDir(env.PodLogs)
	for _, p := range pods {
		if !strings.HasPrefix(p.Name(), prefix) {
			continue
		}
		dir := filepath.Join(env.PodLogs, p.Name(), container)
		files, _ := os.ReadDir(dir)
		w.mu.Lock()
		for _, f := range files {
			if f.Name() == "0.log" {
				if fi, err := f.Info(); err == nil {
					w.seen.maxSize = max(w.seen.maxSize, fi.Size())
				}
				continue
			}
			name := strings.TrimSuffix(strings.TrimSuffix(f.Name(), ".tmp"), ".gz") // compressed, or being so
			if !slices.Contains(w.seen.files, name) {
				w.seen.files = append(w.seen.files, name)
			}
		}
		w.mu.Unlock()
	}
}

// stop stops polling and returns what was seen.
func (w *rotationWatch) stop() rotation {
	w.cancel()
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen
}
