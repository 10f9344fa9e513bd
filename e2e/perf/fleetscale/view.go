//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/perf/perfproc"
)

// The terminal the views draw on.
const rows, cols = 50, 200

// viewPrograms are the fleet view and its peers: kubectl's watch of every pod and k9s's pods
// view of every namespace.
func viewPrograms(c config, s shape, l *level) []program {
	ps := []program{
		{name: "sidecar-top -A", start: func(n int) (running, error) { return startFleetView(c, s, l, n) }},
		{name: "kubectl get pods -A -w", start: func(n int) (running, error) { return startKubectl(c, l, n) }},
	}
	if c.k9s != "" {
		ps = append(ps, program{name: "k9s -A (pods)", start: func(n int) (running, error) { return startK9s(c, n) }})
	}
	return ps
}

// startFleetView runs `sidecar-top -A` on a terminal and waits for its first full table: the
// table's counts line says every pod of the cluster.
func startFleetView(c config, s shape, l *level, n int) (running, error) {
	if err := perfproc.Evict(c.bin); err != nil {
		return running{}, err
	}
	began := time.Now()
	t, err := perfproc.StartTerminal("sidecar-top -A", rows, cols, []string{"TERM=xterm-256color", "NO_COLOR=1"},
		c.bin, "--kubeconfig", c.kubeconfig, "-A")
	if err != nil {
		return running{}, err
	}
	at, err := t.WaitForCount(0, " pods ·", n, 2*time.Minute) // the cluster's other pods may come and go
	if err != nil {
		t.Stop()
		return running{}, err
	}
	r := running{proc: t.Proc, ready: at.Sub(began)}
	if n > 0 {
		r.during = func(ctx context.Context, m *measured) {
			m.keyFrames = keyFramesEvery(ctx, t, 10, 1500*time.Millisecond)
		}
	}
	return r, nil
}

// keyFramesEvery filters the table to the benchmark's namespaces, then presses N (sort by pod,
// each press reversing the order) times times, gap apart, while the churn runs, and times each press to the
// frame that answers it: the one whose POD title shows the new order's arrow. The rows are no
// sign of it: the cursor stays on its pod, and the page shown follows the cursor, so the first
// row drawn is not the first of the new order.
func keyFramesEvery(ctx context.Context, t *perfproc.Terminal, times int, gap time.Duration) []time.Duration {
	// Only the benchmark's pods: the cluster's others (other tests') would sort around them. Each
	// key is written on its own: a terminal's reader hands the program what one read gets, and
	// "/scale-\r" written at once came as one key of seven runes, which is no "/", and then an
	// enter, which opened the first pod instead.
	for _, k := range []string{"/", "scale-", "\r"} {
		if err := t.Keys(k); err != nil {
			return nil
		}
		time.Sleep(300 * time.Millisecond)
	}
	var took []time.Duration
	want := "POD↑" // the table opens sorted by finding: the first N sorts by pod, ascending
	for i := range times + 1 {
		from := t.Len()
		sent := time.Now()
		if err := t.Keys("N"); err != nil {
			return took
		}
		at, err := t.WaitFor(from, want, 10*time.Second)
		if err != nil {
			return took
		}
		if i > 0 { // the first changes the sort key, and remakes the table: not timed
			took = append(took, at.Sub(sent))
		}
		want = map[string]string{"POD↑": "POD↓", "POD↓": "POD↑"}[want]
		select {
		case <-ctx.Done():
			return took
		case <-time.After(gap):
		}
	}
	return took
}

// startKubectl runs `kubectl get pods -A -w` and waits until it has printed a line per pod.
func startKubectl(c config, l *level, n int) (running, error) {
	if err := perfproc.Evict(c.kubectl); err != nil {
		return running{}, err
	}
	out := outPath(c, "kubectl", n)
	began := time.Now()
	p, err := perfproc.Start("kubectl get pods -A -w", out, nil, c.kubectl, "--kubeconfig", c.kubeconfig, "get", "pods", "-A", "-w")
	if err != nil {
		return running{}, err
	}
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, _ := os.ReadFile(out)
		if bytes.Count(b, []byte("\n")) >= n+1 || n == 0 && time.Since(began) > time.Second { // at least the benchmark's pods
			return running{proc: p, ready: time.Since(began)}, nil
		}
	}
	p.Stop()
	return running{}, fmt.Errorf("kubectl printed fewer than %d pods in 2 minutes (see %s)", n, out)
}

// startK9s runs k9s's pods view of every namespace, read-only, on a terminal, with a
// configuration directory of its own. Its first full table is not timed: it is measured for
// memory and CPU.
func startK9s(c config, n int) (running, error) {
	if err := perfproc.Evict(c.k9s); err != nil {
		return running{}, err
	}
	home := filepath.Join(c.out, "k9s-home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return running{}, err
	}
	env := []string{"TERM=xterm-256color", "K9S_CONFIG_DIR=" + home, "XDG_CONFIG_HOME=" + home, "XDG_DATA_HOME=" + home,
		"XDG_STATE_HOME=" + home, "XDG_CACHE_HOME=" + home}
	t, err := perfproc.StartTerminal("k9s", rows, cols, env, c.k9s, "--kubeconfig", c.kubeconfig, "-A", "-c", "pods",
		"--readonly", "--logoless")
	if err != nil {
		return running{}, err
	}
	return running{proc: t.Proc}, nil
}
