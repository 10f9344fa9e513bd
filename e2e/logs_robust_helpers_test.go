//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// The helpers of the log robustness tests (logs_robust_test.go): what a recording holds of the
// logs, the recorder's peak memory, and what it said on standard error.

// maxRecorderRSS is the peak resident memory a recorder may reach while it follows the logs of
// these pods: generous, since the point is that it does not grow with what the containers print
// (some 64 MB in TestLogsRobustFlood).
const maxRecorderRSS = 300 << 20

// robustArgs are the recorder's arguments: as every scenario is recorded (the scenario marks,
// the kubelet's log), with --until and --timeout.
func robustArgs(until string, timeout time.Duration) []string {
	return []string{"--marks", filepath.Join(env.Root, "e2e", "manifests", harness.MarksFile), "--node-logs",
		"--until", until, "--timeout", timeout.String()}
}

// runLogStats is what a recording holds of one container run's log.
type runLogStats struct {
	Container   string
	ContainerID string
	Attempt     int32 // the highest attempt its items gave (-1: never known)
	Items       int   // ContainerLog items
	Lines       int
	Bytes       int // the lines' lengths, summed
	MaxLen      int
	FromStart   bool // the first item said the log was read from its start
	End         bool // an item said the log ended with the run
	Marked      map[string][]string
	// Unmarked are the texts of lines that matched no mark: none may be kept without
	// --record-log-text.
	Unmarked []string
	LenRuns  []lenRun // the lines' lengths in order, consecutive equal lengths counted once
}

// lenRun is Count consecutive lines of Len bytes, stamped First to Last.
type lenRun struct {
	Len, Count  int
	First, Last time.Time
}

// recordingStats is what a recording holds: its size, its header, its items by kind, its notes,
// and each run's log.
type recordingStats struct {
	Size   int64
	Header *recfile.Header
	Kinds  map[string]int
	Notes  []string
	Runs   map[string]*runLogStats // by container ID
}

// run is the stats of the container's run attempt, or nil.
func (s *recordingStats) run(container string, attempt int32) *runLogStats {
	for _, r := range s.Runs {
		if r.Container == container && r.Attempt == attempt {
			return r
		}
	}
	return nil
}

// readRecordingStats streams the recording at path (it may be large) and sums up its log items.
func readRecordingStats(t *testing.T, path string) *recordingStats {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	rd, err := recfile.NewReader(f, path, recfile.Options{})
	if err != nil {
		t.Fatalf("the recording does not read back: %v", err)
	}
	defer rd.Close()
	s := &recordingStats{Size: fi.Size(), Header: rd.Header(), Kinds: map[string]int{}, Runs: map[string]*runLogStats{}}
	for {
		it, err := rd.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the recording does not read back: %v", err)
		}
		s.Kinds[it.Object.GetObjectKind().GroupVersionKind().Kind]++
		switch o := it.Object.(type) {
		case *watch.Note:
			s.Notes = append(s.Notes, o.Text())
		case *watch.ContainerLog:
			s.addLog(o)
		}
	}
	if rd.Truncated {
		t.Errorf("the recording ends in a partial line")
	}
	return s
}

func (s *recordingStats) addLog(c *watch.ContainerLog) {
	r := s.Runs[c.ContainerID]
	if r == nil {
		r = &runLogStats{Container: c.Container, ContainerID: c.ContainerID, Attempt: c.Attempt, FromStart: c.FromStart,
			Marked: map[string][]string{}}
		s.Runs[c.ContainerID] = r
	}
	r.Items++
	r.Attempt = max(r.Attempt, c.Attempt)
	r.End = r.End || c.End
	for _, l := range c.Lines {
		if n := len(r.LenRuns); n > 0 && r.LenRuns[n-1].Len == l.Len {
			r.LenRuns[n-1].Count++
			r.LenRuns[n-1].Last = l.At
		} else {
			r.LenRuns = append(r.LenRuns, lenRun{Len: l.Len, Count: 1, First: l.At, Last: l.At})
		}
		r.Lines++
		r.Bytes += l.Len
		r.MaxLen = max(r.MaxLen, l.Len)
		switch {
		case l.Mark != "":
			r.Marked[l.Mark] = append(r.Marked[l.Mark], l.Text)
		case l.Text != "":
			r.Unmarked = append(r.Unmarked, l.Text)
		}
	}
}

// checkStampsOnly checks that the recording says it keeps no line's text, and keeps none but
// that of marked lines.
func checkStampsOnly(t *testing.T, s *recordingStats) {
	t.Helper()
	if h := s.Header; h == nil || !h.Logs || h.LogText {
		t.Errorf("the recording's header does not say it holds the logs' stamps without their text: %+v", h)
	}
	for _, r := range s.Runs {
		if len(r.Unmarked) > 0 {
			t.Errorf("%s run %d: the recording keeps the text of %d lines that matched no mark, e.g. %.80q",
				r.Container, r.Attempt, len(r.Unmarked), r.Unmarked[0])
		}
	}
}

// truthLines is how many lines run restart of the container wrote, as the runtime logged them,
// and their bytes (without the newlines).
func truthLines(r *harness.Run, container string, restart int) (lines, bytes int) {
	for k, ls := range r.Truth.Runs {
		if k.Container == container && k.Restart == restart {
			for _, l := range ls {
				lines++
				bytes += len(l.Text)
			}
		}
	}
	return lines, bytes
}

// checkLinesKept checks that the recording has the stamp of every line the run wrote (as the
// runtime logged it), each once, and that its log was read from its start to its end.
func checkLinesKept(t *testing.T, r *harness.Run, s *recordingStats, container string, attempt int32) *runLogStats {
	t.Helper()
	rs := s.run(container, attempt)
	if rs == nil {
		t.Errorf("%s run %d: the recording has no log of it", container, attempt)
		return nil
	}
	lines, size := truthLines(r, container, int(attempt))
	t.Logf("%s run %d: the runtime logged %d lines (%d bytes); the recording has %d (%d bytes, longest %d) in %d items",
		container, attempt, lines, size, rs.Lines, rs.Bytes, rs.MaxLen, rs.Items)
	if rs.Lines != lines || rs.Bytes != size {
		t.Errorf("%s run %d: the recording has %d lines of %d bytes, the runtime logged %d of %d", container, attempt,
			rs.Lines, rs.Bytes, lines, size)
	}
	if !rs.FromStart || !rs.End {
		t.Errorf("%s run %d: its log was not read from its start (%v) to its end (%v)", container, attempt, rs.FromStart, rs.End)
	}
	return rs
}

// runLog is what the timeline's lane says of the run's log, or nil.
func runLog(p *timeline.Pod, container string, attempt int32) *timeline.RunLog {
	c := harness.FindContainer(p, container)
	if c == nil {
		return nil
	}
	if r := c.Run(attempt); r != nil {
		return r.Log
	}
	return nil
}

// withLogsPod is the only pod of the timeline replayed with the logs.
func withLogsPod(t *testing.T, r *harness.Run) *timeline.Pod {
	t.Helper()
	if n := len(r.WithLogs.Pods); n != 1 {
		t.Fatalf("the timeline replayed with the logs has %d pods, want 1", n)
	}
	return r.WithLogs.Pods[0]
}

// checkRuns checks that the lane has each run's start (or restart) and exit.
func checkRuns(t *testing.T, where string, p *timeline.Pod, containers ...string) {
	t.Helper()
	for _, c := range containers {
		for _, k := range []timeline.MilestoneKind{timeline.MStart, timeline.MExit} {
			if harness.FindMilestone(p, c, k, 0) == nil {
				t.Errorf("%s: no %s#0 of %s; the lane has: %s", where, k, c, kinds(p, c))
			}
		}
	}
}

// checkWitnessed holds every point to the bounds of the API-only timeline and of the one with
// the logs.
func checkWitnessed(t *testing.T, r *harness.Run, points []harness.Point) {
	t.Helper()
	for _, tl := range []struct {
		name string
		doc  *harness.Timeline
	}{{"API only", r.Timeline}, {"with logs", r.WithLogs}} {
		if len(tl.doc.Pods) != 1 {
			t.Errorf("%s: %d pods, want 1", tl.name, len(tl.doc.Pods))
			continue
		}
		for _, c := range harness.CheckPoints(tl.doc.Pods[0], r.Truth, points) {
			if c.Err != nil {
				t.Errorf("%s: %v", tl.name, c.Err)
			} else {
				t.Logf("truth ok (%s): %s", tl.name, c)
			}
		}
	}
}

// saidLines are the lines the recorder wrote on standard error but the ones that say it watches
// and, at the end, what it recorded.
func saidLines(rec *harness.Record) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(rec.Stderr()), "\n") {
		if l != "" && !strings.HasPrefix(l, "sidecar-top: watching ") && !strings.HasPrefix(l, "sidecar-top: recorded ") {
			out = append(out, l)
		}
	}
	return out
}

// replayWithLogs replays a recording whole, as the harness does for a run it finishes.
func replayWithLogs(t *testing.T, path string) *harness.Timeline {
	t.Helper()
	code, stdout, stderr, _ := sidecarTop(t.Context(), "replay", path, "-o", "json")
	if code != 0 {
		t.Fatalf("sidecar-top replay %s -o json: exit %d: %s", path, code, stderr)
	}
	var tl harness.Timeline
	if err := json.Unmarshal([]byte(stdout), &tl); err != nil {
		t.Fatalf("the replay's JSON: %v", err)
	}
	return &tl
}

// mib prints a size in MiB.
func mib(n int64) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }
