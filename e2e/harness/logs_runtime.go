//go:build e2e

package harness

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// RuntimeRun is what the node knows of one container run to the nanosecond: containerd's own
// record of it (the CRI plugin's status file), whose StartedAt and FinishedAt are what the API's
// whole-second startedAt and finishedAt truncate, and the kubelet's log line that it stopped
// the run. It is the ground truth of a run's start and exit, and bounds its SIGTERM below.
type RuntimeRun struct {
	ID string // the container ID, without the runtime's prefix
	// Created, Started and Finished are containerd's stamps: Started once the runtime's start
	// call returned (the process runs by then, and may have written its first line already),
	// Finished when the shim reaped the process. Zero while not yet so, or never read.
	Created, Started, Finished time.Time
	ExitCode                   int32
	// Kill is when the kubelet logged that it has the runtime stop the run ("Killing container
	// with a grace period", at verbosity 2; microseconds), right before the runtime sends
	// SIGTERM. Zero when the kubelet did not stop it or does not log at that verbosity.
	Kill time.Time
}

// criRoot is where containerd's CRI plugin keeps a directory per container, with its status
// file, inside the node's mount namespace.
const criRoot = "var/lib/containerd/io.containerd.grpc.v1.cri/containers"

// criStatus is containerd's status file of a container (JSON, times in ns since the epoch).
type criStatus struct {
	CreatedAt, StartedAt, FinishedAt int64
	ExitCode                         int32
}

// pollRuntime reads containerd's status of every run of the collected pods. The kubelet links
// each run's log file from /var/log/containers/<pod>_<ns>_<container>-<ID>.log, which names the
// run's container ID; the status file is in containerd's directory of that ID. Both go away
// when the kubelet removes the container, so they are read while it exists, as the logs are.
func (c *Collector) pollRuntime() {
	root := c.nodeRoot()
	links, err := os.ReadDir(filepath.Join(root, "var", "log", "containers"))
	if err != nil {
		return
	}
	for _, l := range links {
		name, ok := strings.CutSuffix(l.Name(), ".log")
		i := strings.LastIndexByte(name, '-')
		if !ok || i < 0 {
			continue
		}
		id := name[i+1:]
		target, err := os.Readlink(filepath.Join(root, "var", "log", "containers", l.Name()))
		if err != nil {
			continue
		}
		key, ok := c.runOfLogFile(target)
		if !ok {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, criRoot, id, "status"))
		if err != nil {
			continue
		}
		var st criStatus
		if err := json.Unmarshal(b, &st); err != nil {
			c.setErr(fmt.Errorf("containerd status of %s: %w", id, err))
			continue
		}
		c.keepRuntime(key, RuntimeRun{ID: id, Created: nanos(st.CreatedAt), Started: nanos(st.StartedAt),
			Finished: nanos(st.FinishedAt), ExitCode: st.ExitCode})
	}
}

// runOfLogFile is the run whose CRI log file is path (/var/log/pods/<ns>_<pod>_<uid>/<c>/<n>.log),
// if it is one of the collected pods'.
func (c *Collector) runOfLogFile(path string) (RunKey, bool) {
	parts := strings.Split(strings.TrimPrefix(path, "/var/log/pods/"), "/")
	if len(parts) != 3 || !strings.HasPrefix(parts[0], c.prefix) {
		return RunKey{}, false
	}
	pod := strings.Split(parts[0], "_")
	n, ok := strings.CutSuffix(parts[2], ".log")
	restart, err := strconv.Atoi(n)
	if len(pod) != 3 || !ok || err != nil {
		return RunKey{}, false
	}
	return RunKey{Pod: pod[1], UID: pod[2], Container: parts[1], Restart: restart}, true
}

// nodeRoot is the node's root directory as the host sees it: c.dir is its /var/log/pods.
func (c *Collector) nodeRoot() string {
	return strings.TrimSuffix(filepath.Clean(c.dir), filepath.Join("var", "log", "pods"))
}

func nanos(n int64) time.Time {
	if n <= 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// keepRuntime files a reading of a run's status: a later reading knows as much or more.
func (c *Collector) keepRuntime(k RunKey, r RuntimeRun) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.runtime[k]
	if old.ID == r.ID && !old.Finished.IsZero() && r.Finished.IsZero() {
		return
	}
	r.Kill = old.Kill
	c.runtime[k] = r
}

// killLine is the kubelet's kill line in its klog text format, e.g.
//
//	I1202 17:30:01.123456    2399 kuberuntime_container.go:912] "Killing container with a grace period" pod="ns/p" ... containerID="containerd://ID" gracePeriod=30
var killLine = regexp.MustCompile(`^I(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{6}) .*"Killing container with a grace period" .*containerID="[a-z]+://([0-9a-f]+)"`)

// kubeletKills reads the kill lines the kubelet's log (the host's file) gained past offset:
// the container ID and the line's stamp (the kubelet's local time, this machine's).
func kubeletKills(path string, offset int64, now time.Time) (map[string]time.Time, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	out := map[string]time.Time{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "Killing container with a grace period\"") {
			continue
		}
		m := killLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
		at := time.Date(now.Year(), time.Month(n(1)), n(2), n(3), n(4), n(5), n(6)*1000, time.Local)
		if at.After(now.Add(24 * time.Hour)) {
			at = at.AddDate(-1, 0, 0) // a line of December read in January
		}
		if _, ok := out[m[7]]; !ok {
			out[m[7]] = at.UTC()
		}
	}
	return out, sc.Err()
}

// kubeletLog is the kubelet's log file on the host (e2e/cluster's start_bg writes it).
func (e *Env) kubeletLog() string {
	return filepath.Join(e2eDir(e.Root), "state", "logs", "kubelet.log")
}

// fileSize is the size of a file, or 0 when it cannot be read.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// addKills files the kubelet's kill lines under the runs they stopped.
func (c *Collector) addKills(kills map[string]time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, r := range c.runtime {
		if at, ok := kills[r.ID]; ok {
			r.Kill = at
			c.runtime[k] = r
		}
	}
}

// RuntimeOf is what the node knows of run restart of the container (in any of the collected
// pods); ok is false when the run was never seen.
func (t *Truth) RuntimeOf(container string, restart int) (RuntimeRun, bool) {
	for _, k := range sortedKeys(t.Runtime) {
		if k.Container == container && k.Restart == restart {
			return t.Runtime[k], true
		}
	}
	return RuntimeRun{}, false
}

// refine narrows the truth of point p, which its line gives, with what the node knows of the
// run: a start or an exit is containerd's own stamp, exactly; a SIGTERM follows the kubelet's
// kill line.
func (t *Truth) refine(p Point, in Instant) Instant {
	rt, ok := t.RuntimeOf(p.Container, int(p.Attempt))
	if !ok {
		return in
	}
	exact := func(at time.Time, what string) Instant {
		return Instant{At: at, Lo: at, Hi: at, What: what + " (line " + in.What + " at " + clock(in.At) + ")", Runtime: true}
	}
	switch {
	case (p.Kind == timeline.MStart || p.Kind == timeline.MRestart) && !rt.Started.IsZero():
		return exact(rt.Started, "containerd's startedAt")
	case p.Kind == timeline.MExit && !rt.Finished.IsZero():
		return exact(rt.Finished, "containerd's finishedAt")
	case p.Kind == timeline.MSigterm && !rt.Kill.IsZero() && !in.Hi.IsZero() && !rt.Kill.After(in.Hi):
		// Both ends are hard: the runtime signals the run after the kubelet logged it would, and
		// the trap writes its line after the signal. Slack is only the usual distance: a
		// container starved of CPU on a busy node has been seen to write it 150 ms later.
		in.Lo = rt.Kill
		in.What += ", after the kubelet's kill line at " + clock(rt.Kill)
	}
	return in
}
