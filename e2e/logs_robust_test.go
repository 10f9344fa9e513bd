//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/e2e/harness"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// The logs that --logs must survive (issue 8, "What must hold"): a container that prints
// nothing, a line of 1 MiB, binary output, 10,000 lines a second and more with the log rotated
// under the reader, a pod deleted while its logs are followed, and pods/log forbidden from the
// start or from the middle of a recording. In each the recorder keeps going (exit 0), says
// what it could not use, loses no observation of the API's nor any line's stamp, keeps stamps
// and lengths but no text (other than that of marked lines), and its memory stays bounded.

// TestLogsRobustOddLines: a native sidecar and an app that print nothing, an app that prints a
// line of 1 MiB and one that prints 64 KiB of random bytes. The silent runs' milestones come
// from the API, their logs are read to their (empty) end; the others' every line is kept, as a
// stamp and a length, the 1 MiB line counted whole.
func TestLogsRobustOddLines(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	r, err := env.NewRun(ctx, "lr-odd", "odd")
	if err != nil {
		t.Fatal(err)
	}
	keep(t, r)
	if err := r.StartRecord(ctx, "pod/odd", robustArgs("complete", 90*time.Second)...); err != nil {
		t.Fatal(err)
	}
	rss := watchRSS(r.Record)
	if err := r.Apply(ctx, "logs-robust-odd"); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(ctx, 0, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	checkPeakRSS(t, rss)
	checkInvariants(t, r.Timeline)
	checkInvariants(t, r.WithLogs)
	if said := saidLines(r.Record); len(said) > 0 {
		t.Errorf("the recorder warned, though every log could be read:\n%s", strings.Join(said, "\n"))
	}

	s := readRecordingStats(t, r.Record.Path)
	checkStampsOnly(t, s)
	p := onePod(t, r)
	withLogs := withLogsPod(t, r)
	all := []string{"mute-sidecar", "mute", "big", "binary"}
	checkRuns(t, "API only", p, all...)
	checkRuns(t, "with logs", withLogs, all...)

	for _, c := range []string{"mute-sidecar", "mute"} {
		rs := s.run(c, 0)
		switch {
		case rs == nil:
			t.Errorf("%s: the recording has no log item of the silent run: its log was never read", c)
		case rs.Lines > 0 || !rs.FromStart || !rs.End:
			t.Errorf("%s: the silent run's log reads %d lines, from its start %v, to its end %v; want 0, true, true",
				c, rs.Lines, rs.FromStart, rs.End)
		}
		if l := runLog(withLogs, c, 0); l != nil {
			t.Errorf("%s: the timeline has a log of %d lines for a run that printed nothing", c, l.Lines)
		}
		for _, k := range []timeline.MilestoneKind{timeline.MStart, timeline.MExit} {
			if m := harness.FindMilestone(withLogs, c, k, 0); m != nil && m.Source == timeline.SourceLog {
				t.Errorf("%s: a log line placed the %s of a run that printed nothing: %s", c, k, describe(m))
			}
		}
	}

	printed := 0
	if big := checkLinesKept(t, r, s, "big", 0); big != nil {
		if big.Lines != 3 || big.MaxLen != 1<<20 {
			t.Errorf("big: %d lines, the longest %d bytes; want 3, the longest 1048576", big.Lines, big.MaxLen)
		}
		if diff := cmp.Diff(big.Marked, map[string][]string{"start": {"big start"}, "exit": {"big done"}}); diff != "" {
			t.Errorf("big: the marked lines (-got +want):\n%s", diff)
		}
		printed += big.Bytes + big.Lines
	}
	if bin := checkLinesKept(t, r, s, "binary", 0); bin != nil {
		printed += bin.Bytes + bin.Lines
	}
	t.Logf("the containers printed %s; the recording is %s", mib(int64(printed)), mib(s.Size))
	if s.Size >= int64(printed)/4 {
		t.Errorf("the recording (%d bytes) is not much smaller than what was printed (%d bytes)", s.Size, printed)
	}
	checkWitnessed(t, r, []harness.Point{
		{Container: "big", Kind: timeline.MStart, Line: "big start", Stamp: harness.After},
		{Container: "big", Kind: timeline.MExit, Line: "big done", Stamp: harness.Before},
		{Container: "binary", Kind: timeline.MStart, Line: "binary start", Stamp: harness.After},
		{Container: "binary", Kind: timeline.MExit, Line: "binary done", Stamp: harness.Before},
	})
}

// What logs-robust-flood.yaml prints: "flood start", floodBursts bursts of floodBurstLines
// lines of floodLineLen bytes (one less in odd bursts), "flood done".
const (
	floodBursts     = 80
	floodBurstLines = 4000
	floodLineLen    = 200
)

// TestLogsRobustFlood: one container prints 320,000 lines of 200 (or 199) bytes in 20 s or more,
// and the kubelet rotates its log meanwhile. The recording has the stamp and length of every line
// printed (but what the kubelet's stream lost at a rotation), the text of none but the marked two;
// the recorder's memory does not grow with the log; the timeline has the run's start and exit.
func TestLogsRobustFlood(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	// The harness's collector reads each log file whole ten times a second: for a log that grows
	// by megabytes a second it would load the machine more than the tool under test. It is given
	// a pod name no pod has; what the container printed is known from its script.
	r, err := env.NewRun(ctx, "lr-flood", "no-such-pod")
	if err != nil {
		t.Fatal(err)
	}
	keep(t, r)
	if err := r.StartRecord(ctx, "pod/flood", robustArgs("complete", 150*time.Second)...); err != nil {
		t.Fatal(err)
	}
	rss := watchRSS(r.Record)
	rot := watchRotation(ctx, r.Namespace, "flood", "flood")
	if err := r.Apply(ctx, "logs-robust-flood"); err != nil {
		t.Fatal(err)
	}
	code, err := r.Record.Wait(3 * time.Minute)
	rotated := rot.stop()
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 {
		t.Fatalf("sidecar-top record exited with status %d, want 0; stderr:\n%s", code, r.Record.Stderr())
	}
	checkPeakRSS(t, rss)
	for _, l := range saidLines(r.Record) {
		t.Logf("the recorder said: %s", l)
	}
	t.Logf("the kubelet rotated the log %d times (0.log reached %s): %v", len(rotated.files), mib(rotated.maxSize), rotated.files)
	if len(rotated.files) == 0 {
		t.Errorf("SCENARIO BROKEN: the kubelet never rotated the log, which reached %s", mib(rotated.maxSize))
	}

	s := readRecordingStats(t, r.Record.Path)
	checkStampsOnly(t, s)
	lines := floodBursts*floodBurstLines + 2
	text := floodBursts/2*floodBurstLines*(2*floodLineLen-1) + len("flood start") + len("flood done")
	printed := int64(text + lines)
	t.Logf("the container printed %d lines, %s; the recording is %s (%.1f%%)", lines, mib(printed), mib(s.Size),
		100*float64(s.Size)/float64(printed))
	if s.Size >= printed/2 {
		t.Errorf("the recording (%d bytes) is not much smaller than what was printed (%d bytes)", s.Size, printed)
	}
	rs := s.run("flood", 0)
	if rs == nil {
		t.Fatalf("the recording has no log of flood run 0; runs: %v", s.Runs)
	}
	t.Logf("flood run 0: the recording has %d lines (%d bytes, longest %d) in %d items", rs.Lines, rs.Bytes, rs.MaxLen, rs.Items)
	// The recorder keeps what the API sent; what the kubelet's stream lost as it rotated the log
	// is told apart burst by burst (checkFloodBursts).
	lostLines, lostBytes := checkFloodBursts(t, floodBurstsOf(rs.LenRuns), rotationTimes(t, rotated.files))
	if rs.Lines != lines-lostLines || rs.Bytes != text-lostBytes || rs.MaxLen != floodLineLen {
		t.Errorf("flood run 0: the recording has %d lines of %d bytes, the longest %d; printed: %d lines of %d bytes, the longest %d; the kubelet's stream lost %d lines, %d bytes",
			rs.Lines, rs.Bytes, rs.MaxLen, lines, text, floodLineLen, lostLines, lostBytes)
	}
	if !rs.FromStart || !rs.End {
		t.Errorf("flood run 0: its log was not read from its start (%v) to its end (%v)", rs.FromStart, rs.End)
	}
	if diff := cmp.Diff(rs.Marked, map[string][]string{"start": {"flood start"}, "exit": {"flood done"}}); diff != "" {
		t.Errorf("flood: the marked lines (-got +want):\n%s", diff)
	}

	tl := replayWithLogs(t, r.Record.Path)
	checkInvariants(t, tl)
	if len(tl.Pods) != 1 {
		t.Fatalf("the timeline has %d pods, want 1", len(tl.Pods))
	}
	p := tl.Pods[0]
	checkRuns(t, "with logs", p, "flood")
	if p.Phase != "Succeeded" {
		t.Errorf("the pod's phase is %q, want Succeeded", p.Phase)
	}
	lg := runLog(p, "flood", 0)
	if lg == nil {
		t.Fatal("the timeline has no log of flood run 0")
	}
	if lg.Lines != rs.Lines {
		t.Errorf("the timeline counts %d lines of flood run 0, the recording has %d", lg.Lines, rs.Lines)
	}
	top := 0
	for _, c := range lg.PerSecond.All() {
		top = max(top, c.Lines)
	}
	t.Logf("flood run 0 wrote %d lines from %s to %s: %.0f a second on average, %d in its busiest second",
		lg.Lines, clock(lg.First), clock(lg.Last), float64(lg.Lines)/lg.Last.Sub(lg.First).Seconds(), top)
}

// TestLogsRobustPodDeleted: a pod is deleted while the logs of its three containers are
// followed, each printing a line every 10 ms; one of them ignores SIGTERM and is killed. The
// recorder goes on to the pod's deletion, has every line each run printed (to the last before
// its exit), every run's exit, and the deletion.
func TestLogsRobustPodDeleted(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	r, err := env.NewRun(ctx, "lr-deleted", "doomed")
	if err != nil {
		t.Fatal(err)
	}
	keep(t, r)
	if err := r.StartRecord(ctx, "pod/doomed", robustArgs("deleted", 120*time.Second)...); err != nil {
		t.Fatal(err)
	}
	rss := watchRSS(r.Record)
	if err := r.Apply(ctx, "logs-robust-deleted"); err != nil {
		t.Fatal(err)
	}
	if err := harness.LineThenDelete("doomed", "chatty", "chatty line 200", 0)(ctx, r, t.Logf); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(ctx, 0, 3*time.Minute); err != nil {
		t.Fatal(err)
	}
	checkPeakRSS(t, rss)
	checkInvariants(t, r.Timeline)
	checkInvariants(t, r.WithLogs)
	for _, l := range saidLines(r.Record) {
		t.Logf("the recorder said: %s", l)
	}
	truthOrder(t, r, line{"chatty", 0, "chatty got TERM"}, line{"chatty", 0, "chatty exiting"},
		line{"chatty-sidecar", 0, "chatty-sidecar got TERM"}, line{"chatty-sidecar", 0, "chatty-sidecar exiting"})
	truthOrder(t, r, line{"stubborn", 0, "stubborn got TERM"})

	s := readRecordingStats(t, r.Record.Path)
	checkStampsOnly(t, s)
	all := []string{"chatty-sidecar", "chatty", "stubborn"}
	for _, c := range all {
		checkLinesKept(t, r, s, c, 0)
	}
	p, withLogs := onePod(t, r), withLogsPod(t, r)
	checkRuns(t, "API only", p, all...)
	checkRuns(t, "with logs", withLogs, all...)
	for _, q := range []*timeline.Pod{p, withLogs} {
		want(t, q, "", timeline.MDeleted, 0)
		checkExitCode(t, want(t, q, "stubborn", timeline.MExit, 0), 137, "SIGKILL")
		checkExitCode(t, want(t, q, "chatty", timeline.MExit, 0), 0, "")
	}
	checkDeletion(t, r, p, want(t, p, "chatty", timeline.MSigterm, 0), want(t, p, "stubborn", timeline.MSigterm, 0))
	var points []harness.Point
	for _, c := range []string{"chatty-sidecar", "chatty"} {
		points = append(points,
			harness.Point{Container: c, Kind: timeline.MStart, Line: c + " start", Stamp: harness.After},
			harness.Point{Container: c, Kind: timeline.MSigterm, Line: c + " got TERM", Stamp: harness.After},
			harness.Point{Container: c, Kind: timeline.MExit, Line: c + " exiting", Stamp: harness.Before})
	}
	points = append(points,
		harness.Point{Container: "stubborn", Kind: timeline.MStart, Line: "stubborn start", Stamp: harness.After},
		harness.Point{Container: "stubborn", Kind: timeline.MSigterm, Line: "stubborn got TERM", Stamp: harness.After})
	checkWitnessed(t, r, points)
}

// TestLogsRobustForbidden: the recorder's user may watch the pod and its Events but not read
// pods/log. It says so once, in one line, before it watches, and records the rest: the pod's
// runs, from the API.
func TestLogsRobustForbidden(t *testing.T) {
	t.Parallel()
	r, as := deniedRun(t, "lr-denied", "watcher")
	ctx := t.Context()
	if err := r.StartRecord(ctx, "pod/denied", deniedArgs(as)...); err != nil {
		t.Fatal(err)
	}
	said := finishDenied(t, r)
	want := fmt.Sprintf("sidecar-top: not allowed to read the pods' logs (get pods/log) in namespace %q", r.Namespace)
	if len(said) != 1 || !strings.HasPrefix(said[0], want) || !strings.HasSuffix(said[0], ": the containers' logs are not used as evidence") {
		t.Errorf("the recorder said:\n%s\nwant one line: %s...: the containers' logs are not used as evidence", strings.Join(said, "\n"), want)
	}
}

// TestLogsRobustForbiddenMidRun: the recorder's user may read pods/log when it starts, and no
// longer when the pod runs: the first refusal turns the logs off, said once in one line, and
// the rest is recorded.
func TestLogsRobustForbiddenMidRun(t *testing.T) {
	t.Parallel()
	r, as := deniedRun(t, "lr-revoked", "watcher", "log-reader")
	ctx := t.Context()
	if err := r.StartRecord(ctx, "pod/denied", deniedArgs(as)...); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Kubectl(ctx, "delete", "rolebinding", "log-reader"); err != nil {
		t.Fatal(err)
	}
	waitCanReadLogs(t, r, as, false)
	said := finishDenied(t, r)
	want := "sidecar-top: warning: watching logs: not allowed to read the containers' logs, so they are not used: "
	if len(said) != 1 || !strings.HasPrefix(said[0], want) {
		t.Errorf("the recorder said:\n%s\nwant one line: %s...", strings.Join(said, "\n"), want)
	}
}

// deniedRun makes a run for the pod of logs-robust-denied.yaml whose ServiceAccount watcher is
// bound to the roles of logs-robust-rbac.yaml named, and returns it and the user to record as.
func deniedRun(t *testing.T, name string, roles ...string) (*harness.Run, string) {
	t.Helper()
	ctx := t.Context()
	r, err := env.NewRun(ctx, name, "denied")
	if err != nil {
		t.Fatal(err)
	}
	keep(t, r)
	if err := r.Apply(ctx, "logs-robust-rbac"); err != nil {
		t.Fatal(err)
	}
	for _, role := range roles {
		if _, err := r.Kubectl(ctx, "create", "rolebinding", role, "--role", role, "--serviceaccount", r.Namespace+":watcher"); err != nil {
			t.Fatal(err)
		}
	}
	as := "system:serviceaccount:" + r.Namespace + ":watcher"
	waitCanReadLogs(t, r, as, slices.Contains(roles, "log-reader"))
	return r, as
}

// deniedArgs record as the user, with the logs asked for.
func deniedArgs(as string) []string {
	return []string{"--as", as, "--logs", "--marks", filepath.Join(env.Root, "e2e", "manifests", harness.MarksFile),
		"--until", "complete", "--timeout", "90s"}
}

// waitCanReadLogs waits until the API server says the user may (or may not) read pods/log.
func waitCanReadLogs(t *testing.T, r *harness.Run, as string, may bool) {
	t.Helper()
	want := map[bool]string{true: "yes", false: "no"}[may]
	var got string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		out, _ := r.Kubectl(t.Context(), "auth", "can-i", "get", "pods", "--subresource=log", "--as", as)
		if got = strings.TrimSpace(out); got == want {
			return
		}
	}
	t.Fatalf("kubectl auth can-i get pods/log --as %s: %q, want %q", as, got, want)
}

// finishDenied applies the pod, waits for the recorder, checks that it recorded the pod's runs
// without a line of their logs, and returns what it said.
func finishDenied(t *testing.T, r *harness.Run) []string {
	t.Helper()
	rss := watchRSS(r.Record)
	if err := r.Apply(t.Context(), "logs-robust-denied"); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(t.Context(), 0, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	checkPeakRSS(t, rss)
	checkInvariants(t, r.Timeline)
	s := readRecordingStats(t, r.Record.Path)
	t.Logf("the recording holds %v", s.Kinds)
	if r.LogItems != 0 || s.Kinds["Pod"] == 0 || s.Kinds["Event"] == 0 {
		t.Errorf("the recording has %d log items, %d pods, %d Events; want no log item, and pods and Events", r.LogItems,
			s.Kinds["Pod"], s.Kinds["Event"])
	}
	all := []string{"denied-sidecar", "denied-app"}
	checkRuns(t, "API only", onePod(t, r), all...)
	checkRuns(t, "replayed whole", withLogsPod(t, r), all...)
	checkWitnessed(t, r, []harness.Point{
		{Container: "denied-app", Kind: timeline.MStart, Line: "denied-app start", Stamp: harness.After},
		{Container: "denied-app", Kind: timeline.MExit, Line: "denied-app done", Stamp: harness.Before},
	})
	return saidLines(r.Record)
}
