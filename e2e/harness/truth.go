//go:build e2e

package harness

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// PollInterval is how often the collector reads the pod log files. The kubelet removes a pod's
// log directory soon (~1-5 s) after the pod is gone from the API, so it must be read while the
// pod runs.
const PollInterval = 100 * time.Millisecond

// Line is one line a container wrote, as the container runtime logged it: stamped with the
// runtime's clock (this machine's), in nanoseconds, when the runtime read it from the pipe.
type Line struct {
	At     time.Time
	Stream string // stdout or stderr
	Text   string
}

// RunKey names one run of one container: restart n of a container writes <container>/<n>.log.
type RunKey struct {
	Pod       string
	UID       string
	Container string
	Restart   int
}

// Truth is every line the scenario's containers wrote, per run, and what the node knows of
// each run to the nanosecond.
type Truth struct {
	Runs    map[RunKey][]Line
	Runtime map[RunKey]RuntimeRun
}

// Collector polls the CRI log files of the pods in a namespace whose names start with a
// prefix, and keeps every line.
type Collector struct {
	dir    string // the kubelet's /var/log/pods
	prefix string // "<ns>_<pod name prefix>"
	stop   chan struct{}
	done   chan struct{}

	// kubelet is the kubelet's log file, read from kubeletFrom on when the collector stops.
	kubelet     string
	kubeletFrom int64

	mu      sync.Mutex
	runs    map[RunKey][]Line
	runtime map[RunKey]RuntimeRun
	err     error // the last read error other than a vanished file, for the report
	polls   int
}

// collectLogs starts a collector for the pods of ns whose name starts with podPrefix; kubelet
// is the kubelet's log file, whose kill lines from now on it files under the runs they stopped.
func collectLogs(podLogs, kubelet, ns, podPrefix string) *Collector {
	c := &Collector{dir: podLogs, prefix: ns + "_" + podPrefix, stop: make(chan struct{}),
		done: make(chan struct{}), runs: map[RunKey][]Line{}, runtime: map[RunKey]RuntimeRun{},
		kubelet: kubelet, kubeletFrom: fileSize(kubelet)}
	go c.loop()
	return c
}

func (c *Collector) loop() {
	defer close(c.done)
	t := time.NewTicker(PollInterval)
	defer t.Stop()
	for {
		c.poll()
		select {
		case <-c.stop:
			c.poll()
			if kills, err := kubeletKills(c.kubelet, c.kubeletFrom, time.Now()); err != nil {
				c.setErr(fmt.Errorf("the kubelet's log: %w", err))
			} else {
				c.addKills(kills)
			}
			return
		case <-t.C:
		}
	}
}

// Stop polls one last time, stops, and returns what was collected. It may be called again.
func (c *Collector) Stop() *Truth {
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
	<-c.done
	return c.Truth()
}

// Truth is a copy of what has been collected so far.
func (c *Collector) Truth() *Truth {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &Truth{Runs: map[RunKey][]Line{}, Runtime: map[RunKey]RuntimeRun{}}
	for k, v := range c.runs {
		t.Runs[k] = append([]Line(nil), v...)
	}
	for k, v := range c.runtime {
		t.Runtime[k] = v
	}
	return t
}

// poll reads every matching log file whole; a file only grows, so the longer reading wins.
func (c *Collector) poll() {
	pods, err := os.ReadDir(c.dir)
	if err != nil {
		c.setErr(err)
		return
	}
	for _, p := range pods {
		if !strings.HasPrefix(p.Name(), c.prefix) {
			continue
		}
		parts := strings.Split(p.Name(), "_") // <ns>_<pod>_<uid>
		if len(parts) != 3 {
			continue
		}
		podDir := filepath.Join(c.dir, p.Name())
		containers, err := os.ReadDir(podDir)
		if err != nil {
			continue // removed meanwhile
		}
		for _, ct := range containers {
			files, err := os.ReadDir(filepath.Join(podDir, ct.Name()))
			if err != nil {
				continue
			}
			for _, f := range files {
				n, ok := strings.CutSuffix(f.Name(), ".log")
				restart, err := strconv.Atoi(n)
				if !ok || err != nil {
					continue
				}
				b, err := os.ReadFile(filepath.Join(podDir, ct.Name(), f.Name()))
				if err != nil {
					continue
				}
				lines, err := parseCRILog(b)
				if err != nil {
					c.setErr(fmt.Errorf("%s/%s/%s: %w", p.Name(), ct.Name(), f.Name(), err))
				}
				c.keep(RunKey{Pod: parts[1], UID: parts[2], Container: ct.Name(), Restart: restart}, lines)
			}
		}
	}
	c.pollRuntime()
	c.mu.Lock()
	c.polls++
	c.mu.Unlock()
}

func (c *Collector) keep(k RunKey, lines []Line) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(lines) >= len(c.runs[k]) {
		c.runs[k] = lines
	}
}

func (c *Collector) setErr(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.err = err
}

// parseCRILog reads the CRI log format, one line per write:
//
//	2026-12-02T08:35:11.558577930Z stdout F app got TERM
//
// The tag is F for a full line, P for part of a longer one (joined to what follows). A last
// line without its newline is still being written and is left for the next poll.
func parseCRILog(b []byte) ([]Line, error) {
	var out []Line
	var partial *Line
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		raw := string(b[:i])
		b = b[i+1:]
		f := strings.SplitN(raw, " ", 4)
		if len(f) < 3 {
			return out, fmt.Errorf("malformed line %q", raw)
		}
		at, err := time.Parse(time.RFC3339Nano, f[0])
		if err != nil {
			return out, fmt.Errorf("malformed time in %q: %w", raw, err)
		}
		text := ""
		if len(f) == 4 {
			text = f[3]
		}
		if partial != nil {
			partial.Text += text
		} else {
			partial = &Line{At: at, Stream: f[1], Text: text}
		}
		if f[2] == "P" {
			continue
		}
		out = append(out, *partial)
		partial = nil
	}
	return out, nil
}

// Find is the first line of a container's run (restart n) whose text is text, in any of the
// collected pods; ok is false when there is none.
func (t *Truth) Find(container string, restart int, text string) (Line, bool) {
	for _, k := range t.keys() {
		if k.Container != container || k.Restart != restart {
			continue
		}
		for _, l := range t.Runs[k] {
			if l.Text == text {
				return l, true
			}
		}
	}
	return Line{}, false
}

// Restarts are the runs of a container that wrote a log file, in order.
func (t *Truth) Restarts(container string) []int {
	var out []int
	for _, k := range t.keys() {
		if k.Container == container {
			out = append(out, k.Restart)
		}
	}
	return out
}

// keys are the runs in a fixed order: pod, container, restart.
func (t *Truth) keys() []RunKey { return sortedKeys(t.Runs) }

// sortedKeys are a map's runs in a fixed order: pod, container, restart.
func sortedKeys[V any](m map[RunKey]V) []RunKey {
	keys := make([]RunKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.Pod+a.UID != b.Pod+b.UID {
			return a.Pod+a.UID < b.Pod+b.UID
		}
		if a.Container != b.Container {
			return a.Container < b.Container
		}
		return a.Restart < b.Restart
	})
	return keys
}

// Dump writes every line, run by run, in the CRI log format.
func (t *Truth) Dump(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, k := range t.keys() {
		fmt.Fprintf(bw, "== pod %s (uid %s) container %s restart %d\n", k.Pod, k.UID, k.Container, k.Restart)
		if r, ok := t.Runtime[k]; ok {
			fmt.Fprintf(bw, "# containerd %s: created %s started %s finished %s exit %d; kubelet kill line %s\n", r.ID,
				stamp(r.Created), stamp(r.Started), stamp(r.Finished), r.ExitCode, stamp(r.Kill))
		}
		for _, l := range t.Runs[k] {
			fmt.Fprintf(bw, "%s %s %s\n", l.At.UTC().Format(time.RFC3339Nano), l.Stream, l.Text)
		}
	}
	return bw.Flush()
}

// String sums up the collector's work, for error messages.
func (c *Collector) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := fmt.Sprintf("%d polls of %s/%s*, %d container runs seen (%d in containerd)", c.polls, c.dir, c.prefix,
		len(c.runs), len(c.runtime))
	if c.err != nil {
		s += "; last error: " + c.err.Error()
	}
	return s
}

// stamp prints a time as the logs do, or "-" for none.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339Nano)
}
